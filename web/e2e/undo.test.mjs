// Browser tests of the room's undo history (issue "Markup Room editor III",
// item 4): a page delete is undone (Ctrl Z and the Undo button) with its
// tags back, ids and all, and redone; an undo against a document changed
// in another window is refused with a plain message; more than 50 mixed
// steps (tags placed, nudged and deleted, pages moved and deleted) undo and
// redo one by one, the server's state checked after each.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF } from "./lib/pdf.mjs";
import { join } from "node:path";
import { startServer, launchBrowser, artifacts, acceptConfirms } from "./lib/server.mjs";
import { openRoom } from "./lib/room.mjs";

let srv, browser, doc;

before(async () => {
  srv = await startServer({ MARKUPROOM_MAX_UPLOAD_BYTES: String(1 << 20) });
  browser = await launchBrowser();
  doc = await srv.upload(mixedPDF(), "Mixed pages");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

/** A room whose pages 1…5 carry one tag each at x = 50 × page (to tell the pages apart). */
async function roomWithMarkedPages() {
  const r = await srv.room([doc]);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = [1, 2, 3, 4, 5].map((page) => ({
    type: "SIGNATURETEMPLATE", x: 50 * page, y: 100, width: 100, height: 30, page,
    signerId: tx.participants[0].id, customData: {},
  }));
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  return r;
}

/** The server's state of the first document: its page count and its tags, in a stable order (ids left out: an undone delete creates a tag anew). */
async function serverState(txID) {
  const d = (await srv.transaction(txID)).documents[0];
  const r = (n) => Math.round(n * 100) / 100;
  const tags = d.tags.map((t) => `${t.page}:${t.type}:${r(t.x)},${r(t.y)},${r(t.width)}x${r(t.height)}`).sort();
  return { pages: d.pages, tags };
}

/** Runs a page edit (or its undo/redo) and waits until the editor has started again on the room swapped in. */
async function rebuilt(page, action) {
  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  await action();
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale && !window.markupRoomHistory.busy);
}

/** Waits until no step runs, no save is under way and the history holds n steps. */
async function settled(page, n) {
  await waitState(page, n).catch(async (err) => {
    const seen = await page.evaluate(() => ({
      size: window.markupRoomHistory?.size, busy: window.markupRoomHistory?.busy, labels: window.markupRoomHistory?.labels(),
      status: document.querySelector("[data-save-status]")?.textContent.trim(),
      selected: window.markupRoomEditor?.selectedId, active: document.activeElement?.outerHTML.slice(0, 200),
    }));
    throw new Error(`waiting for ${n} steps: ${JSON.stringify(seen)}`, { cause: err });
  });
}

function waitState(page, n) {
  return page.waitForFunction(
    (n) => {
      const h = window.markupRoomHistory;
      const status = document.querySelector("[data-save-status]");
      return h && !h.busy && h.size === n && status?.dataset.kind !== "busy";
    },
    n,
    { timeout: 10000 },
  );
}

const historySize = (page) => page.evaluate(() => window.markupRoomHistory.size);

test("a page delete is undone by Ctrl Z and by the Undo button, with its tags and their ids; redo deletes it again", async () => {
  const r = await roomWithMarkedPages();
  const { ctx, page, problems } = await openRoom(browser, r.url);
  acceptConfirms(page);
  const initial = await serverState(r.transactionId);
  const idsOnPage2 = await page.locator('.viewer-page[data-page="2"] .tag').evaluateAll((els) => els.map((el) => el.dataset.tagId));
  assert.equal(idsOnPage2.length, 1);
  const original = (await srv.transaction(r.transactionId)).documents[0].id;

  // A tag edit first: the page delete must not wipe it from the history.
  await page.locator('.viewer-page[data-page="1"] .tag').first().click();
  await page.keyboard.press("ArrowRight");
  await settled(page, 1);
  const nudged = await serverState(r.transactionId);

  await rebuilt(page, () => page.locator('.room-thumb[data-page="2"]').getByRole("button", { name: "Delete page 2" }).click());
  assert.equal((await serverState(r.transactionId)).pages, 4);
  assert.equal(await historySize(page), 2);
  assert.equal(await page.locator('[data-action="undo"]').isEnabled(), true);

  // Ctrl Z: page 2 is back, with its tag (same id) on it.
  await rebuilt(page, () => page.keyboard.press("Control+z"));
  await settled(page, 1);
  assert.deepEqual(await serverState(r.transactionId), nudged);
  assert.equal((await srv.transaction(r.transactionId)).documents[0].id, original);
  assert.deepEqual(await page.locator('.viewer-page[data-page="2"] .tag').evaluateAll((els) => els.map((el) => el.dataset.tagId)), idsOnPage2);
  await page.locator('.viewer-page[data-page="2"].viewer-page--rendered').waitFor();

  // Redo (Ctrl Shift Z) deletes it again; the Undo button brings it back again.
  await rebuilt(page, () => page.keyboard.press("Control+Shift+z"));
  await settled(page, 2);
  assert.equal((await serverState(r.transactionId)).pages, 4);
  await rebuilt(page, () => page.getByRole("button", { name: "Undo" }).click());
  await settled(page, 1);
  assert.deepEqual(await serverState(r.transactionId), nudged);
  assert.deepEqual(await page.locator('.viewer-page[data-page="2"] .tag').evaluateAll((els) => els.map((el) => el.dataset.tagId)), idsOnPage2);

  // The tag edit from before the page edits undoes too.
  await page.getByRole("button", { name: "Undo" }).click();
  await settled(page, 0);
  assert.deepEqual(await serverState(r.transactionId), initial);
  assert.match(await page.locator("[data-save-status]").textContent(), /All changes saved/);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("an undo against a document changed in another window is refused, plainly, and changes nothing", async () => {
  const r = await roomWithMarkedPages();
  const { ctx, page } = await openRoom(browser, r.url);
  acceptConfirms(page);
  await rebuilt(page, () => page.locator('.room-thumb[data-page="3"]').getByRole("button", { name: "Delete page 3" }).click());
  // Another window deletes a page too. This window follows the room (issue 41): it shows that deletion as well, but
  // its undo step is still against the version its own deletion made.
  const other = await ctx.newPage();
  await other.goto(page.url());
  await other.locator(".viewer-page--rendered").first().waitFor();
  acceptConfirms(other);
  await other.locator('.room-thumb[data-page="1"]').getByRole("button", { name: "Delete page 1" }).click();
  await other.waitForFunction(() => document.querySelectorAll(".room-thumb").length === 3);
  const changed = await serverState(r.transactionId);
  assert.equal(changed.pages, 3);
  await page.waitForFunction(() => document.querySelectorAll(".room-thumb").length === 3 && window.markupRoomLive?.reads >= 1);
  await page.locator("[data-save-status]", { hasText: "Updated from another window" }).waitFor();

  await page.keyboard.press("Control+z");
  const status = page.locator("[data-save-status]");
  await page.waitForFunction(() => document.querySelector("[data-save-status]")?.dataset.kind === "error" && !window.markupRoomHistory.busy);
  // The window knows the document changed under the step (it read the room again): it says so, and the step leaves
  // the undo list, since it can no longer be undone.
  assert.match(await status.textContent(), /changed in another window, so this page change cannot be undone/);
  assert.doesNotMatch(await status.textContent(), /PDF|Exception|undefined|\{/);
  await page.screenshot({ path: join(artifacts, "undo-refused.png") });
  assert.deepEqual(await serverState(r.transactionId), changed);
  assert.equal(await historySize(page), 0);
  await ctx.close();
});

test("more than 50 mixed steps undo and redo one by one, the server's state right after each", async () => {
  const r = await roomWithMarkedPages();
  const { ctx, page, problems } = await openRoom(browser, r.url);
  acceptConfirms(page);
  const states = [await serverState(r.transactionId)];
  let steps = 0;
  const record = async () => {
    steps++;
    await settled(page, steps);
    states.push(await serverState(r.transactionId));
  };
  const pageEl = (n) => page.locator(`.viewer-page[data-page="${n}"]`);
  const thumbButton = (n, name) => page.locator(`.room-thumb[data-page="${n}"]`).getByRole("button", { name });
  /** A spot on page n where a new signature overlaps no tag (pixels inside the page). */
  const freeSpot = (n) =>
    pageEl(n).evaluate((el) => {
      const box = el.getBoundingClientRect();
      const scale = window.markupRoomViewer.pageOf(el).scale;
      const w = 150 * scale;
      const h = 44 * scale;
      const tags = [...el.querySelectorAll(".tag")].map((t) => t.getBoundingClientRect());
      for (let y = 8; y + h < box.height; y += 12) {
        for (let x = 8; x + w < box.width; x += 24) {
          const free = tags.every((t) => t.right < box.left + x || t.left > box.left + x + w || t.bottom < box.top + y || t.top > box.top + y + h);
          if (free) return { x, y };
        }
      }
      throw new Error("no free spot");
    });
  /** Places a signature with the palette on page n where there is room; resolves with its id. */
  const place = async (n) => {
    await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').click();
    await pageEl(n).scrollIntoViewIfNeeded();
    await pageEl(n).click({ position: await freeSpot(n) });
    await record();
    return page.evaluate(() => window.markupRoomEditor.selectedId);
  };
  const select = async (id) => {
    const tag = page.locator(`.tag[data-tag-id="${id}"]`);
    await tag.scrollIntoViewIfNeeded();
    await tag.click();
    await page.waitForFunction((id) => window.markupRoomEditor.selectedId === id, id);
  };
  const nudge = async (id, key) => {
    await select(id);
    await page.keyboard.press(key);
    await record();
  };
  const remove = async (id) => {
    await select(id);
    await page.keyboard.press("Delete");
    await record();
  };
  const pageOp = async (n, name) => {
    await thumbButton(n, name).scrollIntoViewIfNeeded();
    await rebuilt(page, () => thumbButton(n, name).click());
    await record();
  };

  for (let cycle = 0; cycle < 6; cycle++) {
    const a = await place(1);
    await nudge(a, "ArrowRight");
    const b = await place(2);
    await nudge(b, "ArrowDown");
    await pageOp(1, "Move page 1 down");
    await remove(b);
    await pageOp(3, "Move page 3 up");
    await nudge(a, "ArrowLeft");
    if (cycle === 1 || cycle === 4) await pageOp(2, "Delete page 2");
    else await place(3);
  }
  assert.ok(steps >= 54, `${steps} steps`);
  assert.equal(await historySize(page), steps);
  assert.equal(states[steps].pages, 3);

  // Undo every step (Ctrl Z and the Undo button in turn): after each, the state before it.
  for (let k = steps; k > 0; k--) {
    const press = k % 2 ? () => page.keyboard.press("Control+z") : () => page.getByRole("button", { name: "Undo" }).click();
    await press();
    await settled(page, k - 1);
    assert.deepEqual(await serverState(r.transactionId), states[k - 1], `after undoing step ${k}`);
  }
  assert.equal(await page.locator('[data-action="undo"]').isDisabled(), true);
  // Redo every step: after each, the state right after it.
  for (let k = 1; k <= steps; k++) {
    const press = k % 2 ? () => page.keyboard.press("Control+Shift+z") : () => page.getByRole("button", { name: "Redo" }).click();
    await press();
    await settled(page, k);
    assert.deepEqual(await serverState(r.transactionId), states[k], `after redoing step ${k}`);
  }
  assert.equal(await page.locator('[data-action="redo"]').isDisabled(), true);
  assert.deepEqual(problems, []);
  await ctx.close();
});
