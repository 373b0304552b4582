// Revising a room's document (issue 42, docs/revise.md) on three browser
// engines through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-revise.test.mjs
//
// A contract with a tag on each of its fields is replaced, in the room, by a
// revision with a clause removed (cmd/revisioncorpus writes both and where
// every field went): "Replace with revised version…" moves every tag whose
// field is still there onto it (within 2 pt), flags the one whose field went,
// shows what changed (added words highlighted, faint arrows from where moved
// tags were), and the pre-send check's "Keep here" clears the flag. Undoing
// that and then the revision brings the old version back with every tag
// where it was; redo places them again. Screenshots: issue42-revision-<engine>-<width>.png.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean, clickable } from "./lib/room.mjs";
import { eventually } from "./lib/wait.mjs";

const T = { timeout: 300000 };
let srv, browser, dir, fields;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "markuproom-revisions-"));
  execFileSync("go", ["run", "./cmd/revisioncorpus", "-o", dir], { stdio: "inherit" });
  fields = JSON.parse(readFileSync(join(dir, "fields.json"), "utf8"));
  srv = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

// WebKitGTK's MiniBrowser window stops at about 447 px (docs/testing.md).
const PHONE = engine === "webkit" ? { width: 450, height: 844 } : { width: 390, height: 844 };
const KIND = "clause-removed";

/** A room on the base contract with an initials tag of its first signer on every field; resolves with the room and each tag's field by tag id. */
async function contractRoom() {
  const doc = await srv.upload(readFileSync(join(dir, "base.pdf")), "Services agreement");
  const r = await srv.room([doc]);
  const tx = await srv.transaction(r.transactionId);
  const names = Object.keys(fields.base);
  tx.documents[0].tags = names.map((name) => {
    const f = fields.base[name];
    return { type: "INITIALSTEMPLATE", page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, signerId: tx.participants[0].id, customData: { field: name }, required: true };
  });
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  return r;
}

/** The room's first document: its id and its tags by field. */
async function stored(r) {
  const tx = await srv.transaction(r.transactionId);
  const d = tx.documents[0];
  return { id: d.id, tags: Object.fromEntries(d.tags.map((t) => [t.customData.field, t])) };
}

/** Chooses the revised PDF in the document's revise form and sends it; resolves once the room shows what changed. */
async function revise(page) {
  // The menu item is whole in the documents column (it wraps rather than cut).
  const cut = await page.eval(() => {
    const s = document.querySelector("[data-document-revise] > summary");
    const card = s.closest(".room-doc").getBoundingClientRect();
    const r = s.getBoundingClientRect();
    return r.right > card.right + 0.5 || s.scrollWidth > s.clientWidth + 1;
  });
  assert.ok(!cut, `${engine}: "Replace with revised version…" is cut`);
  await clickable(page, "[data-document-revise] > summary");
  await page.click("[data-document-revise] > summary");
  await page.waitForSelector("[data-document-revise] [data-revise-input]", { visible: true });
  await page.eval(
    ({ data }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], "services-v2.pdf", { type: "application/pdf" }));
      document.querySelector("[data-document-revise] [data-revise-input]").files = dt.files;
    },
    { data: readFileSync(join(dir, `${KIND}.pdf`)).toString("base64") },
  );
  await page.request("POST", /\/revise$/, () => page.click("[data-document-revise] button[type='submit']"));
  await page.waitFor(() => !!document.querySelector("[data-revision-summary]") && document.querySelectorAll(".revision-layer").length > 0 && !!window.markupRoomHistory?.canUndo, { timeout: 30000 });
}

const near = (tag, f) => tag.page === f.page && Math.abs(tag.x - f.x) <= 2 && Math.abs(tag.y - f.y) <= 2;

test("Replace with revised version…: tags follow their words, what changed is shown, the flagged one is kept from the check, one undo restores, redo replaces", T, async () => {
  const r = await contractRoom();
  const original = await stored(r);
  const page = await pages.openRoom(r.url);
  await revise(page);

  // Every tag whose field is still there sits on it; the one whose field went is flagged, on its page.
  const now = await stored(r);
  assert.notEqual(now.id, original.id, `${engine}: the document is the revised version`);
  const want = fields[KIND];
  const gone = Object.keys(fields.base).filter((n) => !want[n]);
  assert.ok(gone.length >= 1, "the revision removes a field");
  for (const [name, tag] of Object.entries(now.tags)) {
    if (want[name]) assert.ok(near(tag, want[name]), `${engine}: ${name} at page ${tag.page} (${tag.x}, ${tag.y}); its field is at page ${want[name].page} (${want[name].x}, ${want[name].y})`);
  }
  const summary = await page.eval(() => document.querySelector("[data-revision-summary]").textContent.replace(/\s+/g, " "));
  assert.match(summary, /Tags moved: [1-9]\d*, unchanged: \d+, needing a look: 1\./, `${engine}: the summary`);
  const drawn = await page.eval(() => ({
    words: document.querySelectorAll(".revision-layer .revision-word").length,
    arrows: document.querySelectorAll(".revision-layer line[data-revision-arrow]").length + document.querySelectorAll(".revision-layer [data-revision-from]").length,
    removed: [...document.querySelectorAll(".revision-layer [data-revision-removed]")].map((el) => [Number(el.dataset.revisionRemoved), el.textContent]),
  }));
  assert.ok(drawn.arrows >= 1, `${engine}: the moved tags are shown: ${JSON.stringify(drawn)}`);
  // The removed clause: its words are counted on the page that took its page's text.
  assert.ok(drawn.removed.some(([n, text]) => n > 0 && text === `${n} words removed from this page`), `${engine}: the removed words: ${JSON.stringify(drawn)}`);
  await page.eval(() => document.querySelector(".revision-layer line, .revision-layer [data-revision-from]")?.closest(".viewer-page").scrollIntoView({ block: "start" }));
  await page.screenshotAs(`issue42-revision-${engine}-1440.png`);

  // The check lists the flagged tag; "Keep here" is the look it needs.
  const codes = async () => (await srv.api("GET", `/api/v1/transactions/${r.transactionId}/review`)).findings.map((f) => f.code);
  assert.ok((await codes()).includes("tag_needs_look"), `${engine}: the review: ${JSON.stringify(await codes())}`);
  await page.request("GET", /\/checklist$/, () => page.click("[data-control='create-session']"));
  await page.waitForSelector('#session-dialog [data-finding="tag_needs_look"] [data-fix="keep"]', { visible: true });
  await page.request("PUT", /\/tags\//, () => page.click('#session-dialog [data-finding="tag_needs_look"] [data-fix="keep"]'));
  await page.waitForSelector("#session-dialog", { hidden: true });
  await eventually(async () => assert.ok(!(await codes()).includes("tag_needs_look"), `${engine}: still needs a look`));

  // Undo the look, then the revision: the old version, every tag where it was.
  await page.waitFor(() => !window.markupRoomHistory.busy && window.markupRoomHistory.canUndo);
  await page.request("PUT", /\/tags\//, () => page.click("[data-action='undo']"));
  await page.waitFor(() => !window.markupRoomHistory.busy && window.markupRoomHistory.canUndo);
  await page.request("POST", /\/restore$/, () => page.click("[data-action='undo']"));
  await eventually(async () => {
    const back = await stored(r);
    assert.equal(back.id, original.id, `${engine}: the undo brings the old version back`);
    for (const [name, tag] of Object.entries(back.tags)) {
      const was = original.tags[name];
      assert.deepEqual([tag.page, tag.x, tag.y, tag.width, tag.height], [was.page, was.x, was.y, was.width, was.height], `${engine}: ${name} after the undo`);
    }
  }, { timeout: 20000 });
  // Redo: the revised version again.
  await page.waitFor(() => !!window.markupRoomHistory?.canRedo);
  await page.request("POST", /\/revise$/, () => page.click("[data-action='redo']"));
  await eventually(async () => {
    const again = await stored(r);
    assert.equal(again.id, now.id, `${engine}: the redo puts the revised version back`);
  }, { timeout: 20000 });
  await assertClean(page);
});

test("the revision view on a phone (screenshot)", T, async () => {
  const r = await contractRoom();
  const page = await pages.openRoom(r.url, PHONE);
  // On a phone the documents panel is a sheet: open it, revise, close it as a user would.
  const openSheet = () => page.eval(() => document.querySelector("[data-room-layout]").dataset.openSheet || "");
  const sheet = await page.eval(() => getComputedStyle(document.querySelector("#room-sidebar")).position === "fixed");
  if (sheet) {
    await page.click('[data-room-dock] [data-sheet-open="documents"]');
    await page.waitFor(() => document.querySelector("[data-room-layout]").dataset.openSheet === "documents" && getComputedStyle(document.querySelector("#room-sidebar")).transform === "none");
  }
  await revise(page);
  // The sheet in use opens again once the editor has started on the swapped room: close it then.
  if (sheet) {
    await eventually(async () => {
      if ((await openSheet()) === "documents") await page.eval(() => document.querySelector("#room-sidebar .sheet-close").click());
      assert.equal(await openSheet(), "", `${engine}: the documents sheet closed`);
    }, { timeout: 15000, interval: 300 });
  }
  const shown = await page.eval(() => {
    const layer = document.querySelector(".revision-layer line, .revision-layer [data-revision-from]")?.closest(".viewer-page");
    layer?.scrollIntoView({ block: "start" });
    const r = layer?.getBoundingClientRect();
    return !!r && r.width > 0 && r.right <= window.innerWidth + 1;
  });
  assert.ok(shown, `${engine}: the changed page is shown within the phone's width`);
  await page.screenshotAs(`issue42-revision-${engine}-${PHONE.width}.png`);
  await assertClean(page);
});
