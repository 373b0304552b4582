// Issue #31, "Languages", in Chromium (docs/i18n.md, docs/testing.md): the
// room and its dialogs, menus and errors, and every console page, in each
// language but English show no English message left (./lib/i18n.mjs
// englishLeft), Arabic right to left; in the pseudo-language en-XA no text
// outside ⟦ ⟧ and no cut or spilling layout at 1440 and 390 px; the language
// menu, ?lang= and Accept-Language choose the language and it stays; axe
// finds nothing serious in any language; operation B takes a room's
// "locale" and refuses one it does not know.
//
// Run: CHROMIUM_PATH=/usr/lib/chromium/chromium node --test --test-concurrency=1 web/e2e/i18n.test.mjs
// I18N_SHOTS=/work/shots (any directory) also saves room-<tag>-<width>.png and console-<tag>-<width>.png there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, languageContext, PSEUDO_LOCALE_ENV } from "./lib/server.mjs";
import { visibleTexts, englishLeft, outsidePseudo, overflows } from "./lib/i18n.mjs";
import { savesDrawn } from "./lib/room.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const LANGS = ["es", "fr", "de", "ar"];
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const T = { timeout: 600000 };
const SHOTS = process.env.I18N_SHOTS;
// Data shown as it is stored, never translated (docs/i18n.md): the audit trail's summaries and its action words and addresses.
const STORED = "[data-audit-event] > td:last-child, [data-audit-event] > td:has(> code)";
// Values shown as stored facts, each only where it is shown so: the demo transaction's e-mail subject
// (models.DefaultInviteSubject, stored on the transaction in English; its page shows it as stored).
// The audit trail shows an actor's name as the chain stored (and hashed) it, so a room visitor's name reads
// "Sam Sender · Markup Room · session …" in every language (docs/decisions.md, "Stored actors as data").
const STORED_FACTS = [
  { where: /dl\.admin-facts > div > dd$/, text: "Please review and sign your documents" },
  { where: /td\[data-audit-actor\] > bdi$/, text: /^Sam Sender · Markup Room · session [0-9a-f]+( · [0-9a-f.:]+)?$/ },
];
const storedFact = ({ text, where }) =>
  STORED_FACTS.some((f) => (f.text instanceof RegExp ? f.text.test(text) : f.text === text) && f.where.test(where));

let srv, browser, doc, data, localeField;

before(async () => {
  srv = await startServer(PSEUDO_LOCALE_ENV);
  browser = await launchBrowser();
  doc = await srv.upload(mixedPDF(), "Agreement");
  // The data the pages show as they are: names, titles, e-mails of the demo and of these tests.
  const tx = (await srv.api("GET", "/api/v1/markup-rooms")).items;
  data = [
    "Agreement", "Pat Buyer", "Robin Seller", "Pat", "Buyer", "Robin", "Seller", "pat@example.com", "robin@example.com",
    "Casey", "Witness", srv.adminEmail, "Sam Sender", "Demo Organization", "Demo token", "Sample Purchase Agreement", "Sample Disclosure Statement",
    // The demo's admin (models/demo.go), and the operator's name in the audit trail (models/audit_event.go: the program's).
    "Ada Admin", "markuproom",
    ...demoData(srv.output()),
    ...tx.flatMap((r) => [r.name, r.title, r.transactionName].filter(Boolean)),
  ];
  // Operation B's "locale" (issue #31): rooms in it open in that language.
  // Until the field exists the rooms open with ?lang= instead; the test of
  // the field itself fails then.
  localeField = await roomWith({ locale: "es" }).then(() => true, () => false);
  if (!localeField) console.log('# operation B does not take "locale" yet: the rooms open with ?lang=');
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

/** Names, e-mails and titles the demo data prints at start (data, not words of the product). */
function demoData(out) {
  const found = new Set();
  for (const m of out.matchAll(/[\w.+-]+@[\w.-]+/g)) found.add(m[0]);
  for (const m of out.matchAll(/(?:Organization|Room|Document|Template|Transaction)\s+"?([^"(\n]+?)"?\s*(?:\(|$)/gm)) found.add(m[1].trim());
  return [...found].filter((s) => s.length > 2);
}

/** Operation B with the fields of extra beside the usual ones (a room on doc for Pat and Robin). */
function roomWith(extra) {
  return srv.api("POST", "/api/v1/markup-rooms", {
    senderId: srv.senderId,
    documents: [doc.location],
    participants: [
      { firstName: "Pat", lastName: "Buyer", email: "pat@example.com" },
      { firstName: "Robin", lastName: "Seller", email: "robin@example.com" },
    ],
    ...extra,
  });
}

/** A room for lang: by operation B's "locale" when it takes one, else a plain room opened with ?lang=. */
async function roomIn(lang) {
  if (localeField) return (await roomWith({ locale: lang })).url;
  const r = await srv.room([doc]);
  return r.url + (r.url.includes("?") ? "&" : "?") + "lang=" + lang;
}

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name + ".png"), fullPage: false });
}

async function axe(page, where) {
  await page.evaluate(axeSource);
  const v = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations.map((x) => ({ id: x.id, impact: x.impact, help: x.help, targets: x.nodes.map((n) => n.target.join(" ")) })));
  return v
    .filter((x) => x.impact === "serious" || x.impact === "critical")
    .map((x) => `${where}: ${x.id} (${x.impact}, ${x.targets.length}×) ${x.help}: ${x.targets.slice(0, 5).join(" | ")}`);
}

const reported = new WeakMap();

/** The checks of one state of a page in lang: English left (or, for en-XA, text outside ⟦⟧ and layouts it breaks). */
async function check(page, lang, where, found, { layout = lang === "en-XA" } = {}) {
  const texts = (await visibleTexts(page, { skip: STORED })).filter((t) => !storedFact(t));
  const lines = lang === "en-XA" ? outsidePseudo(texts, { allow: data }) : englishLeft(texts, lang, { allow: data });
  if (layout) lines.push(...(await overflows(page)).map((l) => `overflow: ${l}`));
  // Each finding once, under the first state that shows it (the room's palette shows in every state).
  if (!reported.has(found)) reported.set(found, new Set());
  const seen = reported.get(found);
  for (const l of lines) {
    // The element without its hooks' values and the message or words: the same finding on each row counts once.
    const key = l.replace(/="[^"]*"/g, "").replace(/: ".*?" (has|shows) /, " $1 ");
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(`${where}: ${l}`);
  }
}

const closeDialog = async (page, sel) => {
  await page.keyboard.press("Escape");
  await page.locator(sel).waitFor({ state: "hidden" });
};

/**
 * Walks the room of url in lang through its states, checking each: plain,
 * the participant dialog (empty, then with the server's errors), the
 * templates' dialogs, the session checklist, a tag placed and selected (the
 * properties panel), the copy-to-pages dialog with its error, the page
 * context menu, a participant's menu. Only data-* hooks: no words.
 */
async function roomTour(page, url, lang, found, { viewport = DESKTOP } = {}) {
  const w = viewport.width;
  const at = (s) => `room (${lang}, ${w} px) ${s}`;
  await page.goto(url);
  await page.locator(".viewer-page--rendered").first().waitFor();
  const html = await page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
  assert.equal(html.lang, lang, `${at("")}: <html lang>`);
  assert.equal(html.dir, lang === "ar" ? "rtl" : "ltr", `${at("")}: <html dir>`);
  await check(page, lang, at("plain"), found);
  await shot(page, `room-${lang}-${w}`);
  if (w < 600) return; // the phone's sheets: the plain room and the participant dialog suffice

  await page.locator("[data-control=participant-add]").click();
  const add = page.locator("dialog#participant-add[open]");
  await add.waitFor();
  await check(page, lang, at("participant dialog"), found);
  // The server's errors, not the browser's bubble: no native validation.
  await add.evaluate((d) => (d.querySelector("form").noValidate = true));
  await add.locator("input[name=firstName]").fill("Casey");
  await add.locator("input[name=lastName]").fill("Witness");
  await add.locator("input[name=email]").fill("not-an-email");
  await add.locator("[data-control=authentication-type]").selectOption("personal-password");
  await Promise.all([page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/participants")), add.locator("[type=submit]").click()]);
  await page.locator("dialog#participant-add[open] [data-form-errors]").waitFor();
  await check(page, lang, at("participant dialog with errors"), found);
  await closeDialog(page, "dialog#participant-add");

  for (const [open, dialog] of [["[data-template-save]", "[data-template-save-dialog]"], ["[data-template-apply]", "[data-template-apply-dialog]"]]) {
    if (!(await page.locator(open).count())) continue;
    await page.locator(open).click();
    await page.locator(`${dialog}[open]`).waitFor();
    await page.waitForTimeout(300); // the apply dialog lists the templates it fetched
    await check(page, lang, at(dialog), found);
    await closeDialog(page, dialog);
  }

  await page.locator('[data-dialog-open="session-dialog"]').first().click();
  await page.locator("#session-dialog [data-checklist]").waitFor();
  await check(page, lang, at("session checklist dialog"), found);
  await closeDialog(page, "#session-dialog");

  await page.locator("[data-signer-picker] label").first().click();
  await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').click();
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/tags") && r.request().method() === "POST"),
    page.locator(`.viewer-page[data-document-id="${doc.id}"][data-page="1"]`).click({ position: { x: 80, y: 300 } }),
  ]);
  await page.locator("[data-tag-props]").waitFor({ state: "visible" });
  await savesDrawn(page);
  await check(page, lang, at("a tag selected (properties panel)"), found);

  await page.locator("[data-copy-pages-open]").click();
  const copy = page.locator("[data-copy-pages-dialog][open]");
  await copy.waitFor();
  await copy.locator('input[name=which][value="list"]').check();
  await copy.locator("[data-copy-pages-list]").fill("4-2");
  await copy.locator("[data-copy-pages-submit]").click();
  await copy.locator("[data-copy-pages-error]").waitFor({ state: "visible" });
  await check(page, lang, at("copy-to-pages dialog with its error"), found);
  await closeDialog(page, "[data-copy-pages-dialog]");

  await page.locator('.room-thumb[data-page="2"]').click({ button: "right" });
  await page.locator("[data-control='thumbnail-context-menu']").waitFor({ state: "visible" });
  await check(page, lang, at("page context menu"), found);
  await page.keyboard.press("Escape");

  const who = page.locator(".room-participant").first();
  await who.locator("summary").click();
  await who.locator("[data-control=participant-edit]").waitFor({ state: "visible" });
  await check(page, lang, at("participant menu"), found);
  await who.locator("summary").click();
}

/** The console pages (name, path or a function of the page that finds it, a selector that says it has loaded). */
const CONSOLE = [
  ["overview", "/admin", "h1"],
  ["transactions", "/admin/transactions", "[data-transaction-id]"],
  ["transaction", async () => {
    const rooms = await srv.api("GET", "/api/v1/markup-rooms");
    return `/admin/transactions/${rooms.items[rooms.items.length - 1].transactionId}`;
  }, "h1"],
  ["audit", "/admin/audit", "h1"],
  ["activity", "/admin/activity", "h1"],
  ["rooms", "/admin/rooms", "[data-room-id]"],
  ["templates", "/admin/templates", "h1"],
  ["organizations", "/admin/organizations", "[data-org-id]"],
  ["organization", async (page) => {
    await page.goto(srv.base + "/admin/organizations");
    return page.locator("[data-org-id] a").first().getAttribute("href");
  }, "h1"],
  ["outbox", "/admin/outbox", "h1"],
  ["new room", "/admin/rooms/new", "h1"],
];

async function signInTo(page, lang) {
  await page.goto(`${srv.base}/admin/login?lang=${lang}`);
  await page.fill("#admin-email", srv.adminEmail);
  await page.fill("#admin-password", srv.adminPassword);
  await Promise.all([page.waitForURL((u) => !u.pathname.endsWith("/login")), page.click('button[type="submit"]')]);
}

async function consoleTour(page, lang, found, { viewport = DESKTOP, pages = CONSOLE, login = true } = {}) {
  const w = viewport.width;
  if (login) {
    await page.goto(`${srv.base}/admin/login?lang=${lang}`);
    await check(page, lang, `console (${lang}, ${w} px) sign-in`, found);
    await signInTo(page, lang);
  }
  for (const [name, where, ready] of pages) {
    const path = typeof where === "function" ? await where(page) : where;
    const res = await page.goto(srv.base + path);
    assert.ok(res.ok(), `console (${lang}) ${name}: ${path} answers ${res.status()}`);
    await page.locator(ready).first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `console (${lang}) ${name}: <html lang>`);
    await check(page, lang, `console (${lang}, ${w} px) ${name} ${path}`, found);
    if (name === "overview") await shot(page, `console-${lang}-${w}`);
  }
}

for (const lang of LANGS) {
  test(`the room in ${lang}: no English left, plain and with each dialog, menu, panel and error`, T, async () => {
    const found = [];
    const ctx = await browser.newContext({ viewport: DESKTOP });
    const page = await ctx.newPage();
    await roomTour(page, await roomIn(lang), lang, found);
    await ctx.close();
    const phone = await browser.newContext({ viewport: PHONE });
    await roomTour(await phone.newPage(), await roomIn(lang), lang, found, { viewport: PHONE });
    await phone.close();
    assert.deepEqual(found, [], `English left in the room in ${lang}:\n` + found.join("\n"));
  });

  test(`the console in ${lang}: every page with no English left`, T, async () => {
    const found = [];
    const ctx = await browser.newContext({ viewport: DESKTOP });
    await consoleTour(await ctx.newPage(), lang, found);
    await ctx.close();
    if (SHOTS) {
      const phone = await browser.newContext({ viewport: PHONE });
      await consoleTour(await phone.newPage(), lang, [], { viewport: PHONE, pages: CONSOLE.slice(0, 1) });
      await phone.close();
    }
    assert.deepEqual(found, [], `English left in the console in ${lang}:\n` + found.join("\n"));
  });
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`the pseudo-language at ${viewport.width} px: nothing outside ⟦⟧, nothing cut or spilling, in the room and the console`, T, async () => {
    const found = [];
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    const r = await srv.room([doc]);
    await roomTour(page, r.url + "?lang=en-XA", "en-XA", found, { viewport });
    await consoleTour(page, "en-XA", found, { viewport });
    await ctx.close();
    assert.deepEqual(found, [], `the pseudo-language at ${viewport.width} px:\n` + found.join("\n"));
  });
}

test("the language menu: a select of en es fr de ar that switches at once and stays; ?lang= and Accept-Language choose too", T, async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  await signInTo(page, "en");
  await page.goto(srv.base + "/admin/transactions");
  const menu = page.locator("[data-language-menu]");
  assert.equal(await menu.evaluate((el) => el.tagName), "SELECT", "[data-language-menu] is a <select>");
  assert.deepEqual(await menu.locator("option").evaluateAll((os) => os.map((o) => o.value)), ["en", "es", "fr", "de", "ar"], "the menu's languages");
  assert.equal(await menu.inputValue(), "en");
  await Promise.all([page.waitForURL(/lang=de/), menu.selectOption("de")]);
  const left = [];
  const german = async (where) => {
    assert.equal(await page.evaluate(() => document.documentElement.lang), "de", `${where}: <html lang="de">`);
    assert.equal(await page.locator("[data-language-menu]").inputValue(), "de", `${where}: the menu shows Deutsch`);
    left.push(...englishLeft(await visibleTexts(page), "de", { allow: data }).map((l) => `${where}: ${l}`));
  };
  await german("after choosing Deutsch");
  await page.reload();
  await german("after a reload");
  await page.goto(srv.base + "/admin/rooms");
  await german("another console page (/admin/rooms)");
  await page.goto(srv.base + "/admin/rooms?lang=fr");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "fr", "?lang=fr");
  await page.goto(srv.base + "/admin/organizations");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "fr", "?lang=fr stays on the next page");
  await ctx.close();

  // The room's menu too: a room opened in English switches to German and stays.
  const rctx = await browser.newContext({ viewport: DESKTOP });
  const room = await rctx.newPage();
  const r = await srv.room([doc]);
  await room.goto(r.url);
  await room.locator(".viewer-page--rendered").first().waitFor();
  assert.equal(await room.evaluate(() => document.documentElement.lang), "en");
  await Promise.all([room.waitForURL(/lang=de/), room.locator("[data-language-menu]").selectOption("de")]);
  await room.locator(".viewer-page--rendered").first().waitFor();
  assert.equal(await room.evaluate(() => document.documentElement.lang), "de", "the room after choosing Deutsch");
  await room.reload();
  await room.locator(".viewer-page--rendered").first().waitFor();
  assert.equal(await room.evaluate(() => document.documentElement.lang), "de", "the room after a reload");
  await rctx.close();

  // A browser set to Arabic, nothing chosen: Arabic, right to left.
  const actx = await languageContext(browser, "ar");
  const ar = await actx.newPage();
  await ar.goto(srv.base + "/admin/login");
  assert.deepEqual(await ar.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir })), { lang: "ar", dir: "rtl" }, "Accept-Language: ar");
  assert.equal(await ar.locator("[data-language-menu]").inputValue(), "ar", "the menu shows العربية");
  assert.equal((await actx.cookies()).some((c) => c.name === "markuproom_lang"), false, "nothing chosen: no language cookie");
  const r2 = await srv.room([doc]);
  await ar.goto(r2.url);
  await ar.locator(".viewer-page--rendered").first().waitFor();
  assert.equal(await ar.evaluate(() => document.documentElement.dir), "rtl", "the room with Accept-Language: ar");
  await actx.close();
  assert.deepEqual(left, [], `English left in the console in German:\n${left.join("\n")}`);
});

test("axe finds nothing serious on the room and the console overview in any language", T, async () => {
  const found = [];
  for (const lang of ["en", ...LANGS]) {
    const ctx = await browser.newContext({ viewport: DESKTOP });
    const page = await ctx.newPage();
    await page.goto(await roomIn(lang));
    await page.locator(".viewer-page--rendered").first().waitFor();
    found.push(...(await axe(page, `room (${lang})`)));
    await signInTo(page, lang);
    await page.goto(srv.base + "/admin");
    found.push(...(await axe(page, `console overview (${lang})`)));
    await ctx.close();
  }
  assert.deepEqual(found, [], "\n" + found.join("\n"));
});

test('operation B: "locale" opens the room in that language; one it does not know is refused at #/locale', T, async () => {
  const res = await fetch(srv.base + "/api/v1/markup-rooms", {
    method: "POST",
    headers: { Authorization: `Bearer ${srv.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      senderId: srv.senderId, documents: [doc.location], locale: "pt",
      participants: [{ firstName: "Pat", lastName: "Buyer", email: "pat@example.com" }],
    }),
  });
  const body = await res.json().catch(() => ({}));
  assert.equal(res.status, 400, `locale "pt": ${res.status} ${JSON.stringify(body)}`);
  const pointers = JSON.stringify(body);
  assert.ok(pointers.includes('"#/locale"') || pointers.includes('"/locale"'), `locale "pt": a field error at #/locale: ${pointers}`);

  assert.ok(localeField, 'operation B takes "locale"');
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  await page.goto((await roomWith({ locale: "fr" })).url);
  await page.locator(".viewer-page--rendered").first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), "fr", 'a room made with "locale": "fr" opens in French');
  await ctx.close();
});
