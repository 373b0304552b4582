// Browser tests of working on many tags at once (issue "Markup Room editor
// IV"): a selection made each way (Shift/Ctrl+click, a rectangle dragged on
// the page, Ctrl A, Tab + Space), a group moved by a drag and by the arrows,
// align each way, distribute, same size, a tag drawn with a type picked,
// snapping to another tag's edge (the stored x) and an Alt-move without it,
// a mixed value in the properties panel, copy to pages "2-4" of a
// mixed-size document, undo and redo of each (one step, one batch
// request), and a refused group save that puts every member back.
// Screenshots of the arrange toolbar at three sizes go to web/e2e/artifacts/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { makePDF, mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, artifacts } from "./lib/server.mjs";
import { openRoom, setZoom, DESKTOP } from "./lib/room.mjs";

let srv, browser, doc, mixed;
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The serious and critical axe-core violations inside selector, as readable lines (as a11y.test.mjs does for whole pages). */
async function audit(page, where, selector) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (selector) => (await window.axe.run({ include: [selector] }, { resultTypes: ["violations"] })).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) })), selector);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${where}: ${v.id} (${v.impact}) ${v.help}: ${v.targets.slice(0, 5).join(" | ")}`);
}

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
  doc = await srv.upload(makePDF([1, 2, 3].map((n) => ({ width: 612, height: 792, label: `Letter page ${n}` }))), "Three letter pages");
  mixed = await srv.upload(mixedPDF(), "Mixed pages");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

// Three tags on page 1, told apart by type (an undone delete gives a tag a new id).
const START = {
  SIGNATURETEMPLATE: { x: 72, y: 600, width: 120, height: 30, signer: 0 },
  DATETEMPLATE: { x: 250, y: 500, width: 100, height: 24, signer: 0 },
  INITIALSTEMPLATE: { x: 400, y: 380, width: 80, height: 40, signer: 1 },
};
const TYPES = Object.keys(START);

/** A room on the three-page document with the START tags, opened at 100 % in a 1440 × 900 window (or viewport). */
async function openStartRoom(viewport = DESKTOP, onDoc = doc) {
  const r = await srv.room([onDoc]);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = TYPES.map((type) => {
    const s = START[type];
    return { type, x: s.x, y: s.y, width: s.width, height: s.height, page: 1, signerId: tx.participants[s.signer].id, customData: {}, required: true };
  });
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  const { page, ctx, problems } = await openRoom(browser, r.url, { viewport });
  const batches = [];
  page.on("request", (req) => {
    if (req.method() === "POST" && req.url().endsWith("/tags/batch")) batches.push(JSON.parse(req.postData() || "{}"));
  });
  await setZoom(page, "1");
  return { r, page, ctx, problems, batches };
}

const tagEl = (page, type, n = 1) => page.locator(`.viewer-page[data-page="${n}"] .tag[data-tag-type="${type}"]`);

/** Waits until no save, undo or redo is under way and the status line says so. */
async function settled(page) {
  await page.waitForFunction(() => {
    const status = document.querySelector("[data-save-status]");
    return !document.querySelector(".tag--pending") && !window.markupRoomHistory.busy && status.dataset.kind !== "busy";
  });
}

/** The server's rectangles of page n's tags, by type (GET /api/v1/transactions/{id}). */
async function serverRects(txID, n = 1) {
  const tx = await srv.transaction(txID);
  const out = {};
  for (const t of tx.documents[0].tags) if (t.page === n) out[t.type] = { x: t.x, y: t.y, width: t.width, height: t.height, signerId: t.signerId, required: t.required };
  return out;
}

/** What the page's tag elements say (data-x/y/w/h), by type. */
function shownRects(page, n = 1) {
  return page.evaluate((n) => {
    const out = {};
    for (const el of document.querySelectorAll(`.viewer-page[data-page="${n}"] .tag[data-tag-id]`)) {
      out[el.dataset.tagType] = { x: Number(el.dataset.x), y: Number(el.dataset.y), width: Number(el.dataset.w), height: Number(el.dataset.h) };
    }
    return out;
  }, n);
}

const near = (a, b, eps = 0.011) => Math.abs(a - b) <= eps;

async function selectAllOnPage1(page) {
  await tagEl(page, TYPES[0]).click();
  await page.keyboard.press("Control+a");
  await page.waitForFunction(() => document.querySelectorAll(".tag[data-selected]").length === 3);
}

async function undo(page) {
  await page.keyboard.press("Control+z");
  await settled(page);
}

async function redo(page) {
  await page.keyboard.press("Control+Shift+z");
  await settled(page);
}

test("three tags are selected each way, marked, counted in the status line, and Escape clears them", async () => {
  const { page, ctx, problems } = await openStartRoom();
  const selected = () => page.locator(".tag[data-selected]").evaluateAll((els) => els.map((el) => el.dataset.tagType).sort());
  const all = [...TYPES].sort();
  const status = page.locator("[data-save-status]");

  // Shift+click and Ctrl+click add.
  await tagEl(page, TYPES[0]).click();
  await tagEl(page, TYPES[1]).click({ modifiers: ["Shift"] });
  await tagEl(page, TYPES[2]).click({ modifiers: ["Control"] });
  assert.deepEqual(await selected(), all);
  assert.equal(await page.locator('.tag[aria-selected="true"]').count(), 3);
  assert.equal((await status.textContent()).trim(), "3 tags selected");
  assert.equal(await page.locator("[data-arrange-toolbar]").isVisible(), true, "the arrange toolbar shows for a group");
  // A modified click on a selected tag takes it out.
  await tagEl(page, TYPES[1]).click({ modifiers: ["Shift"] });
  assert.equal(await page.locator(".tag[data-selected]").count(), 2);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator(".tag[data-selected]").count(), 0);
  assert.equal(await page.locator("[data-arrange-toolbar]").isVisible(), false);

  // A rectangle dragged over an empty part of the page.
  const box = await page.locator('.viewer-page[data-page="1"]').boundingBox();
  const scale = 96 / 72;
  await page.mouse.move(box.x + 40 * scale, box.y + 150 * scale);
  await page.mouse.down();
  await page.mouse.move(box.x + 300 * scale, box.y + 300 * scale, { steps: 5 });
  assert.equal(await page.locator("[data-marquee]").count(), 1, "the selection rectangle shows while dragging");
  await page.mouse.move(box.x + 500 * scale, box.y + 430 * scale, { steps: 5 });
  await page.mouse.up();
  assert.equal(await page.locator("[data-marquee]").count(), 0);
  assert.deepEqual(await selected(), all);
  // A click on an empty spot clears it.
  await page.mouse.click(box.x + 500 * scale, box.y + 40 * scale);
  assert.equal(await page.locator(".tag[data-selected]").count(), 0);

  // Ctrl A: every tag of the page.
  await selectAllOnPage1(page);
  assert.deepEqual(await selected(), all);
  await page.keyboard.press("Escape");

  // Keyboard only: Tab to a tag, Tab on, Space adds each.
  const order = await page.locator('.viewer-page[data-page="1"] .tag[data-tag-id]').evaluateAll((els) => els.map((el) => el.dataset.tagType));
  await tagEl(page, order[0]).focus();
  assert.deepEqual(await selected(), [order[0]], "focus selects the tag");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  assert.deepEqual(await selected(), all);
  assert.equal((await status.textContent()).trim(), "3 tags selected");
  await page.keyboard.press("Space");
  assert.equal(await page.locator(".tag[data-selected]").count(), 2, "Space again takes the focused tag out");
  assert.equal((await status.textContent()).trim(), "2 tags selected");
  // The toolbar is reachable by keyboard: one Tab stop, arrows along it.
  await page.locator("[data-arrange-toolbar] button").first().focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.align), "center");
  await page.keyboard.press("End");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.same), "size");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a group moves by a drag and by the arrows as one request and one undo step each", async () => {
  const { r, page, ctx, problems, batches } = await openStartRoom();
  await selectAllOnPage1(page);
  const steps = await page.evaluate(() => window.markupRoomHistory.size);
  // Drag the date tag 30 px right and 20 px down with Alt held (no snapping).
  const b = await tagEl(page, "DATETEMPLATE").boundingBox();
  await page.keyboard.down("Alt");
  await page.mouse.move(b.x + 10, b.y + 5);
  await page.mouse.down();
  await page.mouse.move(b.x + 25, b.y + 15, { steps: 3 });
  await page.mouse.move(b.x + 40, b.y + 25, { steps: 3 });
  await page.mouse.up();
  await page.keyboard.up("Alt");
  await settled(page);
  assert.equal(batches.length, 1, "one request for the group");
  assert.equal(batches[0].update.length, 3);
  const moved = await serverRects(r.transactionId);
  for (const t of TYPES) {
    assert.ok(near(moved[t].x, START[t].x + 22.5) && near(moved[t].y, START[t].y - 15), `${t} moved: ${JSON.stringify(moved[t])}`);
    assert.equal(moved[t].width, START[t].width, "a move keeps the size");
  }
  assert.equal(await page.locator(".tag[data-selected]").count(), 3, "the group stays selected");
  assert.equal(await page.evaluate(() => window.markupRoomHistory.size), steps + 1);

  // Arrows: 1 pt, Shift: 10 pt, the whole group.
  await page.keyboard.press("ArrowLeft");
  await settled(page);
  // Past the merge window (history.mjs merges nudges within 1 s): the time passing is what is tested, so a
  // deliberate wait; the next press is then a step of its own.
  await page.waitForTimeout(1100);
  await page.keyboard.press("Shift+ArrowUp");
  await settled(page);
  const nudged = await serverRects(r.transactionId);
  for (const t of TYPES) assert.ok(near(nudged[t].x, moved[t].x - 1) && near(nudged[t].y, moved[t].y + 10), `${t} nudged: ${JSON.stringify(nudged[t])}`);
  assert.equal(batches.length, 3);
  assert.equal(await page.evaluate(() => window.markupRoomHistory.size), steps + 3);

  // Undo each step, then redo them.
  await undo(page);
  await undo(page);
  let now = await serverRects(r.transactionId);
  for (const t of TYPES) assert.ok(near(now[t].x, moved[t].x) && near(now[t].y, moved[t].y), `undo of the nudges: ${t}`);
  await undo(page);
  now = await serverRects(r.transactionId);
  for (const t of TYPES) assert.ok(near(now[t].x, START[t].x) && near(now[t].y, START[t].y), `undo of the drag: ${t}`);
  await redo(page);
  await redo(page);
  await redo(page);
  now = await serverRects(r.transactionId);
  for (const t of TYPES) assert.ok(near(now[t].x, nudged[t].x) && near(now[t].y, nudged[t].y), `redo: ${t}`);
  const shown = await shownRects(page);
  for (const t of TYPES) assert.ok(near(shown[t].x, nudged[t].x), `the page shows the server's ${t}`);

  // Delete the group, one step; undo brings all three back; redo removes them again.
  await selectAllOnPage1(page);
  await page.keyboard.press("Delete");
  await settled(page);
  assert.deepEqual(await serverRects(r.transactionId), {});
  await undo(page);
  assert.deepEqual(Object.keys(await serverRects(r.transactionId)).sort(), [...TYPES].sort());
  await redo(page);
  assert.deepEqual(await serverRects(r.transactionId), {});
  await undo(page);

  // Copy and paste the group: three new tags in one request, one step.
  await selectAllOnPage1(page);
  await page.keyboard.press("Control+c");
  const p2 = await page.locator('.viewer-page[data-page="2"]');
  await p2.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const p2box = await p2.boundingBox();
  await page.mouse.move(p2box.x + 100, p2box.y + 100);
  const before = batches.length;
  await page.keyboard.press("Control+v");
  await settled(page);
  assert.equal(batches.length, before + 1);
  assert.equal(batches[batches.length - 1].create.length, 3);
  const pasted = await serverRects(r.transactionId, 2);
  assert.deepEqual(Object.keys(pasted).sort(), [...TYPES].sort());
  // Relative places kept: the signature is left of the date by as much as before.
  assert.ok(near(pasted.DATETEMPLATE.x - pasted.SIGNATURETEMPLATE.x, now.DATETEMPLATE.x - now.SIGNATURETEMPLATE.x));
  await undo(page);
  assert.deepEqual(await serverRects(r.transactionId, 2), {});
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("align each way, distribute and same size: one step each, undone and redone", async () => {
  const { r, page, ctx, problems, batches } = await openStartRoom();
  await selectAllOnPage1(page);
  const bar = page.locator("[data-arrange-toolbar]");
  const expect = {
    left: (t) => ({ x: 72 }),
    right: (t) => ({ x: 480 - START[t].width }),
    center: (t) => ({ x: 276 - START[t].width / 2 }),
    top: (t) => ({ y: 630 - START[t].height }),
    bottom: (t) => ({ y: 380 }),
    middle: (t) => ({ y: 505 - START[t].height / 2 }),
  };
  for (const [how, want] of Object.entries(expect)) {
    const n = batches.length;
    await bar.locator(`[data-align="${how}"]`).click();
    await settled(page);
    assert.equal(batches.length, n + 1, `${how}: one request`);
    const got = await serverRects(r.transactionId);
    for (const t of TYPES) {
      for (const [k, v] of Object.entries(want(t))) assert.ok(near(got[t][k], v), `align ${how}: ${t}.${k} = ${got[t][k]}, want ${v}`);
      assert.equal(got[t].width, START[t].width, `align ${how} keeps ${t}'s width`);
    }
    await undo(page);
    const back = await serverRects(r.transactionId);
    for (const t of TYPES) assert.ok(near(back[t].x, START[t].x) && near(back[t].y, START[t].y), `undo of align ${how}: ${t}`);
    await redo(page);
    const again = await serverRects(r.transactionId);
    for (const t of TYPES) assert.deepEqual(again[t], got[t], `redo of align ${how}`);
    await undo(page);
  }

  // The keyboard shortcut does the same as the button.
  await page.locator(".tag[data-selected]").first().focus();
  await page.keyboard.press("Alt+Shift+KeyL");
  await settled(page);
  for (const [t, v] of Object.entries(await serverRects(r.transactionId))) assert.ok(near(v.x, 72), `Alt Shift L: ${t}`);
  await undo(page);

  // Distribute: the middle tag (date) moves so the gaps are equal; the outer two stay.
  await bar.locator('[data-distribute="horizontal"]').click();
  await settled(page);
  let got = await serverRects(r.transactionId);
  const gap1 = got.DATETEMPLATE.x - (got.SIGNATURETEMPLATE.x + 120);
  const gap2 = got.INITIALSTEMPLATE.x - (got.DATETEMPLATE.x + 100);
  assert.ok(near(gap1, gap2, 0.02) && near(got.SIGNATURETEMPLATE.x, 72) && near(got.INITIALSTEMPLATE.x, 400), `distribute horizontally: ${gap1} vs ${gap2}`);
  await undo(page);
  await bar.locator('[data-distribute="vertical"]').click();
  await settled(page);
  got = await serverRects(r.transactionId);
  // Shown top to bottom: signature (top 162), date, initials; equal gaps between their shown edges.
  const top = (t) => 792 - got[t].y - got[t].height;
  const vgap1 = top("DATETEMPLATE") - (top("SIGNATURETEMPLATE") + 30);
  const vgap2 = top("INITIALSTEMPLATE") - (top("DATETEMPLATE") + 24);
  assert.ok(near(vgap1, vgap2, 0.02), `distribute vertically: ${vgap1} vs ${vgap2}`);
  await undo(page);
  await redo(page);
  got = await serverRects(r.transactionId);
  assert.ok(near(top("DATETEMPLATE") - (top("SIGNATURETEMPLATE") + 30), vgap1, 0.02), "redo of distribute");
  await undo(page);

  // Same width / height / size: to the first selected tag (the signature, picked first).
  for (const [which, check] of [
    ["width", (v) => v.width === 120],
    ["height", (v) => v.height === 30],
    ["size", (v) => v.width === 120 && v.height === 30],
  ]) {
    await bar.locator(`[data-same="${which}"]`).click();
    await settled(page);
    const s = await serverRects(r.transactionId);
    for (const t of TYPES) assert.ok(check(s[t]), `same ${which}: ${t} ${JSON.stringify(s[t])}`);
    await undo(page);
    const u = await serverRects(r.transactionId);
    for (const t of TYPES) assert.ok(u[t].width === START[t].width && u[t].height === START[t].height, `undo of same ${which}: ${t}`);
    await redo(page);
    assert.deepEqual(await serverRects(r.transactionId), s, `redo of same ${which}`);
    await undo(page);
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a tag is drawn with a type picked; a tiny drag or a click gives the default size", async () => {
  const { r, page, ctx, problems } = await openStartRoom();
  const p2 = page.locator('.viewer-page[data-page="2"]');
  await p2.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const box = await p2.boundingBox();
  const scale = 96 / 72;
  await page.locator('[data-palette] [data-tag-type="FULLNAMETEMPLATE"]').click();
  await page.keyboard.down("Alt"); // no snapping: the exact drawn rectangle
  await page.mouse.move(box.x + 150 * scale, box.y + 200 * scale);
  await page.mouse.down();
  await page.mouse.move(box.x + 250 * scale, box.y + 230 * scale, { steps: 4 });
  assert.equal(await page.locator("[data-draw-rect]").count(), 1, "the rectangle shows while drawing");
  await page.mouse.move(box.x + 350 * scale, box.y + 250 * scale, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up("Alt");
  await settled(page);
  let tags = await serverRects(r.transactionId, 2);
  const t = tags.FULLNAMETEMPLATE;
  assert.ok(near(t.x, 150, 0.02) && near(t.width, 200, 0.02) && near(t.height, 50, 0.02) && near(t.y, 792 - 250, 0.02), `drawn: ${JSON.stringify(t)}`);
  assert.equal(await page.locator('[data-palette] [aria-pressed="true"]').count(), 0, "the type is put down after drawing");
  await undo(page);
  assert.deepEqual(await serverRects(r.transactionId, 2), {});
  await redo(page);
  tags = await serverRects(r.transactionId, 2);
  assert.ok(near(tags.FULLNAMETEMPLATE.width, 200, 0.02), "redo draws it again");

  // A drag smaller than 8 × 8 pt: the default size (Initials: 60 × 30) at the press.
  await page.locator('[data-palette] [data-tag-type="INITIALSTEMPLATE"]').click();
  await page.mouse.move(box.x + 100 * scale, box.y + 500 * scale);
  await page.mouse.down();
  await page.mouse.move(box.x + 105 * scale, box.y + 504 * scale, { steps: 2 });
  await page.mouse.up();
  await settled(page);
  tags = await serverRects(r.transactionId, 2);
  assert.ok(tags.INITIALSTEMPLATE.width === 60 && tags.INITIALSTEMPLATE.height === 30, `tiny drag: ${JSON.stringify(tags.INITIALSTEMPLATE)}`);
  assert.ok(near(tags.INITIALSTEMPLATE.x, 100, 0.02));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a move snaps to another tag's edge (guide shown, stored x exact) and Alt turns snapping off", async () => {
  const { r, page, ctx, problems } = await openStartRoom();
  const scale = 96 / 72;
  // Move the date tag (x 250) so its left edge comes 3 px right of the signature's (x 72).
  const b = await tagEl(page, "DATETEMPLATE").boundingBox();
  const dx = (72 - 250) * scale + 3;
  await page.mouse.move(b.x + 10, b.y + 5);
  await page.mouse.down();
  await page.mouse.move(b.x + 10 + dx / 2, b.y + 5 + 40, { steps: 4 });
  await page.mouse.move(b.x + 10 + dx, b.y + 5 + 60, { steps: 4 });
  assert.ok((await page.locator('[data-snap-guide="x"]').count()) >= 1, "a guide shows the snap");
  await page.mouse.up();
  await settled(page);
  assert.equal(await page.locator("[data-snap-guide]").count(), 0, "the guide goes when the drag ends");
  const x = Number(await tagEl(page, "DATETEMPLATE").getAttribute("data-x"));
  assert.ok(Math.abs(x - 72) <= 0.01, `snapped data-x ${x}, want 72`);
  assert.ok(Math.abs((await serverRects(r.transactionId)).DATETEMPLATE.x - 72) <= 0.01, "stored x snapped");

  // The same move with Alt held: no snap, the tag lands 3 px (2.25 pt) right of the edge.
  await undo(page);
  const b2 = await tagEl(page, "DATETEMPLATE").boundingBox();
  await page.keyboard.down("Alt");
  await page.mouse.move(b2.x + 10, b2.y + 5);
  await page.mouse.down();
  await page.mouse.move(b2.x + 10 + dx / 2, b2.y + 5 + 40, { steps: 4 });
  await page.mouse.move(b2.x + 10 + dx, b2.y + 5 + 60, { steps: 4 });
  assert.equal(await page.locator("[data-snap-guide]").count(), 0, "no guide with Alt");
  await page.mouse.up();
  await page.keyboard.up("Alt");
  await settled(page);
  const free = Number(await tagEl(page, "DATETEMPLATE").getAttribute("data-x"));
  assert.ok(Math.abs(free - (72 + 3 / scale)) <= 0.02, `Alt-moved data-x ${free}, want ${72 + 3 / scale}`);
  // Numbers typed in the panel are never snapped.
  await tagEl(page, "DATETEMPLATE").click();
  const xField = page.locator("[data-tag-props]").getByLabel("X", { exact: true });
  await xField.fill("73.5");
  await xField.press("Tab");
  await settled(page);
  assert.equal(Number(await tagEl(page, "DATETEMPLATE").getAttribute("data-x")), 73.5);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the properties panel shows mixed values and edits what the selection shares in one step", async () => {
  const { r, page, ctx, problems, batches } = await openStartRoom();
  await selectAllOnPage1(page);
  const panel = page.locator("[data-tag-props]");
  const signer = panel.getByLabel("Signer");
  assert.equal(await signer.getAttribute("data-mixed"), "", "two signers: mixed");
  assert.equal(await signer.locator("option:checked").textContent(), "Mixed");
  assert.equal(await panel.getByLabel("Required").evaluate((i) => i.indeterminate), false, "all required: not mixed");
  assert.equal(await panel.getByLabel("Required").isChecked(), true);
  assert.equal(await panel.getByLabel("Font size").getAttribute("placeholder"), "Auto");
  const tx = await srv.transaction(r.transactionId);
  const robin = tx.participants[1].id;
  const n = batches.length;
  await signer.selectOption(robin);
  await settled(page);
  assert.equal(batches.length, n + 1);
  let got = await serverRects(r.transactionId);
  for (const t of TYPES) assert.equal(got[t].signerId, robin, `${t} gets the signer`);
  for (const t of TYPES) assert.ok(near(got[t].x, START[t].x), `${t} left where it was`);
  await panel.getByLabel("Required").uncheck();
  await settled(page);
  got = await serverRects(r.transactionId);
  for (const t of TYPES) assert.equal(got[t].required, false, `${t} no longer required`);
  // Focus is in the panel (Ctrl Z there belongs to the field): the toolbar's Undo button.
  for (let i = 0; i < 2; i++) {
    await page.locator('[data-action="undo"]').click();
    await settled(page);
  }
  got = await serverRects(r.transactionId);
  assert.equal(got.SIGNATURETEMPLATE.signerId, tx.participants[0].id, "undo gives each its own signer back");
  assert.equal(got.INITIALSTEMPLATE.signerId, robin);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("copy to pages 2-4 of a mixed-size document: every copy inside its page box at the same relative place, one step", async () => {
  const { r, page, ctx, problems, batches } = await openStartRoom(undefined, mixed);
  await selectAllOnPage1(page);
  await page.locator("[data-copy-pages-open]").click();
  const dialog = page.locator("[data-copy-pages-dialog]");
  await dialog.getByLabel("Pages to copy to").fill("4-2");
  await dialog.locator("[data-copy-pages-submit]").click();
  assert.equal(await dialog.locator("[data-copy-pages-error]").isVisible(), true, "a reversed range is refused in the dialog");
  assert.equal(batches.length, 0, "nothing sent");
  await dialog.getByLabel("Pages to copy to").fill("2-4");
  await dialog.locator("[data-copy-pages-submit]").click();
  await settled(page);
  assert.equal(await dialog.isVisible(), false);
  assert.equal(batches.length, 1, "one request");
  assert.equal(batches[0].create.length, 9);
  const boxes = mixed.pageBoxes;
  const rel = (t, n) => {
    const b = boxes[n - 1].cropBox;
    return [(t.x + t.width / 2 - b.llx) / (b.urx - b.llx), (t.y + t.height / 2 - b.lly) / (b.ury - b.lly)];
  };
  const tx = await srv.transaction(r.transactionId);
  const tags = tx.documents[0].tags;
  for (const type of TYPES) {
    const src = tags.find((t) => t.page === 1 && t.type === type);
    const want = rel(src, 1);
    for (const n of [2, 3, 4]) {
      const copy = tags.filter((t) => t.page === n && t.type === type);
      assert.equal(copy.length, 1, `${type} on page ${n}`);
      const [t] = copy;
      const b = boxes[n - 1].cropBox;
      assert.ok(t.x >= b.llx - 0.01 && t.y >= b.lly - 0.01 && t.x + t.width <= b.urx + 0.01 && t.y + t.height <= b.ury + 0.01, `${type} inside page ${n}'s box: ${JSON.stringify(t)}`);
      // The centres' relative places agree within what anchoring another point of the tag (a corner) moves them.
      const got = rel(t, n);
      const sb = boxes[0].cropBox;
      const tolX = (t.width / 2) * Math.abs(1 / (sb.urx - sb.llx) - 1 / (b.urx - b.llx)) + 0.01;
      const tolY = (t.height / 2) * Math.abs(1 / (sb.ury - sb.lly) - 1 / (b.ury - b.lly)) + 0.01;
      assert.ok(Math.abs(got[0] - want[0]) <= tolX && Math.abs(got[1] - want[1]) <= tolY, `${type} on page ${n} at ${got}, source at ${want}`);
    }
  }
  // The field list redraws on the next animation frame after the tags change: wait for a fourth entry, then count.
  const listed = page.locator("[data-field-list] [data-field-tag]").filter({ hasText: "Initials" });
  await listed.nth(3).waitFor();
  assert.equal((await listed.count()) >= 4, true, "the field list shows the copies");
  await undo(page);
  assert.equal((await srv.transaction(r.transactionId)).documents[0].tags.length, 3, "undo removes every copy");
  await redo(page);
  assert.equal((await srv.transaction(r.transactionId)).documents[0].tags.length, 12, "redo copies again");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the gain: signature, date and initials for two signers on each of 10 pages, counted in clicks and key presses both ways", async (t) => {
  const ten = await srv.upload(makePDF(Array.from({ length: 10 }, (_, i) => ({ width: 612, height: 792, label: `Closing package page ${i + 1}` }))), "Ten pages");
  const SIGNERS = ["Pat Buyer", "Robin Seller"];
  const KINDS = [["SIGNATURETEMPLATE", 60], ["DATETEMPLATE", 260], ["INITIALSTEMPLATE", 420]]; // type, x in pixels
  /** Opens a fresh room on the ten pages; act() counts one user action (a click or a key press). */
  const setup = async () => {
    const r = await srv.room([ten]);
    const { ctx, page, problems } = await openRoom(browser, r.url);
    let actions = 0;
    const act = async (fn) => {
      actions++;
      await fn();
    };
    return { r, ctx, page, problems, act, count: () => actions };
  };
  const onPage = (page, n) => page.locator(`.viewer-page[data-page="${n}"]`);
  const placeOn = async (page, act, n, type, x, y) => {
    await act(() => page.locator(`[data-palette] [data-tag-type="${type}"]`).click());
    await act(() => onPage(page, n).click({ position: { x, y } }));
    await settled(page);
  };
  /** Every page holds the three kinds for both signers. */
  const check = async (txID) => {
    const tx = await srv.transaction(txID);
    const tags = tx.documents[0].tags;
    assert.equal(tags.length, 60);
    for (let n = 1; n <= 10; n++) {
      for (const p of tx.participants) {
        const mine = tags.filter((x) => x.page === n && x.signerId === p.id).map((x) => x.type).sort();
        assert.deepEqual(mine, KINDS.map(([k]) => k).sort(), `page ${n}, ${p.firstName}`);
      }
    }
  };

  // Before: one tag at a time (each signer's tags in one pass, so the signer is picked twice in all).
  const one = await setup();
  for (const [i, who] of SIGNERS.entries()) {
    await one.act(() => one.page.locator("[data-signer-picker] label", { hasText: who }).click());
    for (let n = 1; n <= 10; n++) {
      await onPage(one.page, n).evaluate((el) => el.scrollIntoView({ block: "start" }));
      for (const [type, x] of KINDS) await placeOn(one.page, one.act, n, type, x, 200 + 60 * i);
    }
  }
  await check(one.r.transactionId);
  const before = one.count();
  assert.deepEqual(one.problems, []);
  await one.ctx.close();

  // After: the six tags on page 1, then Ctrl A and copy to every page.
  const two = await setup();
  for (const [i, who] of SIGNERS.entries()) {
    await two.act(() => two.page.locator("[data-signer-picker] label", { hasText: who }).click());
    for (const [type, x] of KINDS) await placeOn(two.page, two.act, 1, type, x, 200 + 60 * i);
  }
  await two.act(() => two.page.keyboard.press("Control+a")); // the last tag placed has the focus
  assert.equal(await two.page.locator(".tag[data-selected]").count(), 6);
  await two.act(() => two.page.locator("[data-copy-pages-open]").click());
  await two.act(() => two.page.locator("[data-copy-pages-submit]").click()); // "Every page" is the default
  await settled(two.page);
  await check(two.r.transactionId);
  const after = two.count();
  assert.deepEqual(two.problems, []);
  await two.ctx.close();
  t.diagnostic(`ACTIONS signature + date + initials for 2 signers on 10 pages: ${before} before, ${after} after (${(before / after).toFixed(1)}× fewer)`);
  assert.ok(after * 5 < before, `${after} actions instead of ${before}`);
});

test("a refused group save puts every member back and says why", async () => {
  const { r, page, ctx } = await openStartRoom();
  await selectAllOnPage1(page);
  await page.route("**/tags/batch", (route) =>
    route.fulfill({ status: 422, contentType: "application/problem+json", body: JSON.stringify({ title: "Unprocessable", status: 422, detail: "This room is completed: its tags can no longer change." }) }),
  );
  const steps = await page.evaluate(() => window.markupRoomHistory.size);
  await page.keyboard.press("Shift+ArrowRight");
  await settled(page);
  const shown = await shownRects(page);
  for (const t of TYPES) assert.ok(near(shown[t].x, START[t].x), `${t} back in the page's data`);
  const lefts = await page.evaluate(() => [...document.querySelectorAll('.viewer-page[data-page="1"] .tag[data-tag-id]')].map((el) => [el.dataset.tagType, parseFloat(el.style.left)]));
  for (const [t, left] of lefts) assert.ok(Math.abs(left - START[t].x * (96 / 72)) < 0.5, `${t} back on screen at ${left}px`);
  assert.match(await page.locator("[data-save-status]").textContent(), /This room is completed/);
  assert.equal(await page.evaluate(() => window.markupRoomHistory.size), steps, "no undo step for a refused change");
  const server = await serverRects(r.transactionId);
  for (const t of TYPES) assert.ok(near(server[t].x, START[t].x));
  await ctx.close();
});

test("screenshots of the arrange toolbar at 1440×900, 1024×768 and 390×844", async () => {
  for (const [w, h] of [[1440, 900], [1024, 768], [390, 844]]) {
    const { page, ctx, problems } = await openStartRoom({ width: w, height: h });
    await selectAllOnPage1(page);
    if (w < 768) await page.locator('[data-sheet-open="props"]').click();
    const bar = page.locator("[data-arrange-toolbar]");
    await bar.waitFor();
    assert.equal(await bar.isVisible(), true, `${w}×${h}: toolbar visible`);
    const box = await bar.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= w + 0.5, `${w}×${h}: toolbar inside the window (${JSON.stringify(box)})`);
    await page.screenshot({ path: join(artifacts, `multiselect-toolbar-${w}x${h}.png`) });
    if (w === 1440) {
      assert.deepEqual(await audit(page, "selection panel", "[data-tag-props]"), []);
      await page.locator("[data-copy-pages-open]").click();
      await page.locator("[data-copy-pages-dialog]").waitFor();
      assert.deepEqual(await audit(page, "copy to pages dialog", "[data-copy-pages-dialog]"), []);
      await page.screenshot({ path: join(artifacts, "multiselect-copy-pages.png") });
    }
    assert.deepEqual(problems, []);
    await ctx.close();
  }
});
