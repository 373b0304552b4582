// Removals that can be undone, confirmed by the room's own dialog (issue
// "Markup Room editor V"), on three browser engines through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-removals.test.mjs
//
// Removing a document (with its tags) and a participant (with their tags) is
// one undo step each, redone too, and refused with the server's words when
// the room changed since; every destructive confirmation is the room's own
// [data-confirm-dialog] (Cancel focused, focus kept inside, Escape cancels),
// and window.confirm is never called (the page's is replaced by one that
// records and throws).
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { mixedPDF, makePDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertNoProblems, clickable } from "./lib/room.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const T = { timeout: 240000 };
let srv, browser, lease, addendum;

before(async () => {
  srv = await startServer();
  browser = await launch();
  lease = await srv.upload(mixedPDF(), "Lease.pdf");
  addendum = await srv.upload(makePDF([{ width: 612, height: 792, label: "Addendum 1" }, { width: 612, height: 792, label: "Addendum 2" }]), "Addendum");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
const { openRoom } = pages;
afterEach(pages.closeAll);

const DIALOG = "[data-confirm-dialog]";
const OPEN = `${DIALOG}[open]`;

/** A room on Lease.pdf and the Addendum: Pat has 3 + 2 tags, Robin 2 + 1. */
async function removalRoom() {
  const r = await srv.room([lease, addendum]);
  const tx = await srv.transaction(r.transactionId);
  const [pat, robin] = tx.participants;
  const tag = (signer, page, x) => ({ type: "SIGNATURETEMPLATE", x, y: 120, width: 100, height: 30, page, signerId: signer.id, customData: {} });
  tx.documents[0].tags = [tag(pat, 1, 60), tag(robin, 1, 200), tag(pat, 2, 60), tag(robin, 2, 200), tag(pat, 3, 60)];
  tx.documents[1].tags = [tag(pat, 1, 60), tag(robin, 1, 200), tag(pat, 2, 60)];
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  return r;
}

/** The room as the API has it: documents with their tags, participants, in order (what an undo must bring back exactly). */
async function state(txID) {
  const tx = await srv.transaction(txID);
  return {
    documents: tx.documents.map((d) => ({ id: d.id, title: d.title, tags: d.tags.map((t) => [t.page, t.x, t.y, t.signerId]) })),
    participants: tx.participants.map((p) => [p.id, p.firstName]),
  };
}

/** The tags on the pages, with their ids (the API does not show them): [id, document, page, x, y, signer], sorted. */
function domTags(page) {
  return page.eval(() =>
    [...document.querySelectorAll(".viewer-page .tag[data-tag-id]")]
      .map((t) => {
        const p = t.closest(".viewer-page");
        return [t.dataset.tagId, p.dataset.documentId, p.dataset.page, t.dataset.x, t.dataset.y, t.dataset.signerId || ""];
      })
      .sort((a, b) => (a.join() < b.join() ? -1 : 1)),
  );
}

/** Replaces the page's window.confirm by one that records and throws (the room must ask in its own dialog). */
function trapConfirm(page) {
  return page.eval(() => {
    window.__confirmCalls = [];
    window.confirm = (q) => {
      window.__confirmCalls.push(String(q));
      throw new Error("window.confirm was called");
    };
  });
}

async function assertNoNativeConfirm(page) {
  assert.deepEqual(await page.eval(() => window.__confirmCalls), [], `${engine}: window.confirm called`);
}

/** Runs a room change and waits until the editor has started again on the room swapped in. */
async function roomChange(page, path, action, status = 200) {
  await page.eval(() => (window.markupRoomViewer.stale = true));
  const req = await page.request("POST", path, action);
  assert.equal(req.status, status, req.body);
  if (status !== 200) return req;
  await page.waitFor(() => window.markupRoomViewer && !window.markupRoomViewer.stale && !window.markupRoomHistory?.busy);
  await page.waitFor(() => !document.querySelector(".viewer-page") || !!document.querySelector(".viewer-page--rendered")); // (an empty room has no page)
  return req;
}

/** The open confirm dialog: its words, and whether focus is on Cancel. */
async function dialogState(page) {
  await page.waitForSelector(`${OPEN} [data-confirm-cancel]`, { visible: true });
  return page.eval((sel) => {
    const d = document.querySelector(sel);
    return {
      title: d.querySelector(".dialog__title").textContent,
      note: d.querySelector("[data-confirm-note]").textContent,
      ok: d.querySelector("[data-confirm-ok]").textContent,
      cancelFocused: document.activeElement === d.querySelector("[data-confirm-cancel]"),
      modal: d.matches(":modal"),
    };
  }, OPEN);
}

/** Tab and Shift+Tab, three times each: focus never leaves the dialog. */
async function assertFocusTrapped(page) {
  for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.press(key);
    assert.ok(await page.eval((sel) => document.querySelector(sel).contains(document.activeElement), OPEN), `${engine}: focus left the dialog after ${key}`);
  }
}

/** Escape closes the dialog and sends nothing. */
async function escapeCancels(page) {
  const before = (await page.requests()).length;
  await page.press("Escape");
  await page.waitForSelector(DIALOG, { hidden: true });
  // Proves that nothing is sent: no event to wait for, so the request log is read after 300 ms (a deliberate wait).
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual((await page.requests()).slice(before).filter((r) => r.method === "POST"), [], `${engine}: Escape sent a request`);
}

const docRemove = (pos) => `.room-doc[data-document="${pos}"] [data-control="document-remove"]`;

test("removing a document: the room's dialog names it and its tags, Escape cancels, Remove removes, Undo brings it back with the same tag ids, Redo removes it again", T, async () => {
  const r = await removalRoom();
  const before = await state(r.transactionId);
  const page = await openRoom(r.url);
  await trapConfirm(page);
  const tagsBefore = await domTags(page);
  assert.equal(tagsBefore.length, 8);

  await page.click(docRemove(0));
  const asked = await dialogState(page);
  assert.equal(asked.title, "Remove “Lease.pdf” and its 5 tags?");
  assert.match(asked.note, /Undo .*brings it back/);
  assert.equal(asked.ok, "Remove document");
  assert.ok(asked.cancelFocused, `${engine}: Cancel has focus`);
  assert.ok(asked.modal, `${engine}: the dialog is modal`);
  await assertFocusTrapped(page);
  await page.screenshot("removals-dialog-1440x900");
  await escapeCancels(page);
  assert.deepEqual(await state(r.transactionId), before, "Escape removed nothing");

  await page.click(docRemove(0));
  await dialogState(page);
  await roomChange(page, /\/documents\/0\/remove$/, () => page.click(`${OPEN} [data-confirm-ok]`));
  let now = await state(r.transactionId);
  assert.deepEqual(now.documents.map((d) => d.title), ["Addendum"]);
  assert.equal(await page.eval(() => document.querySelectorAll(".viewer-doc").length), 1);

  await roomChange(page, /\/removals\/[^/]+\/restore$/, () => page.click('[data-action="undo"]'));
  assert.deepEqual(await state(r.transactionId), before, "the undo brought the document back, tags where they were, same ids");
  assert.deepEqual(await domTags(page), tagsBefore, "the same tag ids, each on its page and place");

  await roomChange(page, /\/documents\/0\/remove$/, () => page.click('[data-action="redo"]'));
  now = await state(r.transactionId);
  assert.deepEqual(now.documents.map((d) => d.title), ["Addendum"]);
  await roomChange(page, /\/removals\/[^/]+\/restore$/, () => page.press("Control+z"));
  assert.deepEqual(await state(r.transactionId), before);
  assert.deepEqual(await domTags(page), tagsBefore);

  // Both documents removed, one after the other (the room is empty), then both undone, newest first.
  for (const pos of [1, 0]) {
    await page.click(docRemove(pos));
    await dialogState(page);
    await roomChange(page, new RegExp(`/documents/${pos}/remove$`), () => page.click(`${OPEN} [data-confirm-ok]`));
  }
  assert.deepEqual((await state(r.transactionId)).documents, []);
  for (let i = 0; i < 2; i++) await roomChange(page, /\/removals\/[^/]+\/restore$/, () => page.click('[data-action="undo"]'));
  assert.deepEqual(await state(r.transactionId), before, "two removals undone: both documents back in their order");
  assert.deepEqual(await domTags(page), tagsBefore);

  await assertNoNativeConfirm(page);
  await assertNoProblems(page);
  await page.close();
});

test("removing a participant (at 1024×768): the dialog names them and their tags, Escape cancels, Remove removes, Undo brings them back in their place with their tags", T, async () => {
  const r = await removalRoom();
  const before = await state(r.transactionId);
  const robin = before.participants[1][0];
  const page = await openRoom(r.url, { width: 1024, height: 768 });
  await trapConfirm(page);
  const tagsBefore = await domTags(page);
  const row = `.room-participant[data-participant-id="${robin}"]`;
  const ask = async () => {
    await page.click(`${row} summary`);
    await page.click(`${row} [data-control="participant-remove"]`);
    return dialogState(page);
  };

  const asked = await ask();
  assert.equal(asked.title, "Remove Robin Seller and their 3 tags?");
  assert.match(asked.note, /Undo .*brings them back/);
  assert.equal(asked.ok, "Remove participant");
  assert.ok(asked.cancelFocused, `${engine}: Cancel has focus`);
  await page.screenshot("removals-participant-dialog-1024x768");
  await assertFocusTrapped(page);
  await escapeCancels(page);
  assert.deepEqual(await state(r.transactionId), before, "Escape removed nothing");

  await ask();
  await roomChange(page, /\/participants\/[^/]+\/remove$/, () => page.click(`${OPEN} [data-confirm-ok]`));
  let now = await state(r.transactionId);
  assert.deepEqual(now.participants.map((p) => p[1]), ["Pat"]);
  assert.equal(now.documents.flatMap((d) => d.tags).length, 5);

  await roomChange(page, /\/removals\/[^/]+\/restore$/, () => page.click('[data-action="undo"]'));
  assert.deepEqual(await state(r.transactionId), before, "Robin back in second place, tags where they were");
  assert.deepEqual(await domTags(page), tagsBefore, "Robin's tags have their ids again");
  await page.waitForSelector(row);

  // Removed again (Redo); meanwhile another window removes the Addendum: the undo is refused, with words.
  await roomChange(page, /\/participants\/[^/]+\/remove$/, () => page.click('[data-action="redo"]'));
  await page.eval(async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const path = document.querySelector("[data-viewer]").dataset.tagUrl.replace(/\/tags$/, "");
    const res = await fetch(`${path}/documents/1/remove`, { method: "POST", headers: { "X-CSRF-Token": csrf } });
    if (!res.ok) throw new Error(`another window's removal: ${res.status}`);
  });
  // (The page follows the room, issue 41: it reads the room again after that removal, as it would another window's.)
  await page.waitFor(() => window.markupRoomLive?.reads >= 1 && /another window/.test(document.querySelector("[data-save-status]")?.textContent), null, { message: `${engine}: the page follows the other removal` });
  await roomChange(page, /\/removals\/[^/]+\/restore$/, () => page.click('[data-action="undo"]'), 422);
  const status = await page.waitFor(() => {
    const el = document.querySelector("[data-save-status]");
    return el?.dataset.kind === "error" && !window.markupRoomHistory.busy ? el.textContent : "";
  });
  assert.match(status, /changed since .*Reload the room/);
  now = await state(r.transactionId);
  assert.deepEqual(now.participants.map((p) => p[1]), ["Pat"], "the refused undo changed nothing");

  await assertNoNativeConfirm(page);
  // The browser reports the refused request (422) itself on some engines; nothing else.
  await assertNoProblems(page, (p) => /status of 422|422 \(Unprocessable/.test(p));
  await page.close();
});

test("deleting a page asks in the room's dialog too (Escape keeps it), and no script of ours calls window.confirm", T, async () => {
  const r = await removalRoom();
  const page = await openRoom(r.url);
  await trapConfirm(page);
  const del = '.room-doc[data-document="0"] .room-thumb[data-page="2"] [data-page-action="delete"]';
  await page.click(del);
  const asked = await dialogState(page);
  assert.equal(asked.title, "Delete page 2 of “\u2068Lease.pdf\u2069” and its 2 tags?", `${engine}: the question names the document`);
  assert.match(asked.note, /Undo .*brings it back/);
  await escapeCancels(page);
  assert.equal((await srv.transaction(r.transactionId)).documents[0].pages, 5);
  await page.click(del);
  await dialogState(page);
  await roomChange(page, /\/pages\/2\/delete$/, () => page.click(`${OPEN} [data-confirm-ok]`));
  assert.equal((await srv.transaction(r.transactionId)).documents[0].pages, 4);
  await assertNoNativeConfirm(page);
  await assertNoProblems(page);
  await page.close();

  // No script or template of ours calls window.confirm (htmx's hx-confirm would: none is used).
  const sources = ["static/js/app.js", "static/js/editor.js", ...readdirSync(join(repo, "web/src/editor")).map((f) => `web/src/editor/${f}`)];
  for (const f of sources) assert.doesNotMatch(readFileSync(join(repo, f), "utf8"), /(window\.|\b)confirm\(/, `${f} calls confirm()`);
  for (const f of readdirSync(join(repo, "templates")).filter((f) => f.endsWith(".templ"))) {
    assert.doesNotMatch(readFileSync(join(repo, "templates", f), "utf8"), /hx-confirm/, `templates/${f} uses hx-confirm`);
  }
});

// WebKit's MiniBrowser window is at least 447 px wide (its toolbar): the phone
// layout (under 48rem) is the same there, a little wider.
const PHONE = { width: engine === "webkit" ? 447 : 390, height: 844 };

test("the confirm dialog on a phone (390×844): the documents sheet's Remove asks in the dialog, which fits the screen", T, async () => {
  const r = await removalRoom();
  const page = await openRoom(r.url, PHONE);
  await trapConfirm(page);
  await page.click('[data-sheet-open="documents"]');
  await page.waitFor(() => document.querySelector("[data-room-layout]").dataset.openSheet === "documents");
  // The second document's card is below the first's pages: the sheet scrolls to it, as a thumb would.
  await page.eval((sel) => document.querySelector(sel).scrollIntoView({ block: "center" }), docRemove(1));
  await clickable(page, docRemove(1), `${engine}: the documents sheet slid in`);
  await page.click(docRemove(1));
  const asked = await dialogState(page);
  assert.equal(asked.title, "Remove “Addendum” and its 3 tags?");
  const box = await page.box(OPEN);
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width && box.y >= 0 && box.y + box.height <= PHONE.height, `${engine}: the dialog fits: ${JSON.stringify(box)}`);
  await page.screenshot(`removals-dialog-${PHONE.width}x${PHONE.height}`);
  await roomChange(page, /\/documents\/1\/remove$/, () => page.click(`${OPEN} [data-confirm-ok]`));
  assert.equal((await srv.transaction(r.transactionId)).documents.length, 1);
  await assertNoNativeConfirm(page);
  await assertNoProblems(page);
  await page.close();
});
