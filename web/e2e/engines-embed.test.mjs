// The embedded room (issue 30, item 1) on three browser engines, run once
// per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test web/e2e/engines-embed.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24")
//
// A caller's page on another site (http://localhost:PORT, while the server
// is http://127.0.0.1:PORT: two sites) mounts a room with static/embed.js.
// The room loads in the frame with no third-party cookie to lean on (its
// session travels with the page: docs/decisions.md, "Embedded rooms"); a tag
// placed in it saves and the host hears "changed"; a reload of the frame
// keeps the session; creating the e-signature session sends "completed".
// A host on an origin the organization did not allow cannot frame the room
// (frame-ancestors) and hears nothing. The room's own language menu (the
// site header is hidden in a frame) switches it, and its htmx requests,
// which carry no language cookie, keep speaking the chosen language.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { makePDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, DESKTOP } from "./lib/room.mjs";
import { readFileSync } from "node:fs";

const catalog = (tag) => JSON.parse(readFileSync(new URL(`../i18n/locales/${tag}.json`, import.meta.url), "utf8"));

const T = { timeout: 240000 };
let srv, browser, allowed, refused, room;

/** A caller's site: its page mounts the room named by ?room= and keeps every message it gets. */
function hostSite(base) {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Caller's app</title>
<style>html,body{margin:0;height:100%;font:16px system-ui}header{height:48px;display:flex;align-items:center;padding:0 16px;background:#1f3a5f;color:#fff}#room{position:absolute;top:48px;left:0;right:0;bottom:0}</style>
</head><body><header>Caller's app · Markup Room inside</header><div id="room"></div>
<script src="${base}/static/embed.js"></script><script src="/host.js"></script></body></html>`;
  const script = `window.__events = []; window.__messages = [];
addEventListener("message", (e) => window.__messages.push({ origin: e.origin, data: e.data }));
const url = new URLSearchParams(location.search).get("room");
window.__mounted = MarkupRoom.mount(document.getElementById("room"), { url, onEvent: (e) => window.__events.push(e) });`;
  const server = http.createServer((req, res) => {
    const js = req.url.startsWith("/host.js");
    res.writeHead(200, { "Content-Type": js ? "text/javascript" : "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(js ? script : page);
  });
  return new Promise((resolve) => server.listen(0, () => resolve({ origin: `http://localhost:${server.address().port}`, close: () => server.close() })));
}

before(async () => {
  srv = await startServer();
  browser = await launch();
  allowed = await hostSite(srv.base);
  refused = await hostSite(srv.base);
  srv.cli("org", "update", srv.orgId, "--embed-origins", allowed.origin);
  const doc = await srv.upload(makePDF([{ width: 612, height: 792, label: "Purchase agreement" }]), "Purchase agreement");
  room = await srv.api("POST", "/api/v1/markup-rooms", {
    senderId: srv.senderId,
    documents: [doc.location],
    participants: [{ firstName: "Pat", lastName: "Buyer", email: "pat@example.com" }],
    embed: { origin: allowed.origin },
  });
});

after(async () => {
  await browser?.close();
  allowed?.close();
  refused?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

const events = (page, type) => page.eval((type) => window.__events.filter((e) => e.type === type), type);

/** Clicks the element matching sel inside the frame, with real input at its place in the host's viewport. */
async function clickInFrame(page, sel) {
  await page.frameWaitFor((sel) => {
    const el = document.querySelector(sel);
    return !!el && el.getClientRects().length > 0 && !el.disabled;
  }, sel, { message: `${engine}: ${sel} in the frame` });
  const r = await page.frameEval((sel) => {
    const el = document.querySelector(sel);
    el.scrollIntoView({ block: "center", inline: "nearest" });
    const b = el.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  }, sel);
  const f = await page.box("iframe");
  await page.clickAt(Math.round(f.x + r.x), Math.round(f.y + r.y));
}

test("a room embedded on an allowed origin: tag, reload, complete; the host hears each", T, async () => {
  const page = await pages.newPage(DESKTOP);
  await page.goto(`${allowed.origin}/?room=${encodeURIComponent(room.url)}`);
  const [ready] = await page.waitFor(() => window.__events.filter((e) => e.type === "ready").length && window.__events, null, { timeout: 60000, message: `${engine}: ready` });
  assert.deepEqual({ ...ready, detail: undefined }, { source: "markuproom", type: "ready", roomId: room.id, transactionId: room.transactionId, detail: undefined });
  const frame = await page.eval(() => {
    const f = document.querySelector("iframe");
    return { title: f.title, allow: f.getAttribute("allow"), width: f.getBoundingClientRect().width, height: f.getBoundingClientRect().height };
  });
  assert.deepEqual(frame, { title: "Markup Room", allow: "clipboard-write", width: DESKTOP.width, height: DESKTOP.height - 48 }, `${engine}: the frame fills its container`);
  await page.frameWaitFor(() => !!document.querySelector(".viewer-page--rendered"), null, { timeout: 60000, message: `${engine}: a drawn page in the frame` });

  // A tag placed with the pointer saves; the host hears "changed" with the counts.
  await clickInFrame(page, '[data-palette] [data-tag-type="SIGNATURETEMPLATE"]');
  await page.frameWaitFor(() => !!document.querySelector('[data-palette] [aria-pressed="true"]'), null, { message: `${engine}: the type is picked` });
  const sheet = await page.frameEval(() => {
    const p = document.querySelector(".viewer-page--rendered");
    p.scrollIntoView({ block: "start" });
    const b = p.getBoundingClientRect();
    return { x: b.left + 120, y: b.top + 160 };
  });
  const f = await page.box("iframe");
  await page.clickAt(Math.round(f.x + sheet.x), Math.round(f.y + sheet.y));
  const [changed] = await page.waitFor(() => {
    const c = window.__events.filter((e) => e.type === "changed" && e.detail.tags === 1);
    return c.length && c;
  }, null, { message: `${engine}: changed` });
  assert.equal(changed.detail.participants.length, 1);
  assert.deepEqual({ name: changed.detail.participants[0].name, tags: changed.detail.participants[0].tags }, { name: "Pat Buyer", tags: 1 });
  const saved = await srv.transaction(room.transactionId);
  assert.equal(saved.documents[0].tags.length, 1, `${engine}: the tag was saved`);
  await page.screenshot("embed-room");

  // A reload of the frame keeps its session: the room again, with its tag.
  await page.frameEval(() => setTimeout(() => location.reload(), 0));
  await page.waitFor(() => window.__events.filter((e) => e.type === "ready").length === 2, null, { timeout: 60000, message: `${engine}: ready after the reload` });
  assert.equal(await page.frameWaitFor(() => document.querySelectorAll(".tag[data-tag-id]").length, null, { message: `${engine}: the tag after the reload` }), 1);

  // Creating the e-signature session sends "completed", once.
  await clickInFrame(page, '[data-control="create-session"]');
  await page.frameWaitFor(() => !!document.querySelector("#session-dialog [data-checklist][data-ready]"), null, { timeout: 30000, message: `${engine}: the check, nothing blocking` });
  const asks = await page.frameEval(() => document.querySelector("#session-complete-form").hasAttribute("data-confirm"));
  await clickInFrame(page, '[data-control="confirm-create-session"]');
  // A warning (a tag over printed words, say) is asked about once, in the room's own confirm dialog.
  if (asks) await clickInFrame(page, "[data-confirm-dialog][open] [data-confirm-ok]");
  const [completed] = await page.waitFor(() => {
    const c = window.__events.filter((e) => e.type === "completed");
    return c.length && c;
  }, null, { timeout: 60000, message: `${engine}: completed` });
  assert.equal(completed.transactionId, room.transactionId);
  await page.frameWaitFor(() => !!document.querySelector("[data-room-summary]") && !!document.querySelector(".viewer-page--rendered"), null, {
    timeout: 60000,
    message: `${engine}: the summary and a drawn page in the frame`,
  });
  await page.screenshot("embed-room-completed");
  assert.equal((await events(page, "completed")).length, 1);
  assert.deepEqual(await events(page, "error"), [], `${engine}: no error shown`);
  // Every message the host got came from the room's origin.
  const origins = await page.eval(() => [...new Set(window.__messages.map((m) => m.origin))]);
  assert.deepEqual(origins, [srv.base]);
});

test("the embedded room's language menu switches it, and its htmx answers follow", T, async () => {
  const doc = await srv.upload(makePDF([{ width: 612, height: 792, label: "Lease" }]), "Lease");
  const r = await srv.api("POST", "/api/v1/markup-rooms", {
    senderId: srv.senderId,
    documents: [doc.location],
    participants: [{ firstName: "Ana", lastName: "Inquilina", email: "ana@example.com" }],
    embed: { origin: allowed.origin },
  });
  const page = await pages.newPage(DESKTOP);
  await page.goto(`${allowed.origin}/?room=${encodeURIComponent(r.url)}`);
  await page.waitFor(() => window.__events.some((e) => e.type === "ready"), null, { timeout: 60000, message: `${engine}: ready` });
  await page.frameWaitFor(() => document.documentElement.lang === "en" && !!document.querySelector(".room-header [data-language-menu]"), null, {
    message: `${engine}: the room, in English, with its own language menu`,
  });
  // Choose Español in the menu (a native <select>'s list is the system's, so
  // the choice is made as a person's would end: the value, then "change").
  await page.frameEval(() => {
    const sel = document.querySelector(".room-header [data-language-menu]");
    sel.focus();
    sel.value = "es";
    sel.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await page.waitFor(() => window.__events.filter((e) => e.type === "ready").length === 2, null, { timeout: 60000, message: `${engine}: ready after the switch` });
  const es = catalog("es");
  const en = catalog("en");
  const after = await page.frameWaitFor(
    () => document.documentElement.lang === "es" && { search: location.search, menu: document.querySelector(".room-header [data-language-menu]")?.value, meta: document.querySelector('meta[name="markup-lang"]')?.content, title: document.querySelector('[data-control="create-session"]')?.textContent.trim() },
    null,
    { timeout: 60000, message: `${engine}: the room in Spanish` },
  );
  assert.match(after.search, /room_session=/, `${engine}: the session stays in the address`);
  assert.match(after.search, /lang=es/);
  assert.deepEqual({ menu: after.menu, meta: after.meta, title: after.title }, { menu: "es", meta: "es", title: es["room.create_session"] });

  // An htmx request after it (the checklist of "Create e-signature session") answers in Spanish.
  await clickInFrame(page, '[data-control="create-session"]');
  const text = await page.frameWaitFor(() => {
    const el = document.querySelector("#session-checklist");
    return !!el && el.querySelector("li") && el.innerText;
  }, null, { timeout: 30000, message: `${engine}: the checklist` });
  for (const id of ["room.checklist.before", "room.review.blocking", "room.review.warnings", "room.checklist.fix.place_tags"]) {
    assert.ok(text.includes(es[id]), `${engine}: the checklist says ${JSON.stringify(es[id])}: ${text}`);
  }
  const english = Object.keys(en).filter((id) => (id.startsWith("room.checklist.") || id.startsWith("room.review.")) && typeof en[id] === "string" && en[id] !== es[id] && en[id].length > 8 && !en[id].includes("{"));
  for (const id of english) assert.ok(!text.includes(en[id]), `${engine}: English ${JSON.stringify(en[id])} (${id}) in the checklist: ${text}`);
  await page.screenshot("embed-room-es");
});

test("a host on an origin the organization did not allow cannot frame the room and hears nothing", T, async () => {
  const page = await pages.newPage(DESKTOP);
  await page.goto(`${refused.origin}/?room=${encodeURIComponent(room.url)}`);
  await page.waitFor(() => !!document.querySelector("iframe"), null, { message: `${engine}: the frame` });
  // Given as long as the allowed host needed to hear "ready", and more.
  await new Promise((r) => setTimeout(r, 5000));
  const framed = await page.frameEval(() => !!document.querySelector(".room")).catch(() => false);
  assert.equal(framed, false, `${engine}: the browser refused to show the room in the frame`);
  assert.deepEqual(await page.eval(() => window.__messages), [], `${engine}: no message reached the host`);
  await page.screenshot("embed-refused");
});

test("on a phone-sized host the embedded room fits its frame", T, async () => {
  // WebKit's window (MiniBrowser) is no narrower than about 450 px, as in engines-polish.
  const PHONE = engine === "webkit" ? { width: 460, height: 844 } : { width: 390, height: 844 };
  const page = await pages.newPage(PHONE);
  await page.goto(`${allowed.origin}/?room=${encodeURIComponent(room.url)}`);
  await page.waitFor(() => window.__events.some((e) => e.type === "ready"), null, { timeout: 60000, message: `${engine}: ready` });
  await page.frameWaitFor(() => !!document.querySelector(".viewer-page--rendered"), null, { timeout: 60000, message: `${engine}: a drawn page` });
  const fit = await page.frameEval(() => ({ width: innerWidth, scroll: document.documentElement.scrollWidth }));
  assert.equal(fit.width, PHONE.width, `${engine}: the frame is as wide as its container`);
  assert.ok(fit.scroll <= fit.width, `${engine}: nothing in the frame is wider than it (${fit.scroll} > ${fit.width})`);
  await page.screenshot("embed-room-phone");
});
