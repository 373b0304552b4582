// Loads the English catalog into the editor's translator (web/src/editor/i18n.mjs),
// as a page in English would hand it over: tests that assert the editor's English
// words import this module first (docs/i18n.md).
import { readFileSync } from "node:fs";
import { useMessages } from "../src/editor/i18n.mjs";

/** The catalog of a language, as web/i18n/locales/<tag>.json holds it. */
export const catalog = (tag) => JSON.parse(readFileSync(new URL(`../i18n/locales/${tag}.json`, import.meta.url), "utf8"));

/** Makes the editor speak lang (its messages, Intl formats by format). */
export function speak(lang, format = lang) {
  useMessages({ lang, format, messages: catalog(lang) });
}

speak("en");
