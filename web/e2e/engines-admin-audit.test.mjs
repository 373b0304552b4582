// The console's audit trail (/admin/audit) on three browser engines, run
// once per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-admin-audit.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// Sample events are written into the server's database by cmd/auditseed
// (through the store's own RecordAudit, so they chain as the server's do).
// The page lists them newest first, each cell's text whole, at 1280 and 1024 px
// (admin-audit-1280, admin-audit-1024), with the navigation on one line,
// and fits a phone (admin-audit-phone);
// a filter by an action's prefix keeps its URL; the "Older" and "Newer"
// links page and keep the filter; a transaction's page links to its
// events; axe-core finds no serious or critical violation.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean } from "./lib/room.mjs";
import { signIn, axeViolations } from "./lib/admin.mjs";

const T = { timeout: 240000 };
// WebKit's window (MiniBrowser) is no narrower than about 450 px: its phone is 460 px wide, as in engines-polish.
const PHONE = engine === "webkit" ? { width: 460, height: 844 } : { width: 390, height: 844 };
const SEEDED = 60; // 12 of each of five actions (cmd/auditseed)
let srv, browser, txID;

before(async () => {
  srv = await startServer();
  browser = await launch();
  const rooms = await srv.api("GET", "/api/v1/markup-rooms");
  txID = rooms.items[rooms.items.length - 1].transactionId; // the demo room's
  execFileSync("go", ["run", "./cmd/auditseed", "-count", String(SEEDED), "-transaction", txID], { env: { ...process.env, ...srv.dbEnv }, stdio: "inherit" });
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

/** A page of the given size, signed in to the console. */
async function signedIn(size) {
  const page = await pages.newPage(size);
  await signIn(page, srv);
  return page;
}

/** Waits for a full page load whose URL satisfies test (a RegExp), then reinstalls the hooks. */
async function loaded(page, re, what) {
  await page.waitFor((src) => new RegExp(src).test(location.href) && document.readyState === "complete", re.source, { message: `${engine}: ${what}` });
  await page.hooks();
}

/** The rows shown: {id, action}, in order. */
const rows = (page) => page.eval(() => [...document.querySelectorAll("[data-audit-event]")].map((r) => ({ id: Number(r.dataset.auditEvent), action: r.dataset.auditAction })));

/** Asserts that no cell cuts its text (rows wrap, issue 40), the navigation is one line and nothing scrolls sideways. */
async function oneLine(page, width) {
  const shape = await page.eval(() => {
    const tall = [...document.querySelectorAll(".audit-table td")].filter((td) => td.scrollWidth > td.clientWidth + 1 || getComputedStyle(td).textOverflow === "ellipsis").length;
    const tops = [...document.querySelectorAll(".site-nav__link")].map((l) => Math.round(l.getBoundingClientRect().top));
    const wrap = document.querySelector(".table-wrap");
    return { tall, tops, scrolls: wrap.scrollWidth > wrap.clientWidth + 1, pageWider: document.documentElement.scrollWidth > document.documentElement.clientWidth };
  });
  assert.equal(shape.tall, 0, `${engine}: cells cut their text at ${width} px`);
  assert.ok(shape.tops.length >= 7 && shape.tops.every((t) => t === shape.tops[0]), `${engine}: the navigation wraps at ${width} px: ${shape.tops}`);
  assert.equal(shape.scrolls, false, `${engine}: the table scrolls sideways at ${width} px`);
  assert.equal(shape.pageWider, false, `${engine}: the page is wider than ${width} px`);
}

/** Fails on axe-core's serious and critical violations on the page. */
async function axe(page, where) {
  assert.deepEqual(await axeViolations(page, where), [], `${engine}: axe on ${where}`);
}

test("the audit trail: newest first, every cell whole at 1280 and 1024, filtered by an action's prefix, paged both ways", T, async () => {
  const page = await signedIn({ width: 1280, height: 900 });
  await page.goto(srv.base + "/admin/audit");
  const first = await rows(page);
  assert.equal(first.length, 50, `${engine}: a page of 50`);
  assert.ok(first.every((r, i) => i === 0 || r.id < first[i - 1].id), `${engine}: newest first`);
  assert.equal(await page.eval(() => document.querySelector('.site-nav__link[aria-current="page"]')?.textContent.trim()), "Audit");
  await oneLine(page, 1280);
  await page.screenshot("admin-audit-1280");
  await axe(page, "/admin/audit");

  // A prefix of an action, typed, then the form sent: its URL keeps it.
  await page.fill("#audit-action", "participant.");
  await page.click("[data-audit-filters] button[type=submit]");
  await loaded(page, /action=participant\./, "the filtered page");
  const filtered = await rows(page);
  assert.ok(filtered.length >= (SEEDED * 2) / 5, `${engine}: ${filtered.length} participant events`);
  assert.ok(filtered.every((r) => r.action.startsWith("participant.")), `${engine}: only participant events`);
  assert.equal(await page.eval(() => document.querySelector("[data-audit-export]").getAttribute("href")), "/admin/audit.csv?action=participant.");

  // Older, then Newer: the filter stays, and Newer is the first page again.
  await page.goto(srv.base + "/admin/audit");
  await page.click("[data-audit-older]");
  await loaded(page, /cursor=older-/, "the older page");
  const second = await rows(page);
  assert.ok(second.length >= SEEDED - 50 && second[0].id < first[49].id, `${engine}: the older page follows the first`);
  await page.click("[data-audit-newer]");
  await loaded(page, /\/admin\/audit(\?|$)/, "the newer page");
  await page.waitFor((id) => Number(document.querySelector("[data-audit-event]")?.dataset.auditEvent) === id, first[0].id, { message: `${engine}: back on the first page` });
  assert.equal(await page.eval(() => document.querySelector("[data-audit-newer]")), null, `${engine}: nothing newer than the first page`);
  await assertClean(page);
  await page.close(); // WebKit drives one page at a time

  // 1024 px: still every cell whole, the navigation on one line.
  const narrow = await signedIn({ width: 1024, height: 800 });
  await narrow.goto(srv.base + "/admin/audit");
  await oneLine(narrow, 1024);
  await narrow.screenshot("admin-audit-1024");
  await axe(narrow, "/admin/audit at 1024 px");
  await assertClean(narrow);
  await narrow.close();

  // A phone: the filters in one column, the table scrolled inside its frame, nothing wider than the window.
  const phone = await signedIn(PHONE);
  await phone.goto(srv.base + "/admin/audit");
  assert.equal(await phone.eval(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, `${engine}: the page fits the phone`);
  await phone.screenshot("admin-audit-phone");
  await assertClean(phone);
});

test("a transaction's page links to its events; bad filters are explained on the page", T, async () => {
  const page = await signedIn({ width: 1280, height: 900 });
  await page.goto(srv.base + "/admin/transactions/" + txID);
  await page.reveal("[data-audit-link]");
  await page.screenshot("admin-transaction-audit-link-1280");
  await page.click("[data-audit-link]");
  await loaded(page, /transaction=/, "the transaction's events");
  assert.equal(await page.eval(() => document.querySelector("#audit-transaction").value), txID);
  const listed = await rows(page);
  assert.ok(listed.length >= 1, `${engine}: the transaction's events`);
  assert.ok(await page.eval((id) => [...document.querySelectorAll("[data-audit-target] a")].every((a) => a.getAttribute("href") === "/admin/transactions/" + id), txID),
    `${engine}: targets link to the transaction`);

  await page.goto(srv.base + "/admin/audit?from=yesterday&action=Renamed!");
  assert.match(await page.eval(() => document.querySelector("[data-audit-invalid]").textContent), /not valid/);
  assert.ok(await page.eval(() => !!document.querySelector('[data-audit-error="from"]') && !!document.querySelector('[data-audit-error="action"]')));
  assert.equal((await rows(page)).length, 0);
  await page.screenshot("admin-audit-invalid-1280");
  await axe(page, "/admin/audit with bad filters");
  // The 400 answer itself is a console error in some engines ("Failed to load resource").
  await assertClean(page, (p) => /status of 400|Failed to load resource/.test(p));
});
