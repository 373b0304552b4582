// The editor's words come from the catalogs (docs/i18n.md): in Spanish they
// come out in Spanish, and no module keeps an English sentence of its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { speak } from "./english.mjs";
import { t } from "../src/editor/i18n.mjs";
import { selectionMessage } from "../src/editor/selection.mjs";
import { count } from "../src/editor/templates.mjs";
import { parsePages } from "../src/editor/pagecopy.mjs";
import { suggestionName } from "../src/editor/suggestions.mjs";

test("with the Spanish catalog, counts, undo labels and errors are Spanish", () => {
  speak("es");
  try {
    assert.equal(selectionMessage(1), "1 etiqueta seleccionada");
    assert.equal(selectionMessage(3), "3 etiquetas seleccionadas");
    assert.equal(count(2, "page"), "2 páginas");
    assert.equal(t("editor.undo.move_page", { from: "2", to: "5" }), "mover la página 2 a 5");
    assert.equal(t("editor.undo.accept_suggestions", { count: 4 }), "aceptar 4 campos sugeridos");
    assert.equal(parsePages("9", 3).error, "La página 9 no existe: el documento tiene 3 páginas.");
    assert.equal(suggestionName({ type: "signature", label: "Firma", page: 2 }, "Contrato"), "Firma, página 2 de Contrato");
  } finally {
    speak("en");
  }
  assert.equal(selectionMessage(3), "3 tags selected");
});

test("with the Arabic catalog, a count takes the plural form its number needs", () => {
  speak("ar", "ar-u-nu-latn");
  try {
    assert.deepEqual([1, 2, 3, 11, 100].map((n) => count(n, "tag")), ["وسم واحد", "وسمان", "3 وسوم", "11 وسمًا", "100 وسم"]);
  } finally {
    speak("en");
  }
});

// Where a module puts words on screen: text, titles, labels, placeholders,
// the status line, toasts, form errors and the errors a step throws to it.
const SINKS = [
  /\.(?:textContent|title|placeholder|innerText)\s*=\s*(["'`])((?:\\.|(?!\1).)*)\1/g,
  /setAttribute\(\s*["'](?:aria-label|title|placeholder|alt)["']\s*,\s*(["'`])((?:\\.|(?!\1).)*)\1/g,
  /\b(?:message|label|notice|error|hint):\s*(["'`])((?:\\.|(?!\1).)*)\1/g,
  /\b(?:setStatus|showError|say|toast|status)\(\s*(["'`])((?:\\.|(?!\1).)*)\1/g,
  /new (?:Error|SaveError)\(\s*(["'`])((?:\\.|(?!\1).)*)\1/g,
  /\bnew Option\(\s*(["'`])((?:\\.|(?!\1).)*)\1/g,
  /\bh\(\s*["'][a-z0-9]+["']\s*,\s*["'][^"']*["']\s*,\s*(["'`])((?:\\.|(?!\1).)*)\1/g,
  /\bbutton\([^()]*,\s*[^()]*,\s*(["'`])((?:\\.|(?!\1).)*)\1\)/g,
];

// Literals in those places that are not words for people (file: text).
const ALLOWED = new Set([
  "align.mjs: unknown alignment ${how}", // a programming error, never shown
  "viewer.mjs: the viewer was closed", // an internal rejection, never shown
]);

/** Words: two letters or more, then a space and a letter — an English phrase, not a hook or a class. */
const looksLikeWords = (s) => /[A-Za-z]{2,}[ ,.:;!?…][ ]?[A-Za-z]/.test(s.replace(/\$\{[^}]*\}/g, "")) || /^[A-Z][a-z]{2,}/.test(s);

test("no editor module puts an English literal on screen (the catalogs hold the words)", () => {
  const dir = new URL("../src/editor/", import.meta.url);
  const found = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".mjs"))) {
    const text = readFileSync(new URL(name, dir), "utf8")
      .split("\n")
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join("\n");
    for (const re of SINKS) {
      for (const m of text.matchAll(re)) {
        const literal = m[2];
        if (!looksLikeWords(literal)) continue;
        if (!ALLOWED.has(`${name}: ${literal}`)) found.push(`${name}: ${literal}`);
      }
    }
  }
  assert.deepEqual(found, [], "put these words in web/i18n/locales/*.json and show them with t(id)");
});

test("the scan catches an English sentence in each kind of place", () => {
  const samples = ['el.textContent = "No tags yet";', 'bus.emit("status", { message: `Copied ${n} tags.` });', 'b.setAttribute("aria-label", "Close");', 'throw new SaveError("This tag is gone.", 0);', 'setStatus("Saving…", "busy");'];
  for (const s of samples) assert.ok(SINKS.some((re) => [...s.matchAll(re)].some((m) => looksLikeWords(m[2]))), s);
});
