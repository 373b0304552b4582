// Issue #31, "Languages", on three browser engines (docs/i18n.md,
// docs/testing.md), run once per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-i18n.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// The room and one console page (the transactions) in Arabic and Spanish:
// <html lang dir> right (Arabic right to left), no English message left
// (./lib/i18n.mjs englishLeft), axe finds nothing serious, and the language
// menu switches the page at once. Every navigation names its language with
// ?lang=: WebKit's adapter keeps one browser session, so a cookie chosen by
// one test would reach the next.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { mixedPDF } from "./lib/pdf.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertNoProblems } from "./lib/room.mjs";
import { signIn, axeViolations } from "./lib/admin.mjs";
import { visibleTexts, englishLeft } from "./lib/i18n.mjs";

const T = { timeout: 240000 };
let srv, browser, doc, data;

before(async () => {
  srv = await startServer();
  browser = await launch();
  doc = await srv.upload(mixedPDF(), "Agreement");
  data = ["Agreement", "Pat Buyer", "Robin Seller", "Pat", "Buyer", "Robin", "Seller", "pat@example.com", "robin@example.com", "Sam Sender", "sender@example.com",
    "Demo Organization", "Sample Purchase Agreement", "Sample Disclosure Statement", srv.adminEmail];
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

const withLang = (url, lang) => url + (url.includes("?") ? "&" : "?") + "lang=" + lang;

/**
 * Fails unless the page is in lang (<html lang dir>, the menu's choice); adds
 * the English messages left and axe's findings to found (asserted empty at
 * the end, so one run reports them all).
 */
async function assertIn(page, lang, where, found) {
  const html = await page.eval(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir, menu: document.querySelector("[data-language-menu]")?.value }));
  assert.deepEqual(html, { lang, dir: lang === "ar" ? "rtl" : "ltr", menu: lang }, `${engine} ${where}: <html lang dir> and the menu`);
  found.push(...englishLeft(await visibleTexts(page), lang, { allow: data }).map((l) => `${engine} ${where}: English left: ${l}`));
  found.push(...(await axeViolations(page, where)));
}

/** Chooses lang in the language menu and waits for the page it reloads. */
async function choose(page, lang, ready) {
  await page.select("[data-language-menu]", lang);
  await page.waitFor((lang) => document.readyState === "complete" && document.documentElement.lang === lang, lang, { message: `${engine}: the page reloads in ${lang}` });
  await page.hooks();
  if (ready) await page.waitForSelector(ready);
}

for (const lang of ["ar", "es"]) {
  test(`${engine}: the room in ${lang}: lang and dir, no English left, axe clean, the menu switches`, T, async () => {
    const found = [];
    const page = await pages.openRoom(withLang((await srv.room([doc])).url, lang));
    await assertIn(page, lang, `room (${lang})`, found);
    await page.screenshot(`i18n-room-${lang}`);
    const other = lang === "ar" ? "es" : "ar";
    await choose(page, other, ".viewer-page--rendered");
    await assertIn(page, other, `room (${lang} → ${other} by the menu)`, found);
    await assertNoProblems(page);
    assert.deepEqual(found, [], "\n" + found.join("\n"));
  });

  test(`${engine}: the console's transactions in ${lang}: lang and dir, no English left, axe clean, the menu switches`, T, async () => {
    const found = [];
    const page = await pages.newPage({ width: 1280, height: 900 });
    await signIn(page, srv);
    await page.goto(withLang(srv.base + "/admin/transactions", lang));
    await page.waitForSelector("[data-transaction-id]");
    await assertIn(page, lang, `console transactions (${lang})`, found);
    await page.screenshot(`i18n-console-${lang}`);
    const other = lang === "ar" ? "es" : "ar";
    await choose(page, other, "[data-transaction-id]");
    await assertIn(page, other, `console transactions (${lang} → ${other} by the menu)`, found);
    await assertNoProblems(page);
    assert.deepEqual(found, [], "\n" + found.join("\n"));
  });
}
