// Browser tests of page edits in the Markup Room (issue "Markup Room editor
// II"): delete and move pages by the buttons, the thumbnail context menu (by
// mouse and by keyboard) and by dragging thumbnails; tags follow their pages
// (checked through the API), the new PDF version has the right page count,
// and the editor keeps working on the room swapped in after each edit.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, artifacts, answerConfirm } from "./lib/server.mjs";
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
async function roomWithMarkedPages(config) {
  const r = await srv.room([doc], config);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = [1, 2, 3, 4, 5].map((page) => ({
    type: "SIGNATURETEMPLATE", x: 50 * page, y: 100, width: 100, height: 30, page,
    signerId: tx.participants[0].id, customData: {},
  }));
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  return r;
}

/** The order of the original pages, read from where their tags are now. */
async function pageOrder(txID) {
  const d = (await srv.transaction(txID)).documents[0];
  const order = new Array(d.pages).fill(0);
  for (const t of d.tags) order[t.page - 1] = t.x / 50;
  return { order, pages: d.pages, id: d.id };
}

/** Counts the pages of the PDF the room serves for its first document, read by pdf.js. */
function pdfPages(page) {
  return page.evaluate(async () => {
    const pdfjs = await import(document.querySelector("[data-viewer]").dataset.pdfjs);
    const pdf = await pdfjs.getDocument({ url: document.querySelector(".viewer-doc").dataset.contentUrl, isEvalSupported: false }).promise;
    const n = pdf.numPages;
    await pdf.destroy();
    return n;
  });
}

/** Runs an edit and waits until the editor has started again on the room swapped in. */
async function edit(page, action) {
  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  const [res] = await Promise.all([page.waitForResponse((r) => /\/pages\/\d+\/(delete|move)$/.test(r.url())), action()]);
  assert.equal(res.status(), 200, await res.text());
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
}

test("delete and move pages by buttons, context menu and drag; tags follow", async () => {
  const r = await roomWithMarkedPages();
  const { ctx, page, problems } = await openRoom(browser, r.url);
  const thumb = (n) => page.locator(`.room-thumb[data-page="${n}"]`);

  // Delete page 2 with its button; the question names its tag.
  const asked = answerConfirm(page);
  await edit(page, () => thumb(2).getByRole("button", { name: "Delete page 2" }).click());
  const question = await asked;
  assert.match(question, /Delete page 2 of “\u2068Mixed pages\u2069” and its 1 tag\?/);
  let o = await pageOrder(r.transactionId);
  assert.deepEqual(o.order, [1, 3, 4, 5]);
  assert.equal(await pdfPages(page), 4, "the new PDF version has 4 pages");
  assert.equal(await page.locator(".room-thumb").count(), 4);
  assert.equal(await page.locator(`.viewer-page[data-document-id="${o.id}"]`).count(), 4, "the viewer shows the new version");

  // Move page 1 down with its button.
  await edit(page, () => thumb(1).getByRole("button", { name: "Move page 1 down" }).click());
  o = await pageOrder(r.transactionId);
  assert.deepEqual(o.order, [3, 1, 4, 5]);

  // Context menu by mouse: right-click page 3, "Move page up".
  await thumb(3).click({ button: "right" });
  const menu = page.locator("[data-control='thumbnail-context-menu']");
  await menu.waitFor();
  await page.screenshot({ path: join(artifacts, "pages-context-menu.png") });
  await edit(page, () => menu.getByRole("menuitem", { name: "Move page up" }).click());
  assert.deepEqual((await pageOrder(r.transactionId)).order, [3, 4, 1, 5]);

  // Context menu by keyboard: Shift+F10 on page 4's thumbnail, then Move page up (first item) by Enter.
  await thumb(4).locator(".room-thumb__link").focus();
  await page.keyboard.press("Shift+F10");
  await menu.getByRole("menuitem", { name: "Move page up" }).waitFor({ state: "visible" });
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Move page up");
  await edit(page, () => page.keyboard.press("Enter"));
  assert.deepEqual((await pageOrder(r.transactionId)).order, [3, 4, 5, 1]);
  // The context-menu key works too; Escape closes the menu without acting.
  await thumb(1).locator(".room-thumb__link").focus();
  await page.keyboard.press("ContextMenu");
  await menu.waitFor({ state: "visible" });
  assert.ok(await menu.getByRole("menuitem", { name: "Move page up" }).isDisabled(), "the first page cannot move up");
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "hidden" });

  // Drag page 4's thumbnail onto page 1's.
  await edit(page, () => thumb(4).dragTo(thumb(1)));
  assert.deepEqual((await pageOrder(r.transactionId)).order, [1, 3, 4, 5]);

  // The editor still works on the swapped-in room: place a tag on page 1.
  await page.locator('[data-palette] [data-tag-type="DATETEMPLATE"]').click();
  o = await pageOrder(r.transactionId);
  const [res] = await Promise.all([
    page.waitForResponse((x) => x.url().endsWith("/tags") && x.request().method() === "POST"),
    page.locator(`.viewer-page[data-document-id="${o.id}"][data-page="1"]`).click({ position: { x: 300, y: 300 } }),
  ]);
  assert.equal(res.status(), 201);
  assert.equal((await srv.transaction(r.transactionId)).documents[0].tags.length, 5);
  await page.screenshot({ path: join(artifacts, "pages-after-edits.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("without documents.advancedEdit the page buttons and menu are absent and a forged edit is refused", async () => {
  const r = await roomWithMarkedPages({ documents: { advancedEdit: false } });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(r.url);
  await page.locator(".room-thumb").first().waitFor();
  assert.equal(await page.locator("[data-control='page-actions']").count(), 0);
  assert.equal(await page.locator("[data-control='thumbnail-context-menu']").count(), 0);
  assert.equal(await page.locator(".room-thumb[draggable='true']").count(), 0);
  const status = await page.evaluate(async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const res = await fetch(location.pathname + "/documents/0/pages/1/delete", { method: "POST", headers: { "X-CSRF-Token": csrf, "HX-Request": "true" } });
    return res.status;
  });
  assert.equal(status, 403);
  assert.equal((await pageOrder(r.transactionId)).pages, 5);
  await ctx.close();
});

test("the documents panel uploads PDFs with clear refusals, and removes a document after asking", async () => {
  const r = await roomWithMarkedPages();
  const { ctx, page, problems } = await openRoom(browser, r.url);
  const input = page.locator("[data-upload-input]");
  const error = page.locator("[data-upload-error]");
  let sent = 0;
  page.on("request", (q) => q.method() === "POST" && q.url().endsWith("/documents") && sent++);

  // Refused before sending: not a PDF, or over the limit.
  await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await error.waitFor();
  assert.match(await error.textContent(), /is not a PDF/);
  await input.setInputFiles({ name: "huge.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(1536 * 1024, 0x20) });
  assert.match(await error.textContent(), /1\.5 MB; the limit is 1 MB/);
  assert.equal(sent, 0, "nothing was sent");
  // Refused by the server: a file named .pdf that is not one.
  const [bad] = await Promise.all([
    page.waitForResponse((x) => x.url().endsWith("/documents") && x.request().method() === "POST"),
    input.setInputFiles({ name: "fake.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html>not a pdf</html>") }),
  ]);
  assert.equal(bad.status(), 422);
  await page.waitForFunction(() => /not a PDF document/.test(document.querySelector("[data-upload-error]").textContent));
  await page.screenshot({ path: join(artifacts, "documents-upload-refused.png") });

  // A real PDF: uploaded, shown, and the editor starts again on it.
  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  const [ok] = await Promise.all([
    page.waitForResponse((x) => x.url().endsWith("/documents") && x.request().method() === "POST"),
    input.setInputFiles({ name: "addendum.pdf", mimeType: "application/pdf", buffer: mixedPDF() }),
  ]);
  assert.equal(ok.status(), 200);
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
  let tx = await srv.transaction(r.transactionId);
  assert.equal(tx.documents.length, 2);
  assert.equal(tx.documents[1].title, "addendum");
  assert.equal(await page.locator(".room-doc").count(), 2);
  assert.equal(await page.locator(`.viewer-page[data-document-id="${tx.documents[1].id}"]`).count(), 5);

  // Remove the first document: the question names its tags.
  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  const [, question] = await Promise.all([
    page.waitForResponse((x) => x.url().endsWith("/remove")),
    answerConfirm(page),
    page.getByRole("button", { name: "Remove Mixed pages" }).click(),
  ]);
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
  assert.match(question, /Remove “Mixed pages” and its 5 tags/);
  tx = await srv.transaction(r.transactionId);
  assert.equal(tx.documents.length, 1);
  assert.equal(tx.documents[0].title, "addendum");
  assert.equal(await page.locator(".room-doc").count(), 1);
  assert.deepEqual(problems.filter((p) => !p.includes("status of 422")), []);
  await ctx.close();
});

test("with a signing order, participants reorder by buttons and by dragging; order follows", async () => {
  const r = await srv.room([doc]);
  const tx = await srv.transaction(r.transactionId);
  tx.signingOrder = true;
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  const { ctx, page, problems } = await openRoom(browser, r.url);
  const names = async () => (await srv.transaction(r.transactionId)).participants.map((p) => `${p.order} ${p.firstName}`);
  assert.deepEqual(await names(), ["1 Pat", "2 Robin"]);

  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  await Promise.all([
    page.waitForResponse((x) => x.url().endsWith("/move")),
    page.getByRole("button", { name: "Move Robin Seller earlier in the signing order" }).click(),
  ]);
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
  assert.deepEqual(await names(), ["1 Robin", "2 Pat"]);
  assert.equal(await page.locator(".room-participant").first().locator(".room-participant__order").textContent(), "1");

  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  await Promise.all([
    page.waitForResponse((x) => x.url().endsWith("/move")),
    page.locator(".room-participant", { hasText: "Pat Buyer" }).dragTo(page.locator(".room-participant", { hasText: "Robin Seller" })),
  ]);
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
  assert.deepEqual(await names(), ["1 Pat", "2 Robin"]);
  assert.deepEqual(problems, []);
  await ctx.close();
});
