// Browser tests of the defects a new user met (issue "Markup Room editor
// III", item 1): page edits that raise no false alarm, a participant's
// removal that counts their tags as they are now, participant dialog errors
// tied to their fields, moves that keep a tag's size at any zoom, tags
// removed in another window, paste at the pointer, and the page context menu
// that follows the WAI-ARIA menu pattern.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, artifacts, answerConfirm, acceptConfirms } from "./lib/server.mjs";
import { openRoom, setZoom, viewerIdle, savesDrawn } from "./lib/room.mjs";
import { eventually } from "./lib/wait.mjs";

let srv, browser, mixed;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
  mixed = await srv.upload(mixedPDF(), "Mixed pages");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const isTagSave = (method) => (r) => r.url().includes("/tags") && r.request().method() === method;
const pageEl = (page, docId, n) => page.locator(`.viewer-page[data-document-id="${docId}"][data-page="${n}"]`);

/** Records every text the save status shows, across room swaps. */
async function recordStatus(page) {
  await page.evaluate(() => {
    window.statusSeen = [];
    const note = () => {
      const el = document.querySelector("[data-save-status]");
      const text = el?.textContent.trim() || "";
      if (text && window.statusSeen.at(-1) !== text) window.statusSeen.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** Runs a room edit and waits until the editor has started again on the room swapped in and drawn it. */
async function roomEdit(page, urlPattern, action) {
  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  const [res] = await Promise.all([page.waitForResponse((r) => urlPattern.test(r.url())), action()]);
  assert.equal(res.status(), 200, await res.text());
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
  await page.locator(".viewer-page--rendered").first().waitFor();
}

test("page moves and deletes that saved raise no false alarm and no pdf.js wording", async () => {
  const { page, problems, ctx } = await openRoom(browser, srv.roomURL);
  await recordStatus(page);
  const thumb = (n) => page.locator(`.room-doc[data-document="0"] .room-thumb[data-page="${n}"]`);
  acceptConfirms(page);
  const ops = [
    () => thumb(1).getByRole("button", { name: "Move page 1 down" }).click(),
    () => thumb(3).getByRole("button", { name: "Move page 3 up" }).click(),
    () => thumb(2).getByRole("button", { name: "Delete page 2" }).click(),
    () => thumb(2).getByRole("button", { name: "Move page 2 up" }).click(),
  ];
  for (const op of ops) {
    await roomEdit(page, /\/pages\/\d+\/(delete|move)$/, op);
    // Let the pages and thumbnails of the new room draw.
    await viewerIdle(page);
  }
  await page.mouse.wheel(0, 2000);
  await viewerIdle(page);
  const seen = await page.evaluate(() => window.statusSeen);
  assert.ok(!seen.some((s) => /Not saved/.test(s)), `the status said: ${JSON.stringify(seen)}`);
  assert.ok(!seen.some((s) => /PDFWorker|worker|could not be drawn|Exception/i.test(s)), `pdf.js wording: ${JSON.stringify(seen)}`);
  await eventually(async () => assert.equal(await page.locator("[data-save-status]").textContent().then((t) => t.trim()), "All changes saved"));
  assert.equal(await page.locator(".viewer-page__problem:not([hidden])").count(), 0, "no page reports a drawing problem");
  assert.deepEqual(problems, []);
  await ctx.close();
});

/** A room on the mixed PDF with the given tags (API fields; signer = the first participant). */
async function roomWithTags(tags) {
  const r = await srv.room([mixed]);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = tags.map((t) => ({ type: "SIGNATURETEMPLATE", signerId: tx.participants[0].id, customData: {}, ...t }));
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  const after = await srv.transaction(r.transactionId);
  return { ...r, tx: after };
}

/** Drags from the point (x, y) inside the locator's box by (dx, dy) pixels, Alt held (no snapping); waits until the save is drawn. */
async function dragBy(page, locator, x, y, dx, dy) {
  const b = await locator.boundingBox();
  await page.keyboard.down("Alt"); // exact amounts: Alt turns snapping off (multiselect.test.mjs tests the snap)
  await page.mouse.move(b.x + x, b.y + y);
  await page.mouse.down();
  const [res] = await Promise.all([page.waitForResponse(isTagSave("PUT")), (async () => {
    await page.mouse.move(b.x + x + dx / 2, b.y + y + dy / 2, { steps: 3 });
    await page.mouse.move(b.x + x + dx, b.y + y + dy, { steps: 3 });
    await page.mouse.up();
  })()]);
  await page.keyboard.up("Alt");
  assert.equal(res.status(), 200, await res.text());
  await savesDrawn(page);
}

test("a drag moves a tag without resizing it, and a resize keeps the edges not dragged, at non-integer zooms", async () => {
  const r = await roomWithTags([
    { x: 100.37, y: 500.11, width: 60, height: 30, page: 1 },
    { x: 100, y: 300, width: 60, height: 30, page: 5 },
  ]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  // One tag per page: the API's tags carry no id, the page tells them apart.
  const stored = async (n) => (await srv.transaction(r.transactionId)).documents[0].tags.find((t) => t.page === n);
  const tagOn = (n) => pageEl(page, mixed.id, n).locator(".tag");
  for (const zoom of ["fit", "1.25", "0.75"]) {
    await setZoom(page, zoom);
    const scale = await page.evaluate(() => window.markupRoomViewer.scale);
    for (const n of [1, 5]) {
      const tag = tagOn(n);
      await tag.scrollIntoViewIfNeeded();
      const before = await stored(n);
      await dragBy(page, tag, 10, 8, 37, 23);
      const moved = await stored(n);
      assert.equal(moved.width, 60, `zoom ${zoom} (${scale}), page ${n}: width ${moved.width}`);
      assert.equal(moved.height, 30, `zoom ${zoom} (${scale}), page ${n}: height ${moved.height}`);
      assert.ok(Math.abs(moved.x - before.x) + Math.abs(moved.y - before.y) > 10, `zoom ${zoom}: it moved ${JSON.stringify(moved)}`);
    }
    // Resize page 1's tag by its bottom-right handle: the left and top edges stay exactly.
    const tag = tagOn(1);
    await tag.scrollIntoViewIfNeeded();
    await tag.click();
    const before = await stored(1);
    const h = tag.locator(".tag__handle--se");
    const hb = await h.boundingBox();
    await dragBy(page, h, hb.width / 2, hb.height / 2, 13, 7);
    const resized = await stored(1);
    assert.equal(resized.x, before.x, `zoom ${zoom}: the left edge stays`);
    assert.equal(Math.round((resized.y + resized.height) * 100), Math.round((before.y + before.height) * 100), `zoom ${zoom}: the top edge stays`);
    assert.ok(resized.width > before.width && resized.height > before.height, `zoom ${zoom}: ${JSON.stringify(resized)}`);
    // And back to 60 × 30 through the panel for the next round.
    await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, await (async () => {
      const tx = await srv.transaction(r.transactionId);
      tx.documents[0].tags.forEach((x) => Object.assign(x, { width: 60, height: 30 }));
      return tx;
    })());
    await page.reload();
    await page.locator(".viewer-page--rendered").first().waitFor();
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the page context menu follows the WAI-ARIA menu pattern, opened by right-click or Shift+F10", async () => {
  const r = await srv.room([mixed]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  const thumb = page.locator('.room-thumb[data-page="2"]');
  const menu = page.locator("[data-control='thumbnail-context-menu']");
  const focused = () => page.evaluate(() => document.activeElement?.textContent.trim() || "");
  for (const how of ["right-click", "Shift+F10"]) {
    if (how === "right-click") {
      await thumb.click({ button: "right" });
    } else {
      await thumb.locator(".room-thumb__link").focus();
      await page.keyboard.press("Shift+F10");
    }
    await menu.waitFor({ state: "visible" });
    assert.equal(await focused(), "Move page up", `${how}: focus moves to the first item`);
    if (how === "right-click") await page.screenshot({ path: join(artifacts, "defects-context-menu.png") });
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), "Move page down", `${how}: ArrowDown`);
    await page.keyboard.press("End");
    assert.equal(await focused(), "Delete page", `${how}: End`);
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), "Move page up", `${how}: ArrowDown wraps`);
    await page.keyboard.press("ArrowUp");
    assert.equal(await focused(), "Delete page", `${how}: ArrowUp wraps`);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    assert.ok(
      await page.evaluate(() => document.activeElement === document.querySelector('.room-thumb[data-page="2"] .room-thumb__link')),
      `${how}: Escape gives focus back to the thumbnail`,
    );
  }
  assert.equal((await srv.transaction(r.transactionId)).documents[0].pages, 5, "nothing was done");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a tag removed in another window is dropped when edited here, with a plain word why", async () => {
  const r = await roomWithTags([
    { x: 100, y: 500, width: 60, height: 30, page: 1 },
    { x: 300, y: 500, width: 60, height: 30, page: 1 },
    { x: 100, y: 300, width: 60, height: 30, page: 1 },
  ]);
  // Two windows that do not follow the room (issue 41): their event stream is refused, as when it cannot get
  // through, so what each shows can be stale — and a save against a stale tag must still lose nothing.
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.route(/\/rooms\/[^/]+\/events/, (route) => route.abort());
  const a = await openRoom(browser, r.url, { context: ctx });
  const b = await openRoom(browser, r.url, { context: ctx });
  await recordStatus(b.page);
  const tagsIn = (page) => pageEl(page, mixed.id, 1).locator(".tag[data-tag-id]");
  const [first, second, third] = await tagsIn(a.page).evaluateAll((els) => els.map((el) => el.dataset.tagId));
  // Window B moves the third tag (an undo step there). Window A, which still shows it where it was, deletes it:
  // refused (409 tag_changed: B changed it since A read it), said in plain words, and A's room is read again,
  // showing the tag where B put it. Deleted again there, it goes; B's undo then finds it gone.
  await b.page.locator(`.tag[data-tag-id="${third}"]`).focus();
  await Promise.all([b.page.waitForResponse(isTagSave("PUT")), b.page.keyboard.press("ArrowDown")]);
  const movedY = await b.page.locator(`.tag[data-tag-id="${third}"]`).getAttribute("data-y");
  const staleY = await a.page.locator(`.tag[data-tag-id="${third}"]`).getAttribute("data-y");
  assert.notEqual(movedY, staleY);
  await a.page.locator(`.tag[data-tag-id="${third}"]`).focus();
  const [stale] = await Promise.all([a.page.waitForResponse(isTagSave("DELETE")), a.page.keyboard.press("Delete")]);
  assert.equal(stale.status(), 409);
  assert.equal((await stale.json()).errors[0].code, "tag_changed");
  await a.page.locator('[data-save-status][data-kind="error"]', { hasText: "Changed by someone else a moment ago." }).waitFor();
  await a.page.locator(`.tag[data-tag-id="${third}"][data-y="${movedY}"]`).waitFor();
  await a.page.screenshot({ path: join(artifacts, "issue41-conflict-message.png") });
  assert.equal((await srv.transaction(r.transactionId)).documents[0].tags.length, 3, "the stale delete removed nothing");
  await a.page.locator(`.tag[data-tag-id="${third}"]`).focus();
  const [gone] = await Promise.all([a.page.waitForResponse(isTagSave("DELETE")), a.page.keyboard.press("Delete")]);
  assert.equal(gone.status(), 200);
  const [undone] = await Promise.all([b.page.waitForResponse(isTagSave("PUT")), b.page.getByRole("button", { name: "Undo" }).click()]);
  assert.equal(undone.status(), 404);
  await b.page.locator(`.tag[data-tag-id="${third}"]`).waitFor({ state: "detached" });
  await b.page.locator("[data-save-status]", { hasText: "This tag was removed in another window." }).waitFor();
  // Window A deletes the other two.
  for (const id of [first, second]) {
    await a.page.locator(`.tag[data-tag-id="${id}"]`).focus();
    await Promise.all([a.page.waitForResponse(isTagSave("DELETE")), a.page.keyboard.press("Delete")]);
  }
  assert.equal((await srv.transaction(r.transactionId)).documents[0].tags.length, 0);
  // Window B still shows them: nudging the first one finds it gone.
  await b.page.locator(`.tag[data-tag-id="${first}"]`).focus();
  const [put] = await Promise.all([b.page.waitForResponse(isTagSave("PUT")), b.page.keyboard.press("ArrowRight")]);
  assert.equal(put.status(), 404);
  await b.page.locator(`.tag[data-tag-id="${first}"]`).waitFor({ state: "detached" });
  await b.page.locator("[data-save-status]", { hasText: "This tag was removed in another window." }).waitFor();
  // Deleting the second one there finds it gone too.
  await b.page.locator(`.tag[data-tag-id="${second}"]`).focus();
  const [del] = await Promise.all([b.page.waitForResponse(isTagSave("DELETE")), b.page.keyboard.press("Delete")]);
  assert.equal(del.status(), 404);
  await b.page.locator(`.tag[data-tag-id="${second}"]`).waitFor({ state: "detached" });
  assert.equal(await tagsIn(b.page).count(), 0);
  await b.page.locator("[data-tag-count-doc]", { hasText: "0 tags" }).waitFor(); // the counts follow
  const seen = await b.page.evaluate(() => window.statusSeen);
  assert.ok(!seen.some((s) => /Not saved/.test(s)), JSON.stringify(seen));
  assert.equal((await b.page.locator("[data-save-status]").textContent()).trim(), "This tag was removed in another window.");
  await b.page.screenshot({ path: join(artifacts, "defects-removed-elsewhere.png") });
  // The browser logs the refused requests (409 in A, 404 in B) and the refused streams; nothing else.
  const refusedStream = (p) => /\/events\)$/.test(p);
  assert.deepEqual(a.problems.filter((p) => !/status of 409/.test(p) && !refusedStream(p)), []);
  assert.deepEqual(b.problems.filter((p) => !/status of 404/.test(p) && !refusedStream(p)), []);
  await ctx.close();
});

test("Ctrl+V pastes at the pointer, else at the spot last clicked, kept inside the page", async () => {
  const r = await roomWithTags([{ x: 100, y: 600, width: 60, height: 30, page: 1 }]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  await setZoom(page, "1");
  const px = 96 / 72;
  const all = async () => (await srv.transaction(r.transactionId)).documents[0].tags;
  /** Where the newest tag on page n shows, in pixels from the page's top-left corner. */
  const newestAt = async (n) => {
    const tags = pageEl(page, mixed.id, n).locator(".tag[data-tag-id]");
    const b = await tags.last().boundingBox();
    const p = await pageEl(page, mixed.id, n).boundingBox();
    return { left: b.x - p.x, top: b.y - p.y };
  };
  const paste = async () => {
    await Promise.all([page.waitForResponse(isTagSave("POST")), page.keyboard.press("Control+v")]);
    await savesDrawn(page); // the copy is drawn (newestAt reads it)
  };
  await pageEl(page, mixed.id, 1).locator(".tag").click();
  await page.keyboard.press("Control+c");

  // Pointing at page 2 (not clicking): the copy's top-left corner lands at the pointer.
  const top = (loc) => loc.evaluate((el) => el.scrollIntoView({ block: "start" }));
  const p2 = pageEl(page, mixed.id, 2);
  await top(p2);
  let b = await p2.boundingBox();
  await page.mouse.move(b.x + 200, b.y + 150);
  await paste();
  // (The API's tags are not in the order they were made: find them by page.)
  let t = (await all()).find((x) => x.page === 2);
  assert.ok(t, "a copy on page 2");
  assert.deepEqual([t.width, t.height], [60, 30], "the copy keeps its size");
  let at = await newestAt(2);
  assert.ok(Math.abs(at.left - 200) <= px && Math.abs(at.top - 150) <= px, `pasted at ${JSON.stringify(at)}, pointed at 200,150`);

  // Clicked on page 3, then the pointer left the pages: the copy goes to the clicked spot.
  const p3 = pageEl(page, mixed.id, 3);
  await top(p3);
  await p3.click({ position: { x: 120, y: 90 } });
  await page.mouse.move(5, 300); // over the documents sidebar
  await paste();
  t = (await all()).find((x) => x.page === 3);
  assert.ok(t, "a copy on page 3");
  at = await newestAt(3);
  assert.ok(Math.abs(at.left - 120) <= px && Math.abs(at.top - 90) <= px, `pasted at ${JSON.stringify(at)}, clicked at 120,90`);

  // Pointing at the bottom-right corner of page 3 (all of it in view at fit width): the copy stays inside the page.
  await setZoom(page, "fit");
  await top(p3);
  b = await p3.boundingBox();
  await page.mouse.move(b.x + b.width - 3, b.y + b.height - 3);
  await paste();
  const onPage3 = (await all()).filter((x) => x.page === 3);
  assert.equal(onPage3.length, 2);
  t = onPage3.find((x) => x.x > 400);
  assert.ok(t, JSON.stringify(onPage3));
  assert.deepEqual([t.width, t.height], [60, 30]);
  assert.ok(t.x + t.width <= 792 + 0.01 && t.y >= 0 && t.x > 700 && t.y < 10, `kept inside: ${JSON.stringify(t)}`);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("removing a participant asks with their tag count as it is now and says the tags go too", async () => {
  const r = await srv.room([mixed]);
  const tx = await srv.transaction(r.transactionId);
  const robin = tx.participants[1];
  tx.documents[0].tags = [{ type: "SIGNATURETEMPLATE", x: 100, y: 600, width: 60, height: 30, page: 1, signerId: robin.id, customData: {} }];
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  // Two more tags for Robin in this page session.
  await page.locator("[data-signer-picker] label", { hasText: "Robin Seller" }).click();
  for (const y of [100, 200]) {
    await page.locator('[data-palette] [data-tag-type="DATETEMPLATE"]').click();
    await Promise.all([page.waitForResponse(isTagSave("POST")), pageEl(page, mixed.id, 1).click({ position: { x: 300, y } })]);
  }
  await page.locator(`[data-tag-count-signer="${robin.id}"]`, { hasText: "3 tags" }).waitFor();
  const row = page.locator(".room-participant", { hasText: "Robin Seller" });
  const ask = async (answer) => {
    const asked = answerConfirm(page, answer);
    await row.locator("summary").click();
    await row.getByRole("button", { name: "Remove" }).click();
    return asked;
  };
  // Declined: nothing changes.
  assert.equal(await ask(false), "Remove Robin Seller and their 3 tags?");
  assert.equal((await srv.transaction(r.transactionId)).participants.length, 2);
  // Accepted: Robin and the three tags are gone.
  await Promise.all([page.waitForURL(/\/rooms\/[^/]+$/), ask(true)]);
  await page.locator(".room-participant", { hasText: "Robin Seller" }).waitFor({ state: "detached" });
  const after = await srv.transaction(r.transactionId);
  assert.deepEqual(after.participants.map((p) => p.firstName), ["Pat"]);
  assert.equal(after.documents[0].tags.length, 0);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("participant dialog errors name and mark their fields, and the address bar stays the room's", async () => {
  const r = await srv.room([mixed]);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  const roomPath = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "Add Participant" }).click();
  let dialog = page.locator("dialog#participant-add");
  await dialog.waitFor({ state: "visible" });
  await dialog.getByLabel("First name", { exact: true }).fill("Casey");
  await dialog.getByLabel("Middle name", { exact: true }).fill("Q");
  await dialog.getByLabel("Last name", { exact: true }).fill("Witness");
  await dialog.getByLabel("E-mail", { exact: true }).fill("casey@example.com");
  await dialog.getByLabel("Authentication", { exact: true }).selectOption("personal-password");
  // Password question and password left empty.
  const [refused] = await Promise.all([
    page.waitForResponse((x) => x.url().endsWith("/participants") && x.request().method() === "POST"),
    dialog.getByRole("button", { name: "Save participant" }).click(),
  ]);
  assert.equal(refused.status(), 422);
  dialog = page.locator("dialog#participant-add[open]");
  await dialog.locator("[data-form-errors]").waitFor();
  assert.equal(new URL(page.url()).pathname, roomPath, "the address bar keeps the room's address");
  assert.doesNotMatch(await page.locator("[data-save-status]").textContent(), /Not saved/, "the dialog reports its own refusal");
  await page.screenshot({ path: join(artifacts, "defects-participant-errors.png") });

  // Every error names its field (a link to it) and marks it: aria-invalid, an outline, the message tied by aria-describedby.
  const invalid = dialog.locator('[aria-invalid="true"]');
  assert.ok((await invalid.count()) >= 1, "at least one field is marked");
  const items = await dialog.locator("[data-form-errors] li").allTextContents();
  assert.equal(items.length, await invalid.count(), `one listed error per marked field: ${JSON.stringify(items)}`);
  assert.ok(items.some((t) => /^Password: /.test(t.trim())), JSON.stringify(items));
  for (const el of await invalid.all()) {
    const info = await el.evaluate((input) => {
      const described = (input.getAttribute("aria-describedby") || "").split(" ").map((id) => document.getElementById(id)?.textContent.trim() || "");
      const link = input.closest("dialog").querySelector(`[data-form-errors] a[href="#${input.id}"]`);
      input.blur();
      const style = getComputedStyle(input);
      return { name: input.name, described, link: link?.textContent || "", outline: style.outlineStyle, width: style.outlineWidth, focused: document.activeElement === input };
    });
    assert.ok(info.described[0], `${info.name}: aria-describedby names its message`);
    assert.ok(items.some((t) => t.includes(info.described[0])), `${info.name}: the listed error is the message it is described by`);
    assert.ok(info.link, `${info.name}: the list links to the field`);
    assert.equal(info.outline, "solid", `${info.name}: a visible outline`);
  }
  assert.equal(await dialog.locator('input[name="personalPassword"]').getAttribute("aria-invalid"), "true");
  assert.match(await dialog.locator("#participant-add-personalPassword-error").textContent(), /password/i);

  // A reload, or the form's address typed in, shows the room (not 405).
  const res = await page.goto(new URL(page.url()).origin + roomPath + "/participants");
  assert.equal(res.status(), 200);
  assert.equal(new URL(page.url()).pathname, roomPath);
  await page.locator(".viewer-page--rendered").first().waitFor();

  // Corrected: saved, the dialog closes, the participant is listed, still at the room's address.
  await page.getByRole("button", { name: "Add Participant" }).click();
  dialog = page.locator("dialog#participant-add");
  await dialog.getByLabel("First name", { exact: true }).fill("Casey");
  await dialog.getByLabel("Last name", { exact: true }).fill("Witness");
  await dialog.getByLabel("E-mail", { exact: true }).fill("casey@example.com");
  await dialog.getByLabel("Authentication", { exact: true }).selectOption("personal-password");
  await dialog.getByLabel("Password question", { exact: true }).fill("First pet?");
  await dialog.getByLabel("Password", { exact: true }).fill("rex-the-dog");
  await dialog.getByRole("button", { name: "Save participant" }).click();
  await page.locator(".room-participant", { hasText: "Casey Witness" }).waitFor();
  await page.locator("dialog[open]").waitFor({ state: "detached" }).catch(() => {});
  assert.equal(await page.locator("dialog[open]").count(), 0);
  assert.equal(new URL(page.url()).pathname, roomPath);
  assert.equal((await srv.transaction(r.transactionId)).participants.length, 3);
  // The browser logs the refused request (422) itself; nothing else.
  assert.deepEqual(problems.filter((p) => !/status of 422/.test(p)), []);
  await ctx.close();
});

test("a drag carries a tag to another page of its document, or to another document, and undo brings it back", async () => {
  const other = await srv.upload(mixedPDF(), "Second copy");
  const r = await srv.room([mixed, other]);
  const tx = await srv.transaction(r.transactionId);
  const sig = { type: "SIGNATURETEMPLATE", y: 400, width: 60, height: 30, signerId: tx.participants[0].id, customData: {} };
  tx.documents[0].tags = [{ ...sig, x: 100, page: 1 }, { ...sig, x: 300, page: 5 }];
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  const { page, problems, ctx } = await openRoom(browser, r.url);
  await setZoom(page, "0.5");
  const docs = async () => (await srv.transaction(r.transactionId)).documents;
  const ids = [mixed.id, other.id];
  const pageOf = (d, n) => pageEl(page, ids[d], n);
  const tagsOn = (d, n) => pageOf(d, n).locator(".tag[data-tag-id]");
  const toTop = (d, n) => pageOf(d, n).evaluate((el) => el.scrollIntoView({ block: "start" }));
  /** Drags the tag on (d, n) by its top-left corner onto page (d2, n2) at pos; resolves once the given save is drawn. */
  const carry = async ([d, n], [d2, n2], pos, save) => {
    const from = await tagsOn(d, n).boundingBox();
    const b = await pageOf(d2, n2).boundingBox();
    await page.mouse.move(from.x + 5, from.y + 5);
    await page.mouse.down();
    await Promise.all([page.waitForResponse(isTagSave(save)), (async () => {
      await page.mouse.move(from.x + 30, from.y + 30, { steps: 3 });
      await page.mouse.move(b.x + pos.x + 5, b.y + pos.y + 5, { steps: 8 });
      await page.mouse.up();
    })()]);
    await savesDrawn(page);
  };

  // Page 1 → page 2 of the same document: one save, the same tag, its size kept, where it was dropped.
  await toTop(0, 1);
  await carry([0, 1], [0, 2], { x: 80, y: 60 }, "PUT");
  await tagsOn(0, 2).waitFor();
  assert.equal(await tagsOn(0, 1).count(), 0);
  let t = (await docs())[0].tags.find((x) => x.x !== 300);
  assert.equal(t.page, 2, JSON.stringify(t));
  assert.deepEqual([t.width, t.height], [60, 30]);
  const p2 = await pageOf(0, 2).boundingBox();
  const tb = await tagsOn(0, 2).boundingBox();
  assert.ok(Math.abs(tb.x - p2.x - 80) <= 1.5 && Math.abs(tb.y - p2.y - 60) <= 1.5, `dropped at ${tb.x - p2.x},${tb.y - p2.y}`);
  // Undo: back on page 1, where it was.
  await Promise.all([page.waitForResponse(isTagSave("PUT")), page.getByRole("button", { name: "Undo" }).click()]);
  await tagsOn(0, 1).waitFor();
  t = (await docs())[0].tags.find((x) => x.page !== 5);
  assert.deepEqual([t.page, t.x, t.y], [1, 100, 400]);

  // Page 5 of the first document → page 1 of the second: a new tag there, this one removed.
  await toTop(0, 5);
  await carry([0, 5], [1, 1], { x: 50, y: 70 }, "DELETE");
  await tagsOn(1, 1).waitFor();
  let d = await docs();
  assert.deepEqual([d[0].tags.length, d[1].tags.length], [1, 1]);
  assert.equal(d[1].tags[0].page, 1);
  assert.deepEqual([d[1].tags[0].width, d[1].tags[0].height], [60, 30]);
  assert.equal(await tagsOn(0, 5).count(), 0);
  await page.screenshot({ path: join(artifacts, "defects-carried-across-documents.png") });
  // One undo brings it back to the first document's page 5.
  await Promise.all([page.waitForResponse(isTagSave("DELETE")), page.getByRole("button", { name: "Undo" }).click()]);
  await tagsOn(0, 5).waitFor();
  d = await docs();
  assert.deepEqual([d[0].tags.length, d[1].tags.length], [2, 0]);
  assert.ok(d[0].tags.some((x) => x.page === 5 && x.x === 300));
  assert.deepEqual(problems, []);
  await ctx.close();
});
