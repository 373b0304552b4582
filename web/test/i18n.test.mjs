import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createTranslator } from "../src/editor/i18n.mjs";

const catalog = (tag) => JSON.parse(readFileSync(new URL(`../i18n/locales/${tag}.json`, import.meta.url), "utf8"));

test("messages fill placeholders, pick CLDR plural forms and write numbers by language", () => {
  const es = createTranslator({ lang: "es", format: "es", messages: { ...catalog("es"), x: { one: "{count} página", other: "{count} páginas" } } });
  assert.equal(es.t("layout.signout"), "Cerrar sesión");
  assert.equal(es.t("x", { count: 1 }), "1 página");
  assert.equal(es.t("x", { count: 1200 }), "1200 páginas");
  const ar = createTranslator({ lang: "ar", format: "ar-u-nu-latn", messages: { y: { zero: "z", one: "o", two: "t", few: "{count} f", many: "{count} m", other: "{count} x" } } });
  assert.deepEqual([0, 1, 2, 3, 11, 100].map((n) => ar.t("y", { count: n })), ["z", "o", "t", "3 f", "11 m", "100 x"]);
  assert.equal(createTranslator({ format: "de" }).number(1234567), "1.234.567");
  assert.equal(es.t("no.such.id"), "no.such.id");
});
