// The editor's words: the messages of the page's language, which the server
// hands to the page in <script id="i18n-messages" type="application/json">
// (templates/i18n.go; the catalogs are web/i18n/locales/*.json, shared with
// the server, so no string has a second copy here). Plurals, numbers and
// dates follow the browser's Intl for the page's language.
//
//   t(id, { count: 3 })   → "3 pages" / "3 páginas" (a plural message)
//
// A message is a string with {name} placeholders, or an object of CLDR
// plural forms ("one", "few", "other", …) chosen by the argument `count`.

const placeholder = /\{([a-zA-Z][a-zA-Z0-9_]*)\}/g;

/** createTranslator returns t, number and date for one language's messages. */
export function createTranslator({ lang = "en", format = "en", messages = {} } = {}) {
  const plurals = new Intl.PluralRules(format);
  const numbers = new Intl.NumberFormat(format);
  const dates = new Intl.DateTimeFormat(format, { dateStyle: "medium" });
  const value = (v) => (typeof v === "number" ? numbers.format(v) : v instanceof Date ? dates.format(v) : String(v));
  function t(id, args = {}) {
    const m = messages[id];
    if (m === undefined) return id;
    const text = typeof m === "string" ? m : (m[plurals.select(Number(args.count ?? 0))] ?? m.other);
    return text.replace(placeholder, (whole, name) => (name in args ? value(args[name]) : whole));
  }
  return { lang, t, number: (n) => numbers.format(n), date: (d) => dates.format(d) };
}

let current = null;

/** pageMessages reads the page's messages (none outside a browser). */
function pageMessages() {
  const el = typeof document !== "undefined" ? document.getElementById("i18n-messages") : null;
  if (!el) return {};
  try {
    return JSON.parse(el.textContent);
  } catch {
    return {};
  }
}

/** translator is the page's translator, read once. */
export function translator() {
  if (!current) current = createTranslator(pageMessages());
  return current;
}

/** useMessages replaces the page's messages (unit tests load a catalog). */
export function useMessages(m) {
  current = createTranslator(m);
}

/** t is the page's message id with its placeholders filled. */
export function t(id, args) {
  return translator().t(id, args);
}
