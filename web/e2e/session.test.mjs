// Browser test of "Create e-signature session" (issue "Markup Room editor II"):
// the checklist names what is missing with links to fix it, and once met the
// transaction goes out for signing and the room turns read-only with a summary.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, artifacts, answerConfirm, createSession } from "./lib/server.mjs";
import { openRoom } from "./lib/room.mjs";

let srv, browser, doc;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
  doc = await srv.upload(mixedPDF(), "Purchase agreement");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

test("the checklist guides to a complete room, then the session is created", async () => {
  const r = await srv.room([doc]);
  const { ctx, page, problems } = await openRoom(browser, r.url);

  const open = page.getByRole("button", { name: "Create e-signature session" });
  const dialog = page.locator("#session-dialog");
  await open.click();
  await dialog.locator("[data-checklist]").waitFor();
  const todo = dialog.locator('[data-finding="participant_signs_nothing"]');
  assert.ok(await dialog.locator("[data-checklist][data-blocked]").count(), "participants without tags are not ready");
  assert.deepEqual(await todo.locator(".checklist__problem").allTextContents(), ["Pat Buyer has nothing to sign: add a signature or initials for them.", "Robin Seller has nothing to sign: add a signature or initials for them."]);
  assert.ok(await dialog.getByRole("button", { name: "Create e-signature session" }).isDisabled());
  await page.screenshot({ path: join(artifacts, "session-checklist.png") });
  // The fix link closes the dialog and leads to the palette.
  await dialog.getByRole("link", { name: "Place tags" }).first().click();
  await dialog.waitFor({ state: "hidden" });

  // A tag for each participant.
  const place = async (who, type, pos) => {
    await page.locator("[data-signer-picker] label", { hasText: who }).click();
    await page.locator(`[data-palette] [data-tag-type="${type}"]`).click();
    await Promise.all([
      page.waitForResponse((res) => res.url().endsWith("/tags") && res.request().method() === "POST"),
      page.locator(`.viewer-page[data-document-id="${doc.id}"][data-page="1"]`).click({ position: pos }),
    ]);
  };
  await place("Pat Buyer", "SIGNATURETEMPLATE", { x: 60, y: 500 });
  await place("Robin Seller", "SIGNATURETEMPLATE", { x: 400, y: 500 });

  await open.click();
  await dialog.locator("[data-checklist][data-ready]").waitFor();
  assert.equal(await dialog.locator(".checklist__item--todo").count(), 0);
  assert.ok(await dialog.getByLabel("E-mail each participant an invitation").isChecked(), "invitations are offered, ticked");
  await createSession(page);
  await page.locator("[data-room-summary]").waitFor();
  assert.equal(await page.locator("[data-summary-transaction]").textContent(), r.transactionId);
  assert.equal(await page.locator("[data-palette]").count(), 0, "the room is read-only");
  assert.equal(await page.getByRole("button", { name: "Create e-signature session" }).count(), 0);
  await page.locator(".viewer-page--rendered").first().waitFor();
  await page.screenshot({ path: join(artifacts, "session-completed.png") });

  const room = await srv.api("GET", `/api/v1/markup-rooms/${r.id}`);
  assert.equal(room.status, "completed");
  assert.equal(room.transactionId, r.transactionId);
  const tx = await srv.transaction(r.transactionId);
  assert.equal(tx.status, "esign_pending");
  assert.equal(tx.documents[0].tags.length, 2);
  assert.equal(tx.notifyParticipants?.email, true);
  assert.match(await page.locator("[data-summary-invitations]").textContent(), /^Invitations (queued|held: no SMTP server configured)$/, "the outbox's state, never \"sent\" before it was");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a newcomer on the printed demo room: tags for two people on two documents, a page deleted, another moved, the session created", async () => {
  const { ctx, page, problems } = await openRoom(browser, srv.roomURL);
  const roomID = await page.locator("[data-room-id]").getAttribute("data-room-id");
  const { transactionId } = await srv.api("GET", `/api/v1/markup-rooms/${roomID}`);
  let tx = await srv.transaction(transactionId);
  assert.equal(tx.documents.length, 2, "the demo room has two documents");
  const [first, second] = tx.documents;

  const place = async (who, docId, n) => {
    await page.locator("[data-signer-picker] label", { hasText: who }).click();
    await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').click();
    await Promise.all([
      page.waitForResponse((res) => res.url().endsWith("/tags") && res.request().method() === "POST"),
      page.locator(`.viewer-page[data-document-id="${docId}"][data-page="${n}"]`).click({ position: { x: 80, y: 120 } }),
    ]);
  };
  await place("Pat Buyer", first.id, 1);
  await place("Robin Seller", second.id, 1);

  const restarted = async (action) => {
    await page.evaluate(() => (window.markupRoomViewer.stale = true));
    await Promise.all([page.waitForResponse((r) => /\/pages\/\d+\/(delete|move)$/.test(r.url())), action()]);
    await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
  };
  // Delete page 3 of the agreement; move page 2 of the disclosure to the front.
  const asked = answerConfirm(page);
  await restarted(() => page.locator('.room-doc[data-document="0"] .room-thumb[data-page="3"]').getByRole("button", { name: "Delete page 3" }).click());
  await asked;
  await restarted(() => page.locator('.room-doc[data-document="1"] .room-thumb[data-page="2"]').getByRole("button", { name: "Move page 2 up" }).click());

  await page.getByRole("button", { name: "Create e-signature session" }).click();
  const dialog = page.locator("#session-dialog");
  await createSession(page);
  await page.locator("[data-room-summary]").waitFor();

  tx = await srv.transaction(transactionId);
  assert.equal(tx.status, "esign_pending");
  assert.equal(tx.documents[0].pages, 2, "the agreement lost a page");
  assert.equal(tx.documents[1].tags[0].page, 2, "Robin's tag followed its page");
  assert.deepEqual(tx.documents.map((d) => d.tags[0].signerId), tx.participants.map((p) => p.id));
  assert.equal((await srv.api("GET", `/api/v1/markup-rooms/${roomID}`)).status, "completed");
  assert.deepEqual(problems, []);
  await ctx.close();
});
