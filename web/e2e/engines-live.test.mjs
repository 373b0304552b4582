// The live room (issue 41) on three browser engines: two browsers in one
// room, each on its own server process when the tests run on PostgreSQL
// (E2E_POSTGRES_URL: the second instance shares the first's database; on
// SQLite both windows use the one server), run once per engine through
// web/e2e/lib/engine.mjs —
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-live.test.mjs
//
// What one window does — add, move, resize, delete a tag, move a page,
// rename a document, remove a participant, apply a template — the other
// draws within a second (each delay printed: LIVE <engine> …; the median held
// within a second, every one within three on these shared machines); a dropped
// stream says "Reconnecting…" and, back, receives exactly the events it
// missed; a save made against a tag the other window changed says so and
// shows the tag as it is now. Window B reaches its server through a proxy
// (lib/streamproxy.mjs) that can cut its event stream for real.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { streamProxy } from "./lib/streamproxy.mjs";
import { enginePages, assertClean, assertNoProblems } from "./lib/room.mjs";

const T = { timeout: 300000 };
const SIZE = { width: 1280, height: 900 };
let a, b, proxy, browserA, browserB, mixed;

before(async () => {
  a = await startServer();
  // A second instance on the same PostgreSQL database: a change on A reaches B through LISTEN/NOTIFY.
  b = a.databaseURL ? await startServer({ DATABASE_URL: a.databaseURL, MARKUPROOM_DATA_DIR: a.dataDir }) : a;
  proxy = await streamProxy(new URL(b.base).host);
  browserA = await launch();
  browserB = await launch();
  mixed = await a.upload(mixedPDF(), "Mixed pages");
});

after(async () => {
  await browserA?.close();
  await browserB?.close();
  await proxy?.close();
  if (b !== a) b?.stop();
  a?.stop();
});

const pagesA = enginePages(() => browserA);
const pagesB = enginePages(() => browserB);
afterEach(async () => {
  await pagesA.closeAll();
  await pagesB.closeAll();
});

const tagSel = (id) => `.tag[data-tag-id="${id}"]`;

/** A room on the mixed document: Pat has a signature on page 1, Robin one on page 2. */
async function liveRoom() {
  const r = await a.room([mixed], { documents: { detectTags: false } });
  const tx = await a.transaction(r.transactionId);
  const [pat, robin] = tx.participants;
  const tag = (signer, page, x) => ({ type: "SIGNATURETEMPLATE", x, y: 150, width: 140, height: 36, page, signerId: signer.id, customData: {} });
  tx.documents[0].tags = [tag(pat, 1, 80), tag(robin, 2, 80)];
  await a.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  const url = new URL(r.url);
  return { ...r, urlA: r.url, urlB: proxy.base + url.pathname + url.search };
}

/** What a window shows of the room: tags (id, version, document, page), documents (id, title, pages), people. */
function shown(page) {
  return page.eval(() =>
    JSON.stringify({
      tags: [...document.querySelectorAll(".viewer-page .tag[data-tag-id]")]
        .map((el) => [el.dataset.tagId, el.dataset.tagVersion, el.closest(".viewer-doc")?.dataset.docPosition, el.closest(".viewer-page").dataset.page].join(" "))
        .sort(),
      docs: [...document.querySelectorAll(".viewer-doc")].map((d) => `${d.dataset.documentId} ${d.querySelectorAll(".viewer-page").length}`),
      titles: [...document.querySelectorAll(".room-doc__title")].map((el) => el.textContent.trim()),
      people: [...document.querySelectorAll(".room-participant[data-participant-id]")].map((el) => el.dataset.participantId),
    }),
  );
}

const delays = [];

/** Waits until window B shows what window A shows; records and returns the delay from now (ms). */
async function seenInB(pageA, pageB, what) {
  const start = Date.now();
  const want = await shown(pageA);
  let last = "";
  const deadline = start + 15000;
  for (;;) {
    last = await shown(pageB);
    if (last === want) break;
    if (Date.now() > deadline) assert.fail(`${engine}: window B does not show ${what}:\nA ${want}\nB ${last}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = Date.now() - start;
  delays.push({ what, ms });
  return ms;
}

/** Runs a change in window A and waits for its answer to be drawn there. */
async function inA(pageA, method, path, action, status = [200, 201, 204]) {
  const req = await pageA.request(method, path, action);
  assert.ok([status].flat().includes(req.status), `${engine}: ${method} ${path} answered ${req.status}: ${req.body}`);
  await pageA.waitFor(() => window.markupRoomViewer && !window.markupRoomHistory?.busy && !document.querySelector(".tag--pending, .htmx-request"));
  return req;
}

/** Opens the room in both windows, each drawn. */
async function openBoth(r) {
  const pageA = await pagesA.openRoom(r.urlA, SIZE);
  const pageB = await pagesB.openRoom(r.urlB, SIZE);
  await pageB.waitFor(() => !!window.markupRoomLive, null, { message: `${engine}: window B follows the room` });
  await pageA.waitFor(() => !!window.markupRoomLive, null, { message: `${engine}: window A follows the room` });
  return { pageA, pageB };
}

/** The tags a window draws, by page: [{id, page}]. */
const tagsOf = (page) =>
  page.eval(() => [...document.querySelectorAll(".viewer-page .tag[data-tag-id]")].map((el) => ({ id: el.dataset.tagId, page: Number(el.closest(".viewer-page").dataset.page) })).sort((x, y) => x.page - y.page));

/** How many times another window's change made this window read the room (live.mjs). */
const liveReads = (page) => page.eval(() => window.markupRoomLive.reads);

test("what one window does, the other draws within a second: tags, pages, a document's name, a participant, a template", T, async () => {
  const r = await liveRoom();
  const tx = await a.transaction(r.transactionId);
  const tmpl = await a.api("POST", "/api/v1/templates", {
    name: `Live form ${engine}`,
    documents: [{ document: mixed.location }],
    roles: [{ name: "Buyer" }],
    tags: [{ type: "DATETEMPLATE", x: 300, y: 400, width: 120, height: 20, page: 1, document: 0, role: "Buyer", customData: {} }],
  });
  const { pageA, pageB } = await openBoth(r);
  assert.equal(await shown(pageB), await shown(pageA), `${engine}: both windows start on the same room`);
  const [patTag] = await tagsOf(pageA);

  // Add: a date tag placed from the palette on page 1.
  await pageA.click('[data-palette] [data-tag-type="DATETEMPLATE"]');
  const placed = await inA(pageA, "POST", /\/tags$/, () => pageA.click('.viewer-page[data-page="1"]', { offset: { x: 300, y: 260 } }));
  const newId = /data-tag-id="([^"]+)"/.exec(placed.body)[1];
  await seenInB(pageA, pageB, "a tag added");
  await pageB.waitForSelector(tagSel(newId));

  // Move: drag Pat's signature 60 px right and 40 px down.
  const box = await pageA.box(tagSel(patTag.id), "center");
  const from = { x: box.x + 20, y: box.y + box.height / 2 };
  await inA(pageA, "PUT", /\/tags\/[^/]+$/, () => pageA.drag(from, { x: from.x + 60, y: from.y + 40 }));
  await seenInB(pageA, pageB, "a tag moved");
  const [ra, rb] = await Promise.all([pageA, pageB].map((p) => p.eval((sel) => { const el = document.querySelector(sel); return [el.dataset.x, el.dataset.y, el.dataset.w, el.dataset.h].join(" "); }, tagSel(patTag.id))));
  assert.equal(rb, ra, `${engine}: B draws the tag where A put it`);

  // Resize: the bottom-right handle, 40 px wider.
  await pageA.click(tagSel(patTag.id));
  const hb = await pageA.box(`${tagSel(patTag.id)} .tag__handle--se`);
  await inA(pageA, "PUT", /\/tags\/[^/]+$/, () => pageA.drag({ x: hb.x + hb.width / 2, y: hb.y + hb.height / 2 }, { x: hb.x + hb.width / 2 + 40, y: hb.y + hb.height / 2 + 10 }));
  await seenInB(pageA, pageB, "a tag resized");

  // Delete: the new date tag, selected, Delete.
  await pageA.click(tagSel(newId));
  await inA(pageA, "DELETE", /\/tags\/[^/]+$/, () => pageA.press("Delete"));
  await seenInB(pageA, pageB, "a tag deleted");
  assert.equal(await pageB.eval((sel) => !!document.querySelector(sel), tagSel(newId)), false);

  // Apply a template.
  await pageA.click("[data-template-apply]");
  await pageA.waitFor(() => document.querySelector("[data-template-apply-dialog]")?.open);
  // Picked from the list the dialog opens with (a search typed letter by letter answers several times, and an
  // answer that comes after the click replaces the list under it).
  await pageA.waitFor((id) => !!document.querySelector(`[data-template-list] label[data-template-id="${id}"]`), tmpl.id, { message: `${engine}: the template listed` });
  await pageA.click(`[data-template-list] label[data-template-id="${tmpl.id}"]`);
  await pageA.waitFor(() => document.querySelectorAll("[data-template-role-fields] select").length === 1);
  await pageA.click("[data-template-apply-submit]");
  await pageA.waitFor(() => !document.querySelector("[data-template-apply-dialog]").open, null, { message: `${engine}: the template applied` });
  await pageA.waitFor(() => !document.querySelector(".htmx-request") && !window.markupRoomHistory?.busy);
  await seenInB(pageA, pageB, "a template applied");

  // Move page 1 down.
  await inA(pageA, "POST", /\/pages\/\d+\/move$/, () => pageA.click('.room-doc[data-document="0"] .room-thumb:first-child [data-page-action="move-down"]'));
  await seenInB(pageA, pageB, "a page moved");

  // Rename the document.
  await pageA.click('.room-doc[data-document="0"] .room-doc__rename summary');
  await pageA.fill('.room-doc[data-document="0"] .room-doc__rename input[name="title"]', `Live contract ${engine}`);
  await inA(pageA, "POST", /\/documents\/\d+\/title$/, () => pageA.click('.room-doc[data-document="0"] .room-doc__rename [type="submit"]'));
  await seenInB(pageA, pageB, "a document renamed");
  assert.ok((await shown(pageB)).includes(`Live contract ${engine}`));

  // Remove Robin (the room's own dialog).
  const robin = tx.participants[1].id;
  const row = `.room-participant[data-participant-id="${robin}"]`;
  await pageA.click(`${row} summary`);
  await pageA.click(`${row} [data-control="participant-remove"]`);
  await pageA.waitForSelector("[data-confirm-dialog][open] [data-confirm-ok]", { visible: true });
  await inA(pageA, "POST", /\/participants\/[^/]+\/remove$/, () => pageA.click("[data-confirm-dialog][open] [data-confirm-ok]"));
  await seenInB(pageA, pageB, "a participant removed");


  // None of A's own changes read A's room again; B says why its room changed.
  assert.equal(await liveReads(pageA), 0, `${engine}: window A's own changes did not read the room again`);
  assert.ok((await liveReads(pageB)) >= 1);
  assert.match(await pageB.eval(() => document.querySelector("[data-save-status]").textContent), /another window/);
  await pageB.screenshot("issue41-live-b-1280");
  const line = delays.map((d) => `${d.what} ${d.ms} ms`).join(", ");
  console.log(`LIVE ${engine} ${b === a ? "one instance" : "two instances"}: ${line}`);
  const sorted = delays.map((d) => d.ms).sort((x, y) => x - y);
  const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1];
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`LIVE ${engine} median ${median} ms, p95 ${p95} ms over ${sorted.length} changes`);
  // The delays are printed; the bound held here is loose where the machine is shared (a browser test is no
  // benchmark: the p95 within a second is the load test's, cmd/markuproom/room_events_load_test.go): half of the
  // changes within a second, every one within three.
  assert.ok(median <= 1000 && p95 <= 3000, `${engine}: median ${median} ms, p95 ${p95} ms (${line})`);
  await assertClean(pageA);
  await assertClean(pageB);
});

test("a dropped stream says Reconnecting…, and back it receives exactly the events it missed; a stale save says so and shows the tag as it is", T, async () => {
  const r = await liveRoom();
  const { pageA, pageB } = await openBoth(r);
  const [patTag, robinTag] = await tagsOf(pageA);

  // A change both see, then the stream is cut.
  await pageA.click(tagSel(patTag.id));
  await inA(pageA, "DELETE", /\/tags\/[^/]+$/, () => pageA.press("Delete"));
  await seenInB(pageA, pageB, "a tag deleted");
  const before = await pageB.eval(() => [...window.markupRoomLive.received]);
  proxy.cut();
  await pageB.waitForSelector("[data-live-status]", { visible: true, message: `${engine}: B says it is reconnecting` });
  assert.match(await pageB.eval(() => document.querySelector("[data-live-status]").textContent), /Reconnecting/);
  await pageB.screenshot("issue41-reconnecting-1280");

  // While B is cut off: A moves Robin's tag (B still shows it where it was) and renames the document.
  const box = await pageA.box(tagSel(robinTag.id), "center");
  await inA(pageA, "PUT", /\/tags\/[^/]+$/, () => pageA.drag({ x: box.x + 20, y: box.y + 10 }, { x: box.x + 100, y: box.y + 60 }));
  const stale = await pageB.eval((sel) => document.querySelector(sel).dataset.tagVersion, tagSel(robinTag.id));
  const current = await pageA.eval((sel) => document.querySelector(sel).dataset.tagVersion, tagSel(robinTag.id));
  assert.notEqual(stale, current, `${engine}: B has not seen the move`);

  // B's own save of that tag, made against the old version: refused, said, and the tag drawn as it is now.
  const boxB = await pageB.box(tagSel(robinTag.id), "center");
  const refused = await pageB.request("PUT", /\/tags\/[^/]+$/, () => pageB.drag({ x: boxB.x + 20, y: boxB.y + 10 }, { x: boxB.x + 20, y: boxB.y + 90 }));
  assert.equal(refused.status, 409, `${engine}: the stale save is refused`);
  await pageB.waitFor(() => document.querySelector('[data-save-status][data-kind="error"]')?.textContent.includes("Changed by someone else a moment ago."), null, { message: `${engine}: B says the tag changed` });
  await pageB.waitFor((a) => document.querySelector(a.sel)?.dataset.tagVersion === a.current, { sel: tagSel(robinTag.id), current }, { message: `${engine}: B draws the tag as it is now` });
  await pageB.screenshot("issue41-conflict-1280");
  // From here on, B's status line never says all is saved: its refusal stays, even while a read swaps the room in.
  await pageB.eval(() => {
    window.claimedSaved = [];
    new MutationObserver(() => {
      const text = document.querySelector("[data-save-status]")?.textContent || "";
      if (/All changes saved/.test(text)) window.claimedSaved.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  // A renames the document; B is still cut off, then comes back.
  await pageA.click('.room-doc[data-document="0"] .room-doc__rename summary');
  await pageA.fill('.room-doc[data-document="0"] .room-doc__rename input[name="title"]', "Renamed while away");
  await inA(pageA, "POST", /\/documents\/\d+\/title$/, () => pageA.click('.room-doc[data-document="0"] .room-doc__rename [type="submit"]'));
  proxy.restore();
  await seenInB(pageA, pageB, "what it missed");
  await pageB.waitForSelector("[data-live-status]", { hidden: true, message: `${engine}: B is connected again` });
  const after = await pageB.eval(() => [...window.markupRoomLive.received]);
  const got = after.slice(before.length);
  const last = before.at(-1);
  assert.ok(got.length >= 2, `${engine}: B received the events it missed: ${JSON.stringify(got)}`);
  assert.deepEqual(got, got.map((_, i) => last + 1 + i), `${engine}: exactly the ones after ${last}, none twice, none left out: ${JSON.stringify(got)}`);
  await assertClean(pageA);
  // The cut stream's own failures, and the refused save, are what this test made happen; B's status line still
  // says why its save was not made (a read another window caused keeps that), and said nothing else meanwhile.
  await pageB.waitFor(() => /Changed by someone else a moment ago/.test(document.querySelector("[data-save-status]")?.textContent), null, { message: `${engine}: B still says why its save was refused` });
  assert.deepEqual(await pageB.eval(() => window.claimedSaved), [], `${engine}: B's status line said all was saved while the room was read`);
  await assertNoProblems(pageB, (p) => /\/events\)$|status of 409/.test(p));
});

test("presence: who else has the room open shows in the header, what they select is outlined in their colour, and they leave when their window closes", T, async () => {
  const r = await liveRoom();
  const pageA = await pagesA.openRoom(r.urlA, SIZE);
  await pageA.waitFor(() => !!window.markupRoomLive);
  // Alone: nobody else shown.
  await pageA.waitFor(() => document.querySelector("[data-presence]")?.hidden === true, null, { message: `${engine}: A alone shows no one` });
  const pageB = await pagesB.openRoom(r.urlB, SIZE);
  const people = (page) => page.eval(() => [...document.querySelectorAll("[data-presence] [data-presence-person]")].map((el) => ({ n: el.dataset.presencePerson, text: el.textContent, title: el.title })));
  // A opened the room first: it is the sender's (Sam Sender), B is Guest 2.
  const seenByA = await pageA.waitFor(() => {
    const els = [...document.querySelectorAll("[data-presence]:not([hidden]) [data-presence-person]")];
    return els.length === 1 && els[0].dataset.presencePerson === "2" && els[0].title;
  }, null, { message: `${engine}: A sees B arrive` });
  assert.equal(seenByA, "Guest 2 has this room open");
  assert.deepEqual((await people(pageA)).map((p) => p.text), ["G2Guest 2"]);
  await pageB.waitFor(() => document.querySelector("[data-presence] [data-presence-person]")?.title === "Sam Sender has this room open", null, { message: `${engine}: B sees A` });

  // B selects Robin's tag: A outlines it in B's colour.
  const [, robinTag] = await tagsOf(pageB);
  await pageB.click(tagSel(robinTag.id));
  await pageA.waitFor((sel) => {
    const el = document.querySelector(sel);
    return el?.dataset.presenceBy === "2" && el.classList.contains("tag--presence") && getComputedStyle(el).outlineStyle === "dashed";
  }, tagSel(robinTag.id), { message: `${engine}: A outlines what B selected` });
  assert.equal(await pageA.eval((sel) => document.querySelector(sel).title, tagSel(robinTag.id)), "Guest 2 has this tag selected");
  await pageA.reveal(tagSel(robinTag.id));
  await pageA.screenshot("issue41-presence-1280");
  // B selects nothing: the outline goes.
  await pageB.press("Escape");
  await pageA.waitFor((sel) => !document.querySelector(sel).dataset.presenceBy, tagSel(robinTag.id), { message: `${engine}: the outline goes with B's selection` });

  // B closes its window: A shows no one again, well within 30 s.
  const closed = Date.now();
  await pageB.close();
  await pageA.waitFor(() => document.querySelector("[data-presence]").hidden, null, { timeout: 30000, message: `${engine}: B left` });
  console.log(`LIVE ${engine} presence left ${Date.now() - closed} ms after the window closed`);
  await assertClean(pageA);
});

test("a window in the middle of something (a rename being typed) draws others' moves and removals at once, keeps what is typed, and reads the room once done", T, async () => {
  const r = await liveRoom();
  const { pageA, pageB } = await openBoth(r);
  const [patTag, robinTag] = await tagsOf(pageA);
  // B starts renaming the document: the menu's form open, a title half typed.
  await pageB.click('.room-doc[data-document="0"] .room-doc__rename summary');
  await pageB.fill('.room-doc[data-document="0"] .room-doc__rename input[name="title"]', "Half typed");
  // A moves Pat's tag and deletes Robin's.
  const box = await pageA.box(tagSel(patTag.id), "center");
  await inA(pageA, "PUT", /\/tags\/[^/]+$/, () => pageA.drag({ x: box.x + 20, y: box.y + 10 }, { x: box.x + 80, y: box.y + 50 }));
  const moved = await pageA.eval((sel) => { const el = document.querySelector(sel); return [el.dataset.x, el.dataset.y, el.dataset.tagVersion]; }, tagSel(patTag.id));
  const start = Date.now();
  await pageB.waitFor((a) => { const el = document.querySelector(a.sel); return el && Number(el.dataset.x) === Number(a.moved[0]) && Number(el.dataset.y) === Number(a.moved[1]) && el.dataset.tagVersion === a.moved[2]; },
    { sel: tagSel(patTag.id), moved }, { message: `${engine}: B draws the move while its form is open` });
  const movedIn = Date.now() - start;
  await pageA.click(tagSel(robinTag.id));
  await inA(pageA, "DELETE", /\/tags\/[^/]+$/, () => pageA.press("Delete"));
  await pageB.waitForSelector(tagSel(robinTag.id), { hidden: true, message: `${engine}: B drops the removed tag while its form is open` });
  // Where B's tag is drawn is where A's is, on the screen too.
  const [ba, bb] = await Promise.all([pageA, pageB].map((p) => p.eval((sel) => { const el = document.querySelector(sel); return [el.style.left, el.style.top, el.closest(".viewer-page").dataset.page]; }, tagSel(patTag.id))));
  assert.deepEqual(bb, ba, `${engine}: drawn in the same place`);
  // Nothing of B's typing was lost: the room was not read under it.
  assert.equal(await pageB.eval(() => document.querySelector('.room-doc[data-document="0"] .room-doc__rename input[name="title"]').value), "Half typed");
  assert.equal(await liveReads(pageB), 0, `${engine}: B has not read the room yet`);
  console.log(`LIVE ${engine} a move drawn in a busy window after ${movedIn} ms`);
  // B gives up its rename (Escape closes the menu): the room is read now.
  await pageB.click('.room-doc[data-document="0"] .room-doc__rename summary');
  await pageB.waitFor(() => window.markupRoomLive.reads >= 1, null, { message: `${engine}: B reads the room once its menu is closed` });
  await seenInB(pageA, pageB, "the room once B was done");
  assert.equal(await pageB.eval(() => document.querySelectorAll('.room-doc[data-document="0"] [data-tag-count-doc]')[0]?.textContent.trim()), "1 tag", `${engine}: the counts follow`);
  await assertClean(pageA);
  await assertClean(pageB);
});

test("presence and the live words right to left: in Arabic the header's people and Reconnecting… are Arabic and flow from the right", T, async () => {
  const r = await liveRoom();
  const inArabic = (url) => {
    const u = new URL(url);
    u.searchParams.set("lang", "ar");
    return u.toString();
  };
  const pageA = await pagesA.openRoom(inArabic(r.urlA), SIZE);
  await pageA.waitFor(() => !!window.markupRoomLive);
  const pageB = await pagesB.openRoom(inArabic(r.urlB), SIZE);
  await pageB.waitFor(() => !!window.markupRoomLive);
  const person = await pageA.waitFor(() => {
    const el = document.querySelector("[data-presence]:not([hidden]) [data-presence-person]");
    return el && { title: el.title, dir: getComputedStyle(el.parentElement).direction, lang: document.documentElement.lang };
  }, null, { message: `${engine}: A sees B, in Arabic` });
  assert.deepEqual(person, { title: "ضيف 2 فتح هذه الغرفة", dir: "rtl", lang: "ar" });
  // The people come after the status badge, to its left.
  const [badge, people] = await Promise.all([".room-header__title .badge", "[data-presence]"].map((sel) => pageA.box(sel)));
  assert.ok(people.x + people.width <= badge.x + 1, `${engine}: the people are left of the status badge right to left: ${JSON.stringify({ badge, people })}`);
  proxy.cut();
  await pageB.waitForSelector("[data-live-status]", { visible: true, message: `${engine}: B says it is reconnecting, in Arabic` });
  assert.equal(await pageB.eval(() => document.querySelector("[data-live-status]").textContent), "جارٍ إعادة الاتصال…");
  await pageA.screenshot("issue41-presence-ar-1280");
  await pageB.screenshot("issue41-reconnecting-ar-1280");
  proxy.restore();
  await pageB.waitForSelector("[data-live-status]", { hidden: true, message: `${engine}: B is back` });
  await assertClean(pageA);
  await assertClean(pageB, (p) => /\/events\)$/.test(p));
});
