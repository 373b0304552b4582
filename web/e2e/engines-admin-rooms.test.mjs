// "New Markup Room" in the admin console on three browser engines (issue 29,
// item 6), run once per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-admin-rooms.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// An admin signs in, opens the form from the Markup Rooms page, chooses the
// organization (the sender, recent uploads and templates follow it), picks
// the sender and a recent upload, uploads a PDF, names two participants and
// turns a flag off; the room's URL is shown once with a copy button, and
// opened, the room loads with both participants and both documents. The
// form is axe-clean and drawn at 1280 and 1024 px.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertNoProblems } from "./lib/room.mjs";
import { signIn as signInAs, axeViolations as audit } from "./lib/admin.mjs";

const T = { timeout: 240000 };
let srv, browser;

before(async () => {
  srv = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

/** Waits until the page is at path (after a navigation), then reinstalls the test hooks. */
async function arrived(page, path) {
  await page.waitFor((path) => location.pathname === path && document.readyState === "complete", path, { message: `${engine}: at ${path}` });
  await page.hooks();
}

/** Signs in to the console as the demo admin. */
const signIn = (page) => signInAs(page, srv);

/** Opens the form from the rooms page and chooses the demo organization. */
async function openForm(page) {
  await page.goto(srv.base + "/admin/rooms");
  await page.click("[data-new-room]");
  await arrived(page, "/admin/rooms/new");
  const org = await page.eval(() => document.querySelector("#new-room-org option[value]:not([value=''])").value);
  await page.select("#new-room-org", org);
  await page.waitForSelector("[data-new-room-form]", { message: `${engine}: the form follows the organization` });
  return org;
}

/** Chooses a file in the form's upload input, as a user's pick does. */
function chooseFile(page, name, pdf) {
  return page.eval(
    ({ name, data }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: "application/pdf" }));
      const input = document.querySelector("#new-room-files");
      input.files = dt.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    },
    { name, data: pdf.toString("base64") },
  );
}

test(`${engine}: New Markup Room: the form, the URL once, the room with its participants`, T, async () => {
  const page = await pages.newPage({ width: 1280, height: 1800 });
  await signIn(page);
  await openForm(page);
  const offered = await page.eval(() => ({
    senders: [...document.querySelectorAll("#new-room-sender option")].map((o) => o.value).filter(Boolean),
    recent: [...document.querySelectorAll("[data-recent-document]")].map((el) => el.value),
    flags: [...document.querySelectorAll("[data-room-flag]")].filter((el) => el.checked).length,
  }));
  assert.ok(offered.senders.includes(srv.senderId), `${engine}: the demo sender is offered`);
  assert.ok(offered.recent.length >= 1, `${engine}: the demo uploads are offered`);
  assert.equal(offered.flags, 13, `${engine}: every flag starts on`);

  await page.select("#new-room-sender", srv.senderId);
  await page.click(`[data-recent-document="${offered.recent[0]}"]`);
  await chooseFile(page, "Mixed pages.pdf", mixedPDF());
  await page.fill("#new-room-first-0", "Pat");
  await page.fill("#new-room-last-0", "Buyer");
  await page.fill("#new-room-email-0", "pat@example.com");
  await page.fill("#new-room-first-1", "Robin");
  await page.fill("#new-room-last-1", "Seller");
  await page.fill("#new-room-email-1", "robin@example.com");
  await page.click('[data-room-flag="documents.advancedEdit"]');
  assert.deepEqual(await audit(page, "the form"), []);
  await page.screenshot("admin-new-room-1280");

  await page.eval(() => document.querySelector("[data-new-room-form]").requestSubmit(document.querySelector("[data-create-room]")));
  await page.waitFor(() => /^\/admin\/rooms\/[^/]+\/created$/.test(location.pathname) && document.readyState === "complete", undefined, { message: `${engine}: the created page` });
  await page.hooks();
  const shown = await page.eval(() => ({
    url: document.querySelector("[data-new-room-url]")?.textContent.trim(),
    copy: document.querySelector('[data-copy="#new-room-url"]')?.textContent.trim(),
    expires: document.querySelector("[data-room-expires]")?.getAttribute("datetime"),
    transaction: document.querySelector("[data-room-transaction]")?.getAttribute("href"),
  }));
  assert.match(shown.url || "", /\/markup-room\/mrr/, `${engine}: the room's URL is shown`);
  assert.equal(shown.copy, "Copy");
  assert.ok(Date.parse(shown.expires) > Date.now(), `${engine}: its expiry`);
  assert.match(shown.transaction || "", /^\/admin\/transactions\//);
  assert.deepEqual(await audit(page, "the created page"), []);
  await page.screenshot("admin-new-room-created-1280");
  await assertNoProblems(page);

  // Shown once: a reload no longer has it.
  await page.goto(await page.eval(() => location.href));
  assert.equal(await page.eval(() => !!document.querySelector("[data-new-room-url]") || !document.querySelector("[data-room-url-gone]")), false, `${engine}: the URL is shown once`);

  // The URL opens the room, with both participants and both documents (WebKit drives one page at a time).
  await page.close();
  const room = await pages.newPage({ width: 1280, height: 900 });
  await room.goto(shown.url);
  await room.waitForSelector(".viewer-page--rendered");
  const seen = await room.eval(() => ({ text: document.body.textContent, docs: document.querySelectorAll(".viewer-doc").length }));
  assert.ok(seen.text.includes("Pat Buyer") && seen.text.includes("Robin Seller"), `${engine}: the room shows its participants`);
  assert.equal(seen.docs, 2, `${engine}: the picked and the uploaded document`);
  assert.equal(await room.eval(() => !!document.querySelector('[data-control="page-actions"], [data-control="thumbnail-context-menu"]')), false, `${engine}: advanced editing is off`);
  await assertNoProblems(room);
});

test(`${engine}: New Markup Room at 1024 px, and a refusal beside its field`, T, async () => {
  const page = await pages.newPage({ width: 1024, height: 1800 });
  await signIn(page);
  await openForm(page);
  await page.screenshot("admin-new-room-1024");
  const wide = await page.eval(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(wide <= 0, `${engine}: the form fits 1024 px (${wide} px too wide)`);

  // A bad e-mail: refused, the values kept, the problem beside its row.
  await page.select("#new-room-sender", srv.senderId);
  await page.fill("#new-room-first-0", "Pat");
  await page.fill("#new-room-last-0", "Buyer");
  await page.fill("#new-room-email-0", "pat@example");
  await page.eval(() => {
    document.querySelector("#new-room-email-0").type = "text"; // past the browser's own check, to the server's
    document.querySelector("[data-new-room-form]").requestSubmit(document.querySelector("[data-create-room]"));
  });
  await page.waitForSelector("#new-room-error-0", { message: `${engine}: the row's problem` });
  await page.hooks();
  const kept = await page.eval(() => ({ first: document.querySelector("#new-room-first-0").value, email: document.querySelector("#new-room-email-0").value,
    described: document.querySelector("#new-room-email-0").getAttribute("aria-describedby") }));
  assert.deepEqual(kept, { first: "Pat", email: "pat@example", described: "new-room-error-0" });
  assert.deepEqual(await audit(page, "the refused form"), []);
  await page.screenshot("admin-new-room-refused-1024");
});
