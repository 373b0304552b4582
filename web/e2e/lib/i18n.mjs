// The browser tests' checks of issue #31, "Languages" (docs/i18n.md,
// docs/testing.md): what a page shows people, English words left in a
// translated page, text outside the pseudo-language's ⟦ ⟧, and layouts the
// longer words break. Driver-neutral: `page` is a playwright-core page
// (evaluate) or a page object of ./engine.mjs (eval).
import { readFileSync } from "node:fs";

const localesDir = new URL("../../i18n/locales/", import.meta.url);
const catalogs = new Map();

/** The catalog of a language, web/i18n/locales/<tag>.json (id → string or plural object). */
export function catalog(tag) {
  if (!catalogs.has(tag)) catalogs.set(tag, JSON.parse(readFileSync(new URL(`${tag}.json`, localesDir), "utf8")));
  return catalogs.get(tag);
}

/** English's catalog. */
export const englishCatalog = () => catalog("en");

/** The language menu's names of the languages (data, in their own language), and the product's name. */
export const ALWAYS_ALLOWED = ["English", "Español", "Français", "Deutsch", "العربية", "Pseudo", "Markup Room"];

const run = (page, fn, arg) => (typeof page.eval === "function" ? page.eval(fn, arg) : page.evaluate(fn, arg));

/**
 * Every text a person reads on the page, as {text, where}: each visible text
 * node (not in <script>, <style>, <template>, hidden elements or aria-hidden
 * subtrees), the whole text of an element that mixes text with inline
 * elements (a message whose placeholder is wrapped in <strong>), the visible
 * attributes placeholder, title, aria-label and alt, each option of a visible
 * <select>, input buttons' values, and the document's <title>. where names
 * the element (tag#id.class[data-hook]). skip is a CSS selector of elements
 * that hold data shown as it is stored (the audit trail's summaries and
 * action words, docs/i18n.md): their texts are left out.
 */
export function visibleTexts(page, { skip = "" } = {}) {
  return run(page, (skip) => {
    const squash = (s) => s.replace(/\s+/g, " ").trim();
    const name = (el) => {
      let s = el.localName;
      if (el.id) s += "#" + el.id;
      const cls = [...el.classList].slice(0, 2);
      if (cls.length) s += "." + cls.join(".");
      const hook = [...el.attributes].find((a) => a.name.startsWith("data-") && a.name !== "data-i18n");
      if (hook) s += `[${hook.name}${hook.value && hook.value.length < 30 ? `="${hook.value}"` : ""}]`;
      return s;
    };
    const path = (el) => {
      const parts = [];
      for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) parts.unshift(name(e));
      return parts.join(" > ");
    };
    const hiddenCache = new Map();
    const hidden = (el) => {
      if (!el || el === document.documentElement) return false;
      if (hiddenCache.has(el)) return hiddenCache.get(el);
      let h = false;
      if (["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD"].includes(el.tagName)) h = true;
      else if (skip && el.matches(skip)) h = true;
      else if (el.getAttribute("aria-hidden") === "true" || el.hidden) h = true;
      else if (el.tagName === "DIALOG" && !el.open) h = true;
      else if (el.tagName === "DETAILS" && !el.open && el.parentElement) h = false;
      else {
        const cs = getComputedStyle(el);
        if (cs.display === "none" || cs.visibility === "hidden" || cs.visibility === "collapse" || Number(cs.opacity) === 0) h = true;
      }
      if (!h) h = hidden(el.parentElement);
      // Content of a closed <details> other than its <summary>.
      if (!h && el.parentElement?.tagName === "DETAILS" && !el.parentElement.open && el.tagName !== "SUMMARY") h = true;
      hiddenCache.set(el, h);
      return h;
    };
    const boxed = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const seen = (el) => !hidden(el) && (boxed(el) || el.getClientRects().length > 0);
    // The visually-hidden pattern (1 px, clipped) is read by screen readers: keep it.
    const out = [];
    const add = (text, where) => {
      const t = squash(text || "");
      if (t) out.push({ text: t, where });
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const mixed = new Set();
    // A message with <code> pieces (templates.Markup: "one origin a line: <code>https://app.example.com</code> or …")
    // is one message around data: its text nodes are fragments of it, so only its whole text, <code> taken out, is judged.
    const aroundCode = (el) => el.querySelector(":scope > code") !== null;
    const withoutCode = (el) => {
      const copy = el.cloneNode(true);
      for (const c of copy.querySelectorAll("code")) c.replaceWith(" ");
      return copy.textContent;
    };
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !squash(n.data) || !seen(el)) continue;
      if (el.closest("code")) continue; // data: event codes, URLs, addresses, host:port examples
      const isMixed = [...el.children].length && ![...el.children].some((c) => /^(DIV|P|UL|OL|LI|TABLE|SECTION|FORM|DIALOG|BUTTON|SELECT|INPUT|TEXTAREA|LABEL|H[1-6])$/.test(c.tagName));
      if (isMixed) mixed.add(el);
      if (!(isMixed && aroundCode(el))) add(n.data, path(el));
    }
    for (const el of mixed) add(aroundCode(el) ? withoutCode(el) : el.textContent, path(el) + " (whole)");
    for (const el of document.body.querySelectorAll("[placeholder], [title], [aria-label], img[alt], input[alt], area[alt]")) {
      if (!seen(el)) continue;
      for (const attr of ["placeholder", "title", "aria-label", "alt"]) if (el.hasAttribute(attr)) add(el.getAttribute(attr), `${path(el)} @${attr}`);
    }
    for (const sel of document.body.querySelectorAll("select")) {
      if (!seen(sel)) continue;
      for (const o of sel.options) if (!o.hidden) add(o.label || o.text, `${path(sel)} > option[value="${o.value}"]`);
    }
    for (const el of document.body.querySelectorAll("input[type=submit], input[type=button], input[type=reset]")) if (seen(el)) add(el.value, path(el) + " @value");
    add(document.title, "<title>");
    return out;
  }, skip);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const LETTERS = /\p{L}/gu;
const letterCount = (s) => (s.replace(/\{[^}]*\}/g, "").match(LETTERS) || []).length;
const forms = (m) => (typeof m === "string" ? [m] : Object.values(m || {}));

// Data in any text: e-mail addresses and URLs (the participants' addresses, a webhook's URL).
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi;
// A placeholder that is an example of data, as a whole: a dotted code ("participant.renamed", an audit action).
// A catalog id is not one: a message shown by its id is a message missing.
const CODE_EXAMPLE = /^[a-z][a-z_]*(\.[a-z_]+)+$/;

/**
 * Removes each allowed string (data: names, titles, e-mails, the menu's
 * language names) from text, and e-mail addresses and URLs; a placeholder
 * (where ends "@placeholder") that is a dotted code is data as a whole.
 */
function withoutAllowed(text, allow, where = "") {
  if (where.endsWith("@placeholder") && CODE_EXAMPLE.test(text) && !(text in englishCatalog())) return "";
  let t = text.replace(EMAIL, " ").replace(URL_LIKE, " ");
  for (const a of [...allow].sort((x, y) => y.length - x.length)) if (a) t = t.split(a).join(" ");
  return t;
}

const matchers = new Map();

/**
 * The English messages a page in language tag may not show: every form of
 * every en.json message with 4 or more letters (placeholders aside) that the
 * language writes differently, as a regular expression ({name} a wildcard,
 * whole words only). A message whose literal words all occur in the
 * language's own catalog ("Total", "Page" in French) is left out: the words
 * are the language's too.
 */
function englishMatchers(tag) {
  if (matchers.has(tag)) return matchers.get(tag);
  const en = englishCatalog();
  const own = catalog(tag);
  const ownText = " " + Object.values(own).flatMap(forms).join(" \u0000 ") + " ";
  const list = [];
  for (const [id, msg] of Object.entries(en)) {
    const theirs = new Set(forms(own[id]));
    for (const s of forms(msg)) {
      if (letterCount(s) < 4 || theirs.has(s)) continue;
      const literals = s.split(/\{[^}]*\}/).map((p) => p.trim()).filter((p) => (p.match(LETTERS) || []).length > 0);
      if (literals.every((p) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(p)}(?![\\p{L}\\p{N}])`, "u").test(ownText))) continue;
      const body = s
        .split(/(\{[^}]*\})/)
        .map((p) => (/^\{[^}]*\}$/.test(p) ? ".+?" : escape(p).replace(/\s+/g, "\\s+")))
        .join("")
        .trim();
      list.push({ id, english: s, re: new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, "u") });
    }
  }
  // Longer messages first, so a report names the whole sentence rather than a word of it.
  list.sort((a, b) => b.english.length - a.english.length);
  matchers.set(tag, list);
  return list;
}

/**
 * The English messages (en.json) found in texts (visibleTexts) of a page in
 * language tag, as readable lines `where: "text" has English <id> "<message>"`;
 * allow lists data the test created (names, titles, e-mails), taken out of
 * each text before looking. Empty when nothing English is left.
 */
export function englishLeft(texts, tag, { allow = [] } = {}) {
  const allowed = [...ALWAYS_ALLOWED, ...allow];
  const found = new Map();
  for (const { text, where } of texts) {
    const t = withoutAllowed(text, allowed, where);
    for (const m of englishMatchers(tag)) {
      if (!m.re.test(t)) continue;
      const key = `${m.id}|${text}`;
      if (!found.has(key)) found.set(key, `${where}: "${text.slice(0, 160)}" has English ${m.id} "${m.english}"`);
      break;
    }
  }
  return [...found.values()];
}

// File formats' names, the same in every language ("XFDF" on a download button).
const FORMATS = new Set(["PDF", "XFDF", "CSV", "XLSX"]);

const ID_LIKE = /^[\p{L}\p{N}_.:/-]*\p{N}[\p{L}\p{N}_.:/-]*$/u;

/**
 * For the pseudo-language en-XA: the words of texts (visibleTexts) outside
 * ⟦…⟧ that hold letters and are not allowed data, as readable lines
 * `where: "text" shows "<words>" outside ⟦⟧`. Numbers, punctuation, format names (FORMATS), ids
 * (words with a digit: UUIDs, transaction ids, dates) pass.
 */
export function outsidePseudo(texts, { allow = [] } = {}) {
  const allowed = [...ALWAYS_ALLOWED, ...allow];
  const out = [];
  const seen = new Set();
  for (const { text, where } of texts) {
    let t = withoutAllowed(text, allowed, where);
    for (let prev = null; prev !== t; ) {
      prev = t;
      t = t.replace(/⟦[^⟦⟧]*⟧/g, " ");
    }
    const words = t
      .split(/\s+/)
      .map((w) => w.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, ""))
      .filter((w) => !ID_LIKE.test(w))
      .flatMap((w) => w.split(/[\p{P}\p{S}]+/u))
      .filter((w) => /\p{L}/u.test(w) && !FORMATS.has(w));
    if (!words.length) continue;
    const line = `${where}: "${text.slice(0, 160)}" shows "${words.join(" ")}" outside ⟦⟧`;
    if (!seen.has(line)) out.push(line);
    seen.add(line);
  }
  return out;
}

/**
 * Elements whose content is clipped or spills, as readable lines: an
 * element with overflow hidden or clip whose content is wider (or taller)
 * than its box, unless it is meant to cut (text-overflow: ellipsis, a line
 * clamp, the visually-hidden pattern); a button, link-button, label or
 * summary whose text is wider than its box; and the document wider than the
 * window. Scrolling containers (auto, scroll) are meant to scroll and pass.
 */
export function overflows(page) {
  return run(page, () => {
    const out = [];
    const name = (el) => {
      let s = el.localName;
      if (el.id) s += "#" + el.id;
      const cls = [...el.classList].slice(0, 2);
      if (cls.length) s += "." + cls.join(".");
      const hook = [...el.attributes].find((a) => a.name.startsWith("data-"));
      if (hook) s += `[${hook.name}]`;
      return s;
    };
    const path = (el) => {
      const parts = [];
      for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) parts.unshift(name(e));
      return parts.join(" > ");
    };
    const text = (el) => (el.innerText || el.value || "").replace(/\s+/g, " ").trim().slice(0, 80);
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) out.push(`the page is ${doc.scrollWidth - doc.clientWidth} px wider than its window (${doc.clientWidth} px)`);
    const visible = (el) => {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
      for (let e = el; e; e = e.parentElement) if (e.getAttribute("aria-hidden") === "true" || (e.tagName === "DIALOG" && !e.open)) return false;
      return true;
    };
    for (const el of document.body.querySelectorAll("*")) {
      if (["SCRIPT", "STYLE", "SVG", "CANVAS", "IMG", "IFRAME", "PATH", "OPTION"].includes(el.tagName.toUpperCase())) continue;
      if (el.closest("svg")) continue;
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (r.width <= 2 || r.height <= 2) continue; // visually hidden, or collapsed
      if (!visible(el)) continue;
      const clips = (v) => v === "hidden" || v === "clip";
      const meantToCut = cs.textOverflow === "ellipsis" || (cs.webkitLineClamp && cs.webkitLineClamp !== "none") || (cs.clip !== "auto" && cs.clip !== "");
      const label = el.matches("button, .btn, label, summary, [role=button], [role=menuitem], [role=tab], input[type=submit], input[type=button], select");
      const wide = el.scrollWidth - el.clientWidth;
      const tall = el.scrollHeight - el.clientHeight;
      if (!meantToCut && clips(cs.overflowX) && wide > 1) out.push(`${path(el)}: content ${wide} px wider than its box, cut ("${text(el)}")`);
      else if (!meantToCut && clips(cs.overflowY) && tall > 1 && el.tagName !== "HTML" && el.tagName !== "BODY") out.push(`${path(el)}: content ${tall} px taller than its box, cut ("${text(el)}")`);
      else if (label && !clips(cs.overflowX) && cs.overflowX !== "auto" && cs.overflowX !== "scroll" && wide > 1 && !meantToCut) out.push(`${path(el)}: text ${wide} px wider than the ${el.localName} ("${text(el)}")`);
    }
    return out;
  });
}
