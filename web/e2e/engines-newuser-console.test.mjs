// What a new user still met in the console (issue 40, item 3), on three
// browser engines, run once per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-newuser-console.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// At 1440, 1024 and a phone's width: the history's and the audit trail's
// long entries wrap, whole, instead of ending in "…" with the text in a
// tooltip; in Arabic their left-to-right data (names, e-mails, summaries,
// codes) is isolated, so it reads in its own direction; the audit
// filters' placeholders read "e.g. …" in italics; New Markup Room offers
// the organization's embedding origins and tells same-named uploads
// apart; the room URL shown once breaks only where its line is full,
// never at "markup-". Screenshots: web/e2e/artifacts/issue40-console-<item>-<engine>-<width>.png.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { renameSync } from "node:fs";
import { join } from "node:path";
import { makePDF } from "./lib/pdf.mjs";
import { startServer, artifacts } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean } from "./lib/room.mjs";
import { signIn, axeViolations } from "./lib/admin.mjs";

const T = { timeout: 300000 };
// WebKit's window (MiniBrowser) is no narrower than about 450 px: its phone is 460 px wide, as in engines-polish.
const PHONE = engine === "webkit" ? 460 : 390;
const WIDTHS = [1440, 1024, PHONE];
const ORIGIN = "https://app.acme-title.example";
const LONG_NAME = ["Maximiliana Alexandrina", "Featherstonehaugh-Cholmondeley"];
const LONG_TITLE = "Purchase agreement for 1234 Long Meadow Lane, Springfield — signed copy, second revision";
let srv, browser, txID;

before(async () => {
  srv = await startServer();
  browser = await launch();
  const rooms = await srv.api("GET", "/api/v1/markup-rooms");
  txID = rooms.items[rooms.items.length - 1].transactionId; // the demo room's
  execFileSync("go", ["run", "./cmd/auditseed", "-count", "10", "-transaction", txID], { env: { ...process.env, ...srv.dbEnv }, stdio: "inherit" });
  srv.cli("org", "update", srv.orgId, "--embed-origins", ORIGIN);
  // Two uploads of one name.
  const pdf = makePDF([{ width: 612, height: 792 }, { width: 612, height: 792 }]);
  await srv.upload(pdf, "Lease");
  await srv.upload(pdf, "Lease");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

/** Saves a screenshot as issue40-console-<item>-<engine>-<width>.png. */
async function shot(page, item, width) {
  const name = `issue40-console-${item}`;
  await page.screenshot(name);
  renameSync(join(artifacts, `${name}-${engine}.png`), join(artifacts, `${name}-${engine}-${width}.png`));
}

/** A page of the given width, signed in to the console. */
async function signedIn(width, height = 900) {
  const page = await pages.newPage({ width, height });
  await signIn(page, srv);
  return page;
}

let historied = false;

/** Gives the demo room long history entries (once): a long participant name and a long document title, through the room's own forms. */
async function longHistory() {
  if (historied) return;
  historied = true;
  const page = await pages.newPage({ width: 1280, height: 900 });
  await page.goto(srv.roomURL);
  await page.waitForSelector(".viewer-page--rendered");
  const status = await page.eval(async ({ name, title }) => {
    const csrf = document.querySelector('input[name="csrf"]').value;
    const post = (path, fields) => fetch(location.pathname + path, { method: "POST", body: new URLSearchParams({ csrf, ...fields }), redirect: "manual" }).then((r) => r.status);
    return [
      await post("/participants", { firstName: name[0], lastName: name[1], email: "maximiliana.featherstonehaugh-cholmondeley@long-domain.example" }),
      await post("/documents/0/title", { title }),
    ];
  }, { name: LONG_NAME, title: LONG_TITLE });
  assert.ok(status.every((s) => s === 303 || s === 0 || s === 200), `${engine}: the room took the changes: ${status}`);
  await page.close();
}

/** Elements of sel that cut their text (wider content than box, or an ellipsis): their first words. */
const cut = (page, sel) =>
  page.eval((sel) => [...document.querySelectorAll(sel)]
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === "ellipsis")
    .map((el) => el.textContent.trim().slice(0, 40)), sel);

test(`${engine}: history and audit rows wrap, whole, at 1440, 1024 and a phone (item: rows end in “…”)`, T, async () => {
  await longHistory();
  for (const width of WIDTHS) {
    const page = await signedIn(width);
    await page.goto(`${srv.base}/admin/transactions/${txID}`);
    const words = await page.eval(() => [...document.querySelectorAll("[data-history-words]")].map((el) => ({ text: el.textContent, title: el.getAttribute("title") })));
    const long = words.find((w) => w.text.includes(LONG_TITLE));
    assert.ok(long, `${engine} ${width}: the history names the long title`);
    assert.equal(long.title, null, `${engine} ${width}: the text is not kept in a tooltip only`);
    assert.deepEqual(await cut(page, "[data-history-words]"), [], `${engine} ${width}: history entries cut`);
    const tall = await page.eval((t) => {
      const el = [...document.querySelectorAll("[data-history-words]")].find((e) => e.textContent.includes(t));
      el.scrollIntoView({ block: "center" });
      return el.getBoundingClientRect().height / (parseFloat(getComputedStyle(el).lineHeight) || 20);
    }, LONG_TITLE);
    assert.ok(tall >= 1.9, `${engine} ${width}: the long entry wraps (${tall.toFixed(1)} lines)`);
    assert.equal(await page.eval(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, `${engine} ${width}: the page fits`);
    await shot(page, "history", width);

    await page.goto(`${srv.base}/admin/audit`);
    assert.deepEqual(await cut(page, ".audit-table td, .audit-table th"), [], `${engine} ${width}: audit cells cut`);
    assert.equal(await page.eval(() => document.querySelectorAll(".audit-table td[title]:not([data-audit-actor])").length), 0, `${engine} ${width}: tooltips instead of text`);
    await shot(page, "audit", width);
    if (width === 1024) assert.deepEqual(await axeViolations(page, "/admin/audit"), []);
    await assertClean(page);
    await page.close(); // WebKit drives one page at a time
  }
});

test(`${engine}: in Arabic, left-to-right data is isolated in the history and the audit trail (item: ellipses cut the start)`, T, async () => {
  await longHistory();
  for (const width of [1440, 1024]) {
    const page = await signedIn(width);
    await page.goto(`${srv.base}/admin/audit?lang=ar`);
    const dirs = await page.eval(() => {
      const row = document.querySelector("[data-audit-event]");
      const of = (el) => el && getComputedStyle(el).direction;
      return {
        page: of(document.documentElement),
        org: of(row.querySelector("td:nth-child(2) bdi")),
        actor: of(row.querySelector("[data-audit-actor] bdi")),
        address: of(row.querySelector("td:nth-child(4) code")),
        action: of(row.querySelector("td:nth-child(5) code")),
        summary: of(row.querySelector("[data-audit-summary] bdi")),
      };
    });
    assert.deepEqual(dirs, { page: "rtl", org: "ltr", actor: "ltr", address: "ltr", action: "ltr", summary: "ltr" }, `${engine} ${width}: directions`);
    // The summary's own end is its last glyph, on the right: its start is not cut away on the left.
    const summary = await page.eval(() => {
      const bdi = document.querySelector("[data-audit-summary] bdi");
      const td = bdi.closest("td").getBoundingClientRect();
      const r = bdi.getBoundingClientRect();
      return { inside: r.left >= td.left - 1 && r.right <= td.right + 1, text: bdi.textContent };
    });
    assert.ok(summary.inside, `${engine} ${width}: the summary lies inside its cell: ${summary.text}`);
    assert.deepEqual(await cut(page, ".audit-table td"), [], `${engine} ${width}: audit cells cut in Arabic`);
    // Placeholders take no markup: their left-to-right examples are isolated with LRI … PDI (else "2026-11-26" reads "26-11-2026").
    const examples = await page.eval(() => ["#audit-action", "#audit-from", "#audit-to"].map((sel) => document.querySelector(sel).placeholder));
    for (const ex of examples) assert.match(ex, /\u2066[\w.:-]+\u2069$/, `${engine} ${width}: placeholder ${JSON.stringify(ex)}`);
    await shot(page, "audit-ar", width);

    await page.goto(`${srv.base}/admin/transactions/${txID}?lang=ar`);
    const actor = await page.eval(() => {
      const bdi = [...document.querySelectorAll(".admin-history__actor bdi")].find((b) => b.textContent.includes("Sam Sender ·"));
      return bdi && getComputedStyle(bdi).direction;
    });
    assert.equal(actor, "ltr", `${engine} ${width}: the history's actor is isolated`);
    assert.deepEqual(await cut(page, "[data-history-words]"), [], `${engine} ${width}: history entries cut in Arabic`);
    await page.eval(() => document.querySelector("[data-history-words]:last-child, .admin-history")?.scrollIntoView({ block: "center" }));
    await shot(page, "history-ar", width);
    await assertClean(page);
    await page.close();
  }
});

test(`${engine}: the audit filters' placeholders read as examples (item: placeholders look like values)`, T, async () => {
  for (const width of WIDTHS) {
    const page = await signedIn(width);
    await page.goto(`${srv.base}/admin/audit`);
    const ph = await page.eval(() =>
      ["#audit-actor", "#audit-action", "#audit-transaction", "#audit-from", "#audit-to"].map((sel) => {
        const el = document.querySelector(sel);
        let style = null;
        try {
          style = getComputedStyle(el, "::placeholder").fontStyle;
        } catch {}
        return { placeholder: el.placeholder, value: el.value, style };
      }));
    for (const p of ph) {
      assert.match(p.placeholder, /^e\.g\. /, `${engine} ${width}: placeholder ${p.placeholder}`);
      assert.equal(p.value, "", `${engine} ${width}: no value entered`);
    }
    // The engines that compute ::placeholder (Chromium, Firefox) show it in italics; WebKit answers for the element itself.
    if (engine !== "webkit") assert.ok(ph.every((p) => p.style === "italic"), `${engine} ${width}: placeholders in italics: ${JSON.stringify(ph.map((p) => p.style))}`);
    await page.eval(() => document.querySelector("[data-audit-filters]").scrollIntoView({ block: "start" }));
    await shot(page, "filters", width);
    await page.close();
  }
});

/** Opens New Markup Room for the demo organization. */
async function openForm(page) {
  await page.goto(`${srv.base}/admin/rooms/new?org=${srv.orgId}`);
  await page.waitForSelector("[data-new-room-form]", { message: `${engine}: the form` });
}

test(`${engine}: New Markup Room: an embedded room, same-named uploads told apart, the URL whole (items: embed origin, recent uploads, URL at its hyphen)`, T, async () => {
  for (const width of WIDTHS) {
    const page = await signedIn(width, 1400);
    await openForm(page);
    const offered = await page.eval(() => [...document.querySelectorAll("[data-embed-origin] option")].map((o) => o.value));
    assert.deepEqual(offered, ["", "https://app.acme-title.example"], `${engine} ${width}: the organization's origins`);
    const leases = await page.eval(() =>
      [...document.querySelectorAll("[data-recent-document]")]
        .map((input) => input.closest("label"))
        .filter((l) => l.querySelector("bdi").textContent === "Lease")
        .map((l) => l.querySelector("[data-recent-facts]").textContent.replace(/\s+/g, " ").trim()));
    assert.equal(leases.length, 2, `${engine} ${width}: two uploads named Lease`);
    assert.notEqual(leases[0], leases[1], `${engine} ${width}: told apart`);
    for (const facts of leases) assert.match(facts, /^2 pages · \d+ KB · .+ UTC · id [0-9a-f-]{8}$/, `${engine} ${width}: ${facts}`);
    await page.eval(() => document.querySelector(".admin-new-room__recent-list").scrollIntoView({ block: "center" }));
    await shot(page, "recent", width);

    await page.select("#new-room-sender", srv.senderId);
    await page.select("#new-room-embed", ORIGIN);
    await page.fill("#new-room-first-0", "Pat");
    await page.fill("#new-room-last-0", "Buyer");
    await page.fill("#new-room-email-0", "pat@example.com");
    await page.eval(() => document.querySelector("#new-room-embed").scrollIntoView({ block: "center" }));
    await shot(page, "embed", width);
    if (width === 1024) assert.deepEqual(await axeViolations(page, "New Markup Room"), []);
    await page.eval(() => document.querySelector("[data-new-room-form]").requestSubmit(document.querySelector("[data-create-room]")));
    await page.waitFor(() => /^\/admin\/rooms\/[^/]+\/created$/.test(location.pathname) && document.readyState === "complete", undefined, { message: `${engine}: the created page` });
    await page.hooks();

    const url = await page.eval(() => {
      const code = document.querySelector("[data-new-room-url]");
      const range = document.createRange();
      range.selectNodeContents(code);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0);
      const cs = getComputedStyle(code);
      const box = code.getBoundingClientRect().width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const ch = range.getBoundingClientRect().width / code.textContent.length;
      // Line boxes by their top: the widths of all but the last.
      const rows = new Map();
      for (const r of lines) rows.set(Math.round(r.top), (rows.get(Math.round(r.top)) || 0) + r.width);
      const widths = [...rows.values()];
      return { text: code.textContent, copy: !!document.querySelector('[data-copy="#new-room-url"]'), origin: document.querySelector("[data-room-embed-origin]")?.textContent,
        box, ch, widths };
    });
    assert.match(url.text, /^http:\/\/127\.0\.0\.1:\d+\/markup-room\/mrr\S+$/, `${engine} ${width}: the URL, exactly`);
    assert.ok(url.copy, `${engine} ${width}: a copy button`);
    assert.equal(url.origin, ORIGIN, `${engine} ${width}: the room's embedding origin`);
    url.widths.slice(0, -1).forEach((w, i) =>
      assert.ok(w >= url.box - 2 * url.ch, `${engine} ${width}: line ${i + 1} of the URL ends early (${Math.round(w)} of ${Math.round(url.box)} px): ${url.text}`));
    if (width === PHONE) assert.ok(url.widths.length >= 2, `${engine} ${width}: the URL wraps on a phone`);
    await page.eval(() => document.querySelector("[data-new-room-url]").scrollIntoView({ block: "center" }));
    await shot(page, "url", width);
    await assertClean(page);
    await page.close();
  }
  // The rooms were made for the origin.
  const rooms = await srv.api("GET", "/api/v1/markup-rooms");
  assert.equal(rooms.items.filter((r) => r.embed?.origin === ORIGIN).length, WIDTHS.length, `${engine}: embedded rooms`);
});
