// Browser test of the Markup Room page in real Chromium (Debian's package),
// driven by playwright-core: start the real server with demo data, open the
// printed Markup Room URL, add a participant through the dialog, rename the
// document, and check that the page logs no errors (CSP violations included).
//
// Run: make test-browser   (needs `npm ci` and /usr/lib/chromium/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, submitted, answerConfirm } from "./lib/server.mjs";

let srv, browser, roomURL, base;

before(async () => {
  srv = await startServer();
  ({ roomURL, base } = srv);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

test("the room opens, edits participants and titles, and logs no errors", async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(e.message));

  await page.goto(roomURL);
  assert.match(page.url(), /\/rooms\/[0-9a-f-]+$/, "the token leaves the address bar");
  await page.getByRole("heading", { level: 1, name: "Sample Purchase Agreement" }).waitFor();
  assert.equal(await page.locator(".room-participant").count(), 2);

  // Add a participant through the dialog (keyboard-reachable button, native form).
  await page.getByRole("button", { name: "Add Participant" }).click();
  const dialog = page.locator("dialog#participant-add");
  await dialog.waitFor({ state: "visible" });
  await dialog.getByLabel("First name", { exact: true }).fill("Casey");
  await dialog.getByLabel("Last name", { exact: true }).fill("Witness");
  await dialog.getByLabel("E-mail", { exact: true }).fill("not-an-email");
  await dialog.getByRole("button", { name: "Save participant" }).click();
  // The browser's own validation keeps the dialog open for a malformed e-mail.
  await dialog.waitFor({ state: "visible" });
  await dialog.getByLabel("E-mail", { exact: true }).fill("casey@example.com");
  await dialog.getByLabel("Authentication", { exact: true }).selectOption("two-factor-authentication");
  await dialog.getByLabel("Knowledge-based authentication (KBA)").check();
  await submitted(page, () => dialog.getByRole("button", { name: "Save participant" }).click());
  await page.locator(".room-participant", { hasText: "Casey Witness" }).waitFor();
  assert.equal(await page.locator(".room-participant").count(), 3);
  assert.ok(await page.getByText("Knowledge-based authentication", { exact: true }).isVisible());

  // Edit through the participant's dropdown.
  const casey = page.locator(".room-participant", { hasText: "Casey Witness" });
  await casey.locator("summary").click();
  await casey.getByRole("button", { name: "Edit" }).click();
  const edit = page.locator("dialog[open]");
  await edit.getByLabel("Last name", { exact: true }).fill("Notary");
  await submitted(page, () => edit.getByRole("button", { name: "Save participant" }).click());
  await page.locator(".room-participant", { hasText: "Casey Notary" }).waitFor();

  // Rename the document.
  const firstDoc = page.locator('.room-doc[data-document="0"]');
  await firstDoc.locator(".room-doc__rename summary").click();
  await firstDoc.locator(".room-doc__rename-form input[name=title]").fill("Signed Purchase Agreement");
  await submitted(page, () => firstDoc.getByRole("button", { name: "Save title" }).click());
  await page.getByRole("heading", { level: 1, name: "Signed Purchase Agreement" }).waitFor();

  // Remove, confirming in the room's dialog.
  const again = page.locator(".room-participant", { hasText: "Casey Notary" });
  await again.locator("summary").click();
  await submitted(page, () => Promise.all([answerConfirm(page), again.getByRole("button", { name: "Remove" }).click()]));
  await page.locator(".room-participant", { hasText: "Casey Notary" }).waitFor({ state: "detached" });
  assert.equal(await page.locator(".room-participant").count(), 2);

  assert.deepEqual(problems, [], "the page logged errors or warnings");
});

test("another browser without the link's session is refused", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const res = await page.goto(base + "/rooms/00000000-0000-0000-0000-000000000000");
  assert.equal(res.status(), 403);
  await context.close();
});
