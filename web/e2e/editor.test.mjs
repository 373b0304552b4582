// Browser tests of the Markup Room editor (issue "Markup Room editor I") in
// real Chromium: real server, a PDF mixing page sizes, a CropBox offset and
// /Rotate 90, placed tags checked through the API at 50, 100 and 200 % zoom,
// every editing gesture, reload persistence, two tabs, documents.edit off,
// a 50-page PDF, and the budgets (printed, and the hard limits asserted).
//
// Run: make test-browser (needs `npm ci` and /usr/lib/chromium/chromium).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { mixedPDF, longPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, artifacts } from "./lib/server.mjs";
import { openRoom, setZoom, viewerIdle, savesDrawn } from "./lib/room.mjs";
import { eventually } from "./lib/wait.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let srv, browser, mixed, room;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
  mixed = await srv.upload(mixedPDF(), "Mixed pages");
  room = await srv.room([mixed]);
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pageEl = (page, docId, n) => page.locator(`.viewer-page[data-document-id="${docId}"][data-page="${n}"]`);
const isTagSave = (method) => (r) => r.url().includes("/tags") && r.request().method() === method;

async function tags(txID) {
  const tx = await srv.transaction(txID);
  return tx.documents[0].tags;
}

/** The tag's top-left corner on screen, computed by pdf.js's own viewport from the API's rectangle. */
function screenTopLeft(page, n, rect) {
  return page.evaluate(
    async ({ n, rect }) => {
      const v = window.markupRoomViewer;
      const view = v.pages.find((p) => p.number === n && p.doc.position === 0);
      const pdfPage = await (await view.doc.load()).getPage(n);
      const vp = pdfPage.getViewport({ scale: v.scale });
      const a = vp.convertToViewportPoint(rect.x, rect.y);
      const b = vp.convertToViewportPoint(rect.x + rect.width, rect.y + rect.height);
      return { left: Math.min(a[0], b[0]), top: Math.min(a[1], b[1]), scale: v.scale };
    },
    { n, rect },
  );
}

/** Runs action, waits for the tag save (method) it sends and until the answer is drawn; resolves with the response. */
async function save(page, method, action) {
  const [res] = await Promise.all([page.waitForResponse(isTagSave(method)), action()]);
  await savesDrawn(page);
  return res;
}

/** Places a tag by picking it in the palette and clicking the page; resolves with the new tag's id. */
async function clickPlace(page, type, docId, n, pos) {
  await page.locator(`[data-palette] [data-tag-type="${type}"]`).click();
  const res = await save(page, "POST", () => pageEl(page, docId, n).click({ position: pos }));
  assert.equal(res.status(), 201, await res.text());
  return /data-tag-id="([^"]+)"/.exec(await res.text())[1];
}

test("pages render, and tags land where they are put on every page at 50, 100 and 200 %", async () => {
  const { page, problems, ctx } = await openRoom(browser, room.url);
  const nonWhite = await page.evaluate(() => {
    const c = document.querySelector(".viewer-page--rendered canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) n++;
    return n;
  });
  assert.ok(nonWhite > 1000, `the first page's canvas has ${nonWhite} non-white pixels`);
  // Page elements carry the API's document id and 1-based page numbers, sized to the page at the zoom.
  assert.equal(await page.locator(`.viewer-page[data-document-id="${mixed.id}"]`).count(), 5);
  assert.equal(await page.locator("[data-document-id][data-page]").count(), 5, "only page elements carry both hooks");

  for (const zoom of ["0.5", "1", "2"]) {
    await setZoom(page, zoom);
    for (let n = 1; n <= 5; n++) {
      const el = pageEl(page, mixed.id, n);
      const box = await el.boundingBox();
      const scale = Number(zoom) * (96 / 72);
      const size = mixed.pageBoxes[n - 1];
      const [w, h] = [size.cropBox.urx - size.cropBox.llx, size.cropBox.ury - size.cropBox.lly];
      const [dw, dh] = size.rotate % 180 ? [h, w] : [w, h];
      assert.ok(Math.abs(box.width - dw * scale) < 1 && Math.abs(box.height - dh * scale) < 1, `page ${n} at ${zoom}: ${box.width}×${box.height}`);

      const pos = { x: 30 + 10 * n, y: 40 + 5 * n };
      await clickPlace(page, "SIGNATURETEMPLATE", mixed.id, n, pos);
      const onPage = (await tags(room.transactionId)).filter((t) => t.page === n);
      const t = onPage[onPage.length - 1];
      const at = await screenTopLeft(page, n, t);
      const tol = at.scale; // 1 pt in pixels
      assert.ok(Math.abs(at.left - pos.x) <= tol && Math.abs(at.top - pos.y) <= tol,
        `zoom ${zoom}, page ${n}: tag ${JSON.stringify(t)} shows at ${at.left.toFixed(2)},${at.top.toFixed(2)}, put at ${pos.x},${pos.y}`);
      // The box is inside the crop box and keeps the palette's size on screen.
      const cb = size.cropBox;
      assert.ok(t.x >= cb.llx && t.y >= cb.lly && t.x + t.width <= cb.urx + 0.01 && t.y + t.height <= cb.ury + 0.01, `inside page ${n}`);
      const [sw, sh] = size.rotate % 180 ? [t.height, t.width] : [t.width, t.height];
      assert.ok(Math.abs(sw - 144) < 0.02 && Math.abs(sh - 36) < 0.02, `page ${n}: ${t.width}×${t.height}`);
    }
  }
  await setZoom(page, "1");
  await page.screenshot({ path: join(artifacts, "editor-mixed-100.png") });
  await setZoom(page, "2");
  await pageEl(page, mixed.id, 5).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "editor-rotated-200.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("drag from the palette, move, resize, nudge, copy/paste, delete, undo and redo", async () => {
  const r = await srv.room([mixed]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  await setZoom(page, "1");
  const scale = 96 / 72;

  // Drag "Initials" onto page 2: its top-left corner lands at the drop point.
  const target = pageEl(page, mixed.id, 2);
  await target.scrollIntoViewIfNeeded();
  const [created] = await Promise.all([
    page.waitForResponse(isTagSave("POST")),
    page.locator('[data-palette] [data-tag-type="INITIALSTEMPLATE"]').dragTo(target, { targetPosition: { x: 120, y: 150 } }),
  ]);
  assert.equal(created.status(), 201);
  let [t] = await tags(r.transactionId);
  assert.equal(t.page, 2);
  assert.equal(t.type, "INITIALSTEMPLATE");
  let at = await screenTopLeft(page, 2, t);
  assert.ok(Math.abs(at.left - 120) <= scale && Math.abs(at.top - 150) <= scale, `dropped at ${at.left},${at.top}`);
  const id = /data-tag-id="([^"]+)"/.exec(await created.text())[1];
  const tag = page.locator(`.tag[data-tag-id="${id}"]`);
  await tag.waitFor();
  await eventually(async () => {
    assert.equal(await tag.getAttribute("aria-selected"), "true", "a new tag is selected");
    assert.equal(await tag.locator(".tag__signer").textContent(), "PB", "drawn with the signer's initials");
  });

  // Move by dragging: 60 px right, 30 px down.
  let b = await tag.boundingBox();
  await page.keyboard.down("Alt"); // exact amounts: Alt turns snapping off (multiselect.test.mjs tests the snap)
  await page.mouse.move(b.x + 10, b.y + 10);
  await page.mouse.down();
  await page.mouse.move(b.x + 40, b.y + 25, { steps: 4 });
  await Promise.all([page.waitForResponse(isTagSave("PUT")), (async () => {
    await page.mouse.move(b.x + 70, b.y + 40, { steps: 4 });
    await page.mouse.up();
  })()]);
  let [m] = await tags(r.transactionId);
  assert.ok(Math.abs(m.x - (t.x + 60 / scale)) < 1 && Math.abs(m.y - (t.y - 30 / scale)) < 1, `moved ${JSON.stringify(t)} → ${JSON.stringify(m)}`);

  // Resize by the bottom-right handle: 40 px wider, 20 px taller; the top-left corner stays.
  await savesDrawn(page);
  b = await tag.boundingBox();
  const handle = tag.locator(".tag__handle--se");
  const hb = await handle.boundingBox();
  await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
  await page.mouse.down();
  await Promise.all([page.waitForResponse(isTagSave("PUT")), (async () => {
    await page.mouse.move(hb.x + hb.width / 2 + 40, hb.y + hb.height / 2 + 20, { steps: 5 });
    await page.mouse.up();
  })()]);
  await page.keyboard.up("Alt");
  let [s] = await tags(r.transactionId);
  assert.ok(Math.abs(s.width - (m.width + 40 / scale)) < 1 && Math.abs(s.height - (m.height + 20 / scale)) < 1, `resized ${JSON.stringify(s)}`);
  assert.ok(Math.abs(s.x - m.x) < 0.02 && Math.abs(s.y + s.height - (m.y + m.height)) < 0.02, "the top-left corner stays");

  // Nudge: arrows move 1 pt, Shift 10 pt; each press is one request.
  await savesDrawn(page);
  await page.locator(`.tag[data-tag-id="${id}"]`).focus();
  for (const key of ["ArrowRight", "ArrowRight", "Shift+ArrowUp"]) {
    await save(page, "PUT", () => page.keyboard.press(key));
  }
  let [n] = await tags(r.transactionId);
  assert.ok(Math.abs(n.x - (s.x + 2)) < 0.01 && Math.abs(n.y - (s.y + 10)) < 0.01, `nudged ${JSON.stringify(n)}`);

  // Tags cannot leave the page: a big nudge stops at the edge.
  for (let i = 0; i < 3; i++) await save(page, "PUT", () => page.keyboard.press("Shift+ArrowLeft"));
  for (let i = 0; i < 30; i++) await save(page, "PUT", () => page.keyboard.press("Shift+ArrowLeft"));
  [n] = await tags(r.transactionId);
  assert.equal(n.x, 0, "stopped at the page's left edge");

  // Copy, click page 3, paste: a copy lands on page 3.
  await page.keyboard.press("Control+c");
  await pageEl(page, mixed.id, 3).click({ position: { x: 300, y: 300 } });
  await save(page, "POST", () => page.keyboard.press("Control+v"));
  let all = await tags(r.transactionId);
  assert.equal(all.length, 2);
  assert.equal(all[1].page, 3);
  assert.equal(all[1].type, "INITIALSTEMPLATE");

  // Delete the copy, undo (it comes back at the same spot), redo (gone again).
  await save(page, "DELETE", () => page.keyboard.press("Delete"));
  assert.equal((await tags(r.transactionId)).length, 1);
  await save(page, "POST", () => page.keyboard.press("Control+z"));
  all = await tags(r.transactionId);
  assert.equal(all.length, 2);
  assert.equal(all[1].page, 3);
  await save(page, "DELETE", () => page.keyboard.press("Control+Shift+z"));
  assert.equal((await tags(r.transactionId)).length, 1);
  // Undo three times: the delete (the copy is back), the paste (gone again), then every nudge as one step.
  await save(page, "POST", () => page.getByRole("button", { name: "Undo" }).click());
  await save(page, "DELETE", () => page.getByRole("button", { name: "Undo" }).click());
  await save(page, "PUT", () => page.getByRole("button", { name: "Undo" }).click());
  [n] = await tags(r.transactionId);
  assert.ok(Math.abs(n.x - s.x) < 0.01 && Math.abs(n.y - s.y) < 0.01, `undo of the nudges: ${JSON.stringify(n)} vs ${JSON.stringify(s)}`);

  // Escape clears the selection.
  await savesDrawn(page);
  await page.locator(`.tag[data-tag-id]`).first().focus();
  await page.keyboard.press("Escape");
  await eventually(async () => assert.equal(await page.locator('.tag[aria-selected="true"]').count(), 0));
  await page.screenshot({ path: join(artifacts, "editor-gestures.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the properties panel edits exact PDF points and options, and refuses bad values", async () => {
  const r = await srv.room([mixed]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  await setZoom(page, "1");
  const id = await clickPlace(page, "DATETEMPLATE", mixed.id, 1, { x: 100, y: 120 });
  const panel = page.locator("[data-tag-props]");
  // The contract's labels name one control each on the whole page, even matched loosely.
  for (const label of ["Signer", "Required", "Date format", "Font size", "Width", "Height"]) {
    assert.equal(await page.getByLabel(label).count(), 1, `getByLabel("${label}")`);
  }
  await panel.getByLabel("X", { exact: true }).fill("100");
  await save(page, "PUT", () => panel.getByLabel("X", { exact: true }).press("Tab"));
  await panel.getByLabel("Y", { exact: true }).fill("200.5");
  await save(page, "PUT", () => panel.getByLabel("Y", { exact: true }).press("Tab"));
  await panel.getByLabel("Width", { exact: true }).fill("150");
  await save(page, "PUT", () => panel.getByLabel("Width", { exact: true }).press("Tab"));
  await panel.getByLabel("Height", { exact: true }).fill("30");
  await save(page, "PUT", () => panel.getByLabel("Height", { exact: true }).press("Tab"));
  let [t] = await tags(r.transactionId);
  assert.deepEqual([t.x, t.y, t.width, t.height], [100, 200.5, 150, 30]);
  // The tag on screen followed.
  const at = await screenTopLeft(page, 1, t);
  await eventually(async () => {
    const box = await page.locator(`.tag[data-tag-id="${id}"]`).boundingBox();
    const pb = await pageEl(page, mixed.id, 1).boundingBox();
    assert.ok(Math.abs(box.x - pb.x - at.left) < 1 && Math.abs(box.y - pb.y - at.top) < 1, "drawn where the numbers say");
  });

  // Options: date format with a live preview, required, font size, signer.
  await save(page, "PUT", () => panel.getByLabel("Date format", { exact: true }).selectOption("MMMM do, yyyy"));
  await eventually(async () => assert.match(await panel.locator("[data-date-preview]").textContent(), /^[A-Z][a-z]+ \d{1,2}(st|nd|rd|th), \d{4}$/));
  await save(page, "PUT", () => panel.getByLabel("Required", { exact: true }).uncheck());
  await panel.getByLabel("Font size", { exact: true }).fill("14");
  await save(page, "PUT", () => panel.getByLabel("Font size", { exact: true }).press("Tab"));
  const robin = (await srv.transaction(r.transactionId)).participants[1].id;
  await save(page, "PUT", () => panel.getByLabel("Signer", { exact: true }).selectOption(robin));
  [t] = await tags(r.transactionId);
  assert.equal(t.dateFormat, "MMMM do, yyyy");
  assert.equal(t.required, false);
  assert.equal(t.fontSize, 14);
  assert.equal(t.signerId, robin);
  // htmx swaps the tag after the response: wait for the swap, not the response.
  await eventually(async () =>
    assert.match(await page.locator(`.tag[data-tag-id="${id}"]`).getAttribute("class"), /signer-c1/, "drawn in the new signer's colour"),
  );

  // Invalid values: an inline message, nothing sent, nothing changed.
  let sent = 0;
  page.on("request", (req) => req.url().includes("/tags") && sent++);
  const field = { Width: "width", X: "x", Y: "y", Height: "height" };
  for (const [label, value] of [["Width", "0"], ["X", "600"], ["Y", ""], ["Height", "-3"]]) {
    const input = panel.getByLabel(label, { exact: true });
    sent = 0;
    await input.fill(value);
    await input.press("Tab");
    await panel.locator("[data-tag-props-error]").waitFor();
    assert.ok((await panel.locator("[data-tag-props-error]").textContent()).length > 10, `${label}=${value} explains itself`);
    assert.equal(await input.getAttribute("aria-invalid"), "true");
    assert.equal(sent, 0, `${label}=${value} was not sent`);
    await input.fill(String(t[field[label]]));
    await save(page, "PUT", () => input.press("Tab"));
    await eventually(async () => assert.ok(await panel.locator("[data-tag-props-error]").isHidden(), "the message goes once the value is valid"));
  }
  const [same] = await tags(r.transactionId);
  assert.deepEqual(same, t);
  await page.screenshot({ path: join(artifacts, "editor-properties.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a reload shows exactly what was saved, and two tabs editing at once lose nothing", async () => {
  const r = await srv.room([mixed]);
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const a = await openRoom(browser, r.url, { context: ctx });
  const b = await openRoom(browser, a.page.url(), { context: ctx });
  for (const p of [a.page, b.page]) await setZoom(p, "1");
  // Both tabs place tags at the same time.
  await Promise.all([
    (async () => {
      for (let i = 0; i < 4; i++) await clickPlace(a.page, "SIGNATURETEMPLATE", mixed.id, 1, { x: 40, y: 40 + 60 * i });
    })(),
    (async () => {
      for (let i = 0; i < 4; i++) await clickPlace(b.page, "FULLNAMETEMPLATE", mixed.id, 1, { x: 420, y: 40 + 60 * i });
    })(),
  ]);
  const saved = await tags(r.transactionId);
  assert.equal(saved.length, 8);
  const snapshot = (p) => p.$$eval(".tag[data-tag-id]", (els) => els.map((e) => [e.dataset.tagId, e.dataset.x, e.dataset.y, e.dataset.w, e.dataset.h].join(" ")).sort());
  await a.page.reload();
  await b.page.reload();
  await a.page.locator(".tag[data-placed]").first().waitFor();
  const [sa, sb] = [await snapshot(a.page), await snapshot(b.page)];
  assert.equal(sa.length, 8);
  assert.deepEqual(sa, sb, "both tabs show the same tags after a reload");
  const fromAPI = saved.map((t) => [t.x, t.y, t.width, t.height].join(" ")).sort();
  assert.deepEqual(sa.map((s) => s.split(" ").slice(1).join(" ")).sort(), fromAPI, "exactly what the API has");

  // Tab A deletes a tag; tab B follows the room (issue 41): it drops the tag by itself and says why its room changed.
  // (A tab that did not follow, its stream cut, finds the tag gone when it edits it: defects.test.mjs.)
  const victim = sa[0].split(" ")[0];
  await a.page.locator(`.tag[data-tag-id="${victim}"]`).focus();
  await save(a.page, "DELETE", () => a.page.keyboard.press("Delete"));
  await b.page.locator(`.tag[data-tag-id="${victim}"]`).waitFor({ state: "detached" });
  await b.page.locator("[data-save-status]", { hasText: "Updated from another window" }).waitFor();
  assert.equal((await tags(r.transactionId)).length, 7);
  assert.deepEqual([...a.problems, ...b.problems], []);
  await ctx.close();
});

test("keyboard alone: pick and place from the palette, Tab through tags, edit them", async () => {
  const r = await srv.room([mixed]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  await setZoom(page, "1");
  // Enter on a palette item picks it; Enter again places it on the page in view.
  const sig = page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]');
  await sig.focus();
  await page.keyboard.press("Enter");
  assert.equal(await sig.getAttribute("aria-pressed"), "true");
  await save(page, "POST", () => page.keyboard.press("Enter"));
  const date = page.locator('[data-palette] [data-tag-type="DATETEMPLATE"]');
  await date.focus();
  await page.keyboard.press("Enter");
  await save(page, "POST", () => page.keyboard.press("Enter"));
  let all = await tags(r.transactionId);
  assert.equal(all.length, 2);
  assert.equal(all[0].page, 1);

  // Tab reaches the tags in order; the focused one is selected.
  await savesDrawn(page);
  const first = page.locator(".tag[data-tag-id]").first();
  await first.focus();
  assert.equal(await first.getAttribute("aria-selected"), "true");
  await page.keyboard.press("Tab");
  const second = page.locator(".tag[data-tag-id]").nth(1);
  assert.equal(await second.getAttribute("aria-selected"), "true", "Tab moves the selection to the next tag");
  assert.equal(await first.getAttribute("aria-selected"), "false");
  assert.equal(await page.locator('.tag[aria-selected="true"]').count(), 1);
  // The focus ring is visible on the focused tag.
  const outline = await second.evaluate((el) => getComputedStyle(el).outlineStyle);
  assert.notEqual(outline, "none");

  // Arrows nudge; the properties panel is reachable and works by keyboard.
  await save(page, "PUT", () => page.keyboard.press("ArrowDown"));
  const nudged = (await tags(r.transactionId))[1];
  const x = page.locator("[data-tag-props]").getByLabel("X", { exact: true });
  await x.focus();
  await page.keyboard.press("Control+a");
  await page.keyboard.type("50");
  await save(page, "PUT", () => page.keyboard.press("Tab"));
  all = await tags(r.transactionId);
  assert.equal(all[1].x, 50);
  assert.deepEqual([all[1].y, all[1].width, all[1].height], [nudged.y, nudged.width, nudged.height], "only x changed");
  // Delete from the keyboard, then undo it.
  await savesDrawn(page);
  await page.locator(".tag[data-tag-id]").nth(1).focus();
  await save(page, "DELETE", () => page.keyboard.press("Delete"));
  assert.equal((await tags(r.transactionId)).length, 1);
  await save(page, "POST", () => page.keyboard.press("Control+z"));
  assert.equal((await tags(r.transactionId)).length, 2);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the demo room printed at start-up: real pages, tags for both demo participants", async () => {
  const { page, problems, ctx } = await openRoom(browser, srv.roomURL);
  const roomID = await page.locator("[data-room-id]").getAttribute("data-room-id");
  const { transactionId } = await srv.api("GET", `/api/v1/markup-rooms/${roomID}`);
  const before = await srv.transaction(transactionId);
  const [pat, robin] = before.participants;
  const docId = before.documents[0].id;
  await page.locator("[data-signer-picker] label", { hasText: "Pat Buyer" }).click();
  const first = pageEl(page, docId, 1);
  await Promise.all([
    page.waitForResponse(isTagSave("POST")),
    page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').dragTo(first, { targetPosition: { x: 90, y: 420 } }),
  ]);
  await page.locator("[data-signer-picker] label", { hasText: "Robin Seller" }).click();
  await clickPlace(page, "DATETEMPLATE", docId, 1, { x: 420, y: 420 });
  await savesDrawn(page);
  let t = (await srv.transaction(transactionId)).documents[0].tags;
  assert.deepEqual(t.map((x) => x.signerId), [pat.id, robin.id], "one tag for each participant");
  await eventually(async () => {
    assert.equal(await page.locator(`.tag.signer-c0`).count(), 1);
    assert.equal(await page.locator(`.tag.signer-c1`).count(), 1);
  });
  // Move Pat's signature 60 px right, widen it by 60 px, then delete Robin's date.
  const scale = await page.evaluate(() => window.markupRoomViewer.scale);
  const placed = t[0];
  const sig = page.locator(".tag.signer-c0");
  const b = await sig.boundingBox();
  await page.keyboard.down("Alt"); // exact amounts: Alt turns snapping off (multiselect.test.mjs tests the snap)
  await page.mouse.move(b.x + 20, b.y + 10);
  await page.mouse.down();
  await Promise.all([page.waitForResponse(isTagSave("PUT")), (async () => {
    await page.mouse.move(b.x + 80, b.y + 50, { steps: 5 });
    await page.mouse.up();
  })()]);
  // The save's answer is swapped in and selected again (its handles back) a moment after the response.
  await savesDrawn(page);
  await sig.locator(".tag__handle--e").waitFor();
  const h = await sig.locator(".tag__handle--e").boundingBox();
  await page.mouse.move(h.x + 4, h.y + 4);
  await page.mouse.down();
  await Promise.all([page.waitForResponse(isTagSave("PUT")), (async () => {
    await page.mouse.move(h.x + 64, h.y + 4, { steps: 5 });
    await page.mouse.up();
  })()]);
  await page.keyboard.up("Alt");
  await savesDrawn(page);
  await page.locator(".tag.signer-c1").focus();
  await save(page, "DELETE", () => page.keyboard.press("Delete"));
  t = (await srv.transaction(transactionId)).documents[0].tags;
  assert.equal(t.length, 1);
  assert.ok(Math.abs(t[0].x - (placed.x + 60 / scale)) < 1 && Math.abs(t[0].width - (placed.width + 60 / scale)) < 1, `moved and widened: ${JSON.stringify(t[0])}`);
  await eventually(async () => assert.equal(await page.locator("[data-tag-count-signer]").first().textContent(), "1 tag"));
  await page.screenshot({ path: join(artifacts, "editor-demo-room.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("without documents.edit the tools are absent and a forged request is refused", async () => {
  const r = await srv.room([mixed], { documents: { edit: false } });
  const { page, problems, ctx } = await openRoom(browser, r.url);
  for (const sel of ["[data-palette]", "[data-tag-props]", "[data-signer-picker]", ".viewer[data-editable]"]) {
    assert.equal(await page.locator(sel).count(), 0, `${sel} is absent`);
  }
  assert.equal(await page.locator("[data-tag-type]").count(), 0, "no palette items");
  const status = await page.evaluate(async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const body = new URLSearchParams({ documentPosition: "0", type: "SIGNATURETEMPLATE", page: "1", x: "10", y: "10", width: "50", height: "20" });
    const res = await fetch(location.pathname + "/tags", { method: "POST", headers: { "X-CSRF-Token": csrf, "HX-Request": "true" }, body });
    return res.status;
  });
  assert.equal(status, 403);
  assert.equal((await tags(r.transactionId)).length, 0);
  await page.screenshot({ path: join(artifacts, "editor-readonly.png") });
  // The only console line is the browser's report of the forged request's 403.
  assert.deepEqual(problems.filter((p) => !p.includes("status of 403")), []);
  await ctx.close();
});

test("a 50-page PDF paints its first page fast and never renders every page; budgets", async () => {
  const long = await srv.upload(longPDF(50), "Fifty pages");
  const r = await srv.room([long]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  const firstPaint = await page.evaluate(() => performance.getEntriesByName("markuproom:first-page")[0].startTime);
  // Once the viewer has drawn all it wants (nothing queued): only the pages in view and their neighbours.
  await viewerIdle(page);
  const early = await page.locator(".viewer-page--rendered").count();
  assert.ok(early <= 4, `${early} pages rendered up front`);
  await page.locator(".room-thumb--drawn").first().waitFor();
  const thumbs = await page.locator(".room-thumb--drawn").count();
  assert.ok(thumbs < 25, `${thumbs} thumbnails drawn up front: only those in view`);
  // Scroll through the whole document.
  for (let n = 5; n <= 50; n += 5) {
    await page.getByLabel("Jump to page", { exact: true }).fill(String(n));
    await page.getByLabel("Jump to page", { exact: true }).press("Enter");
    await page.locator(`.viewer-page[data-page="${n}"].viewer-page--rendered`).waitFor();
  }
  const late = await page.locator(".viewer-page--rendered").count();
  assert.ok(late < 20, `${late} canvases held after scrolling 50 pages`);
  assert.equal(await page.locator(".viewer-page").count(), 50);
  await page.screenshot({ path: join(artifacts, "editor-50-pages.png") });

  // 50 saves, one request each: the p95 of the round trip.
  await setZoom(page, "1");
  const id = await clickPlace(page, "SIGNATURETEMPLATE", long.id, 50, { x: 40, y: 40 });
  await page.locator(`.tag[data-tag-id="${id}"]`).focus();
  let requests = 0;
  page.on("request", (req) => req.url().includes("/tags") && requests++);
  const times = [];
  for (let i = 0; i < 50; i++) {
    const before = requests;
    const t0 = performance.now();
    await Promise.all([page.waitForResponse(isTagSave("PUT")), page.keyboard.press(i % 2 ? "ArrowLeft" : "ArrowRight")]);
    times.push(performance.now() - t0);
    assert.equal(requests - before, 1, "one save, one request");
  }
  times.sort((a, b) => a - b);
  const p95 = times[Math.ceil(0.95 * times.length) - 1];

  const own = ["static/js/editor.js", "static/js/app.js", "static/css/app.css", "static/css/editor.css"];
  const gz = own.reduce((sum, f) => sum + gzipSync(readFileSync(join(repo, f)), { level: 9 }).length, 0);
  console.log(`BUDGET first page painted (50-page PDF): ${firstPaint.toFixed(0)} ms (aim < 1000)`);
  console.log(`BUDGET tag save round trip p95 over 50 saves: ${p95.toFixed(1)} ms (median ${times[24].toFixed(1)} ms; aim < 50)`);
  console.log(`BUDGET own JS+CSS gzipped: ${(gz / 1024).toFixed(1)} KB (${own.join(", ")}; limit 60)`);
  assert.ok(gz < 60 * 1024, `own JS+CSS is ${gz} bytes gzipped`);
  assert.deepEqual(problems, []);
  await ctx.close();
});
