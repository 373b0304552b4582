// Templates in the Markup Room on three browser engines (issue 28, items 4
// and 8), run once per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-templates.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// "Save as template…" saves the demo room's tags as a template; a room made
// from the API with that templateId draws the template's tags where the
// template has them; "Apply template…" places a template's tags with a role
// mapping, and one undo removes them all; a document that resembles a
// template offers it ([data-template-offer]): accepted, its tags are placed
// as one undo step; dismissed, it stays hidden in the tab.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF, rentalFormPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean, clickable } from "./lib/room.mjs";

const T = { timeout: 240000 };
// WebKit's window (MiniBrowser) is no narrower than about 450 px: its phone is 460 px wide, as in engines-polish.
const PHONE = engine === "webkit" ? { width: 460, height: 844 } : { width: 390, height: 844 };
let srv, browser, mixed;

before(async () => {
  srv = await startServer();
  browser = await launch();
  mixed = await srv.upload(mixedPDF(), "Mixed pages");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
const { openRoom } = pages;
afterEach(pages.closeAll);

/** Every tag drawn in the room: {id, doc (position), type, page, x, y, width, height}. */
function drawnTags(page) {
  return page.eval(() => [...document.querySelectorAll(".viewer-page .tag[data-tag-id]")].map((el) => ({
    id: el.dataset.tagId, doc: Number(el.closest(".viewer-doc").dataset.docPosition), type: el.dataset.tagType,
    page: Number(el.closest(".viewer-page").dataset.page), x: Number(el.dataset.x), y: Number(el.dataset.y),
    width: Number(el.dataset.w), height: Number(el.dataset.h),
  })));
}

const near = (a, b) => Math.abs(a - b) < 0.01;
const sameRect = (a, b) => a.type === b.type && a.page === b.page && near(a.x, b.x) && near(a.y, b.y) && near(a.width, b.width) && near(a.height, b.height);

/** Runs action and resolves with the fetch it sent (method, path pattern) once answered. */
async function fetched(page, method, path, action) {
  const before = (await page.fetches()).length;
  await action();
  return page.waitFor(
    ({ method, source, before }) => window.__e2e.fetches.slice(before).find((f) => f.method === method && new RegExp(source).test(f.path) && f.status),
    { method, source: path.source, before },
    { message: `${engine}: ${method} ${path}` },
  );
}

/** Places tags in the open room through its batch route (as the editor does), then opens the room again. */
async function placeTags(page, tags) {
  const status = await page.eval(async (tags) => {
    const root = document.querySelector("[data-viewer]");
    const res = await fetch(`${root.dataset.tagUrl}/batch`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]').content },
      body: JSON.stringify({ create: tags }),
    });
    return res.status;
  }, tags);
  assert.equal(status, 200, `${engine}: tags placed`);
  await page.goto(await page.eval(() => location.href));
  await page.waitForSelector(".viewer-page--rendered");
}

/** Opens a dialog by its control and waits until it is shown. */
async function openDialog(page, control, dialog) {
  await page.reveal(control);
  await page.click(control);
  await page.waitFor((sel) => document.querySelector(sel)?.open, dialog, { message: `${engine}: ${dialog} open` });
}

test("Save as template… saves the demo room's tags; a room from the API with its templateId draws them in place", T, async () => {
  const page = await openRoom(srv.roomURL, { width: 1280, height: 900 });
  await placeTags(page, [
    { documentPosition: 0, type: "SIGNATURETEMPLATE", page: 1, x: 72, y: 100, width: 144, height: 36 },
    { documentPosition: 0, type: "DATETEMPLATE", page: 1, x: 300.25, y: 100.5, width: 120, height: 20, dateFormat: "MM/DD/YYYY" },
  ]);
  const drawn = await page.waitFor(() => document.querySelectorAll(".viewer-page .tag[data-tag-id]").length);
  const tagsBefore = await drawnTags(page);
  const name = `Demo layout ${engine}`;
  await openDialog(page, "[data-template-save]", "[data-template-save-dialog]");
  await page.screenshot("roomtpl-save-1280");
  await page.fill("#template-save-name", name);
  const req = await fetched(page, "POST", /\/templates$/, () => page.click("[data-template-save-dialog] [type=submit]"));
  assert.equal(req.status, 201, `${engine}: the save was accepted`);
  await page.waitFor(() => !document.querySelector("[data-template-save-dialog]").open, null, { message: `${engine}: the dialog closes` });
  await page.waitFor(() => /Saved template/.test(document.querySelector("[data-save-status]").textContent), null, { message: `${engine}: saying so` });

  const { items } = await srv.api("GET", `/api/v1/templates?q=${encodeURIComponent(name)}`);
  assert.equal(items.length, 1, `${engine}: the template is listed`);
  const tmpl = await srv.api("GET", `/api/v1/templates/${items[0].id}`);
  assert.equal(tmpl.tags.length, drawn, `${engine}: the template holds every tag of the room`);
  await assertClean(page);
  await page.close(); // WebKit drives one page at a time

  // A room from the API with the template: its documents, with the tags where the template has them.
  const room = await srv.api("POST", "/api/v1/markup-rooms", {
    senderId: srv.senderId,
    templateId: tmpl.id,
    participants: [
      { firstName: "Pat", lastName: "Buyer", email: "pat@example.com" },
      { firstName: "Robin", lastName: "Seller", email: "robin@example.com" },
    ],
  });
  const fresh = await openRoom(room.url, { width: 1280, height: 900 });
  await fresh.waitFor((n) => document.querySelectorAll(".viewer-page .tag[data-tag-id]").length === n, tmpl.tags.length, { message: `${engine}: the template's tags drawn` });
  const placed = await drawnTags(fresh);
  for (const t of tmpl.tags) {
    assert.ok(placed.some((d) => d.doc === t.document && sameRect(d, t)), `${engine}: ${t.type} at ${t.x},${t.y} on page ${t.page} is drawn`);
  }
  assert.equal(placed.length, tagsBefore.length, `${engine}: as many tags as the demo room`);
  await assertClean(fresh);
});

test("Apply template… places a template's tags with a role mapping; one undo removes them, redo puts them back", T, async () => {
  const tmpl = await srv.api("POST", "/api/v1/templates", {
    name: `Mixed form ${engine}`,
    documents: [{ document: mixed.location }],
    roles: [{ name: "Buyer" }, { name: "Seller" }],
    tags: [
      { type: "SIGNATURETEMPLATE", x: 72, y: 100, width: 144, height: 36, page: 1, document: 0, role: "Buyer", customData: {} },
      { type: "DATETEMPLATE", x: 300, y: 100, width: 120, height: 20, page: 2, document: 0, role: "Seller", customData: {} },
      { type: "FULLNAMETEMPLATE", x: 72, y: 200, width: 144, height: 20, page: 3, document: 0, customData: {} },
    ],
  });
  const r = await srv.room([mixed], { documents: { detectTags: false } });
  const page = await openRoom(r.url, { width: 1280, height: 900 });
  const tx = await srv.transaction(r.transactionId);
  const [pat, robin] = tx.participants.map((p) => p.id);

  await openDialog(page, "[data-template-apply]", "[data-template-apply-dialog]");
  await page.fill("[data-template-search]", `Mixed form ${engine}`);
  // The search's answer, not the opening's list of every template (replaced under the click when it comes).
  await page.waitFor((id) => {
    const labels = document.querySelectorAll("[data-template-list] label");
    return labels.length === 1 && labels[0].dataset.templateId === id;
  }, tmpl.id, { message: `${engine}: the template found` });
  await page.click(`[data-template-list] label[data-template-id="${tmpl.id}"]`);
  await page.waitFor(() => document.querySelectorAll("[data-template-role-fields] select").length === 2, null, { message: `${engine}: a choice per role` });
  const prefilled = await page.eval(() => [...document.querySelectorAll("[data-template-role-fields] select")].map((s) => s.value));
  assert.deepEqual(prefilled, [pat, robin], `${engine}: roles prefilled by order`);
  assert.match(await page.eval(() => document.querySelector("[data-template-summary]").textContent), /^3 tags will be placed/, `${engine}: how many tags`);
  // Robin is the Buyer; nobody is the Seller yet.
  await page.select("#template-apply-role-0", robin);
  await page.select("#template-apply-role-1", "");
  await page.screenshot("roomtpl-apply-1280");
  const req = await fetched(page, "POST", /\/templates\/apply$/, () => page.click("[data-template-apply-submit]"));
  assert.equal(req.status, 201, `${engine}: applied`);
  await page.waitFor(() => document.querySelectorAll(".viewer-page .tag[data-tag-id]").length === 3, null, { message: `${engine}: 3 tags drawn` });

  let doc = (await srv.transaction(r.transactionId)).documents[0];
  const signers = Object.fromEntries(doc.tags.map((t) => [t.type, t.signerId]));
  assert.deepEqual(signers, { SIGNATURETEMPLATE: robin, DATETEMPLATE: "", FULLNAMETEMPLATE: "" }, `${engine}: the mapping`);
  const drawn = await drawnTags(page);
  for (const t of tmpl.tags) assert.ok(drawn.some((d) => sameRect(d, t)), `${engine}: ${t.type} drawn in place`);

  // One undo step removes the three; redo places them again.
  await page.waitFor(() => !document.querySelector('[data-action="undo"]').disabled, null, { message: `${engine}: undo offered` });
  await page.click('[data-action="undo"]');
  await page.waitFor(() => document.querySelectorAll(".viewer-page .tag[data-tag-id]").length === 0, null, { message: `${engine}: undo removes them` });
  doc = (await srv.transaction(r.transactionId)).documents[0];
  assert.equal(doc.tags.length, 0, `${engine}: and the server has none`);
  await page.click('[data-action="redo"]');
  await page.waitFor(() => document.querySelectorAll(".viewer-page .tag[data-tag-id]").length === 3, null, { message: `${engine}: redo places them again` });
  doc = (await srv.transaction(r.transactionId)).documents[0];
  assert.equal(doc.tags.length, 3, `${engine}: on the server too`);
  await assertClean(page);
});

test("the template dialogs at phone width (390 px; WebKit 460 px): in the documents sheet, on screen, Escape closes them", T, async () => {
  await srv.api("POST", "/api/v1/templates", {
    name: `Phone ${engine}`,
    documents: [{ document: mixed.location }],
    roles: [{ name: "Buyer" }],
    tags: [{ type: "SIGNATURETEMPLATE", x: 72, y: 100, width: 144, height: 36, page: 1, document: 0, role: "Buyer", customData: {} }],
  });
  const page = await openRoom(srv.roomURL, PHONE);
  await page.click('[data-sheet-open="documents"]');
  await page.eval(() => document.querySelector("[data-template-save]").scrollIntoView({ block: "center" }));
  await clickable(page, "[data-template-save]", `${engine}: the documents sheet shows the template controls`);
  await openDialog(page, "[data-template-save]", "[data-template-save-dialog]");
  const fits = await page.eval(() => {
    const d = document.querySelector("[data-template-save-dialog]").getBoundingClientRect();
    return d.left >= 0 && d.right <= innerWidth + 0.5;
  });
  assert.ok(fits, `${engine}: the save dialog fits the screen`);
  await page.screenshot(`roomtpl-save-${PHONE.width}`);
  await page.press("Escape");
  await page.waitFor(() => !document.querySelector("[data-template-save-dialog]").open, null, { message: `${engine}: Escape closes it` });
  await openDialog(page, "[data-template-apply]", "[data-template-apply-dialog]");
  await page.waitFor(() => !!document.querySelector("[data-template-list] input"), null, { message: `${engine}: templates listed` });
  await page.click("[data-template-list] label");
  const applyFits = await page.eval(() => {
    const d = document.querySelector("[data-template-apply-dialog]").getBoundingClientRect();
    return d.left >= 0 && d.right <= innerWidth + 0.5;
  });
  assert.ok(applyFits, `${engine}: the apply dialog fits the screen`);
  await page.screenshot(`roomtpl-apply-${PHONE.width}`);
  await assertClean(page);
});

test("accept a template offer: a document that resembles a template offers it; one click places its tags, one undo removes them; dismiss hides it", T, async () => {
  const blank = await srv.upload(rentalFormPDF(Array(5).fill("__________")), "Blank rental application");
  const name = `Rental ${engine}`;
  const tmpl = await srv.api("POST", "/api/v1/templates", {
    name,
    documents: [{ document: blank.location }],
    roles: [{ name: "Applicant" }, { name: "Landlord" }],
    tags: [
      { type: "SIGNATURETEMPLATE", x: 72, y: 120, width: 144, height: 36, page: 1, document: 0, role: "Applicant", customData: {} },
      { type: "DATETEMPLATE", x: 320, y: 120, width: 120, height: 20, page: 1, document: 0, role: "Landlord", customData: {} },
    ],
  });
  const filled = await srv.upload(rentalFormPDF(["Jonathan A. Whitfield", "1428 Elm Street, Springfield", "$6,250", "Margaret Olsen", "March 3, 2026"]), "Whitfield application");
  const r = await srv.room([filled], { documents: { detectTags: false } });
  const tx = await srv.transaction(r.transactionId);
  const [pat, robin] = tx.participants.map((p) => p.id);

  const page = await openRoom(r.url, { width: 1280, height: 900 });
  await page.waitForSelector("[data-template-offer]");
  const words = await page.eval(() => document.querySelector("[data-template-offer-apply]").textContent);
  assert.ok(words.includes(`Apply template ‘${name}’`), `${engine}: the offer names the template (${words})`);
  const percent = Number(words.match(/\((\d+)\s%\smatch\)/)?.[1]);
  assert.ok(percent >= 90 && percent <= 100, `${engine}: the offer says the match (${words})`);
  await page.screenshot("offer-1280");

  // Accept: the template's tags, the roles prefilled by order as the dialog prefills them.
  const req = await fetched(page, "POST", /\/templates\/apply$/, () => page.click("[data-template-offer-apply]"));
  assert.equal(req.status, 201, `${engine}: applied`);
  await page.waitFor(() => document.querySelectorAll(".viewer-page .tag[data-tag-id]").length === 2, null, { message: `${engine}: 2 tags drawn` });
  let doc = (await srv.transaction(r.transactionId)).documents[0];
  assert.deepEqual(Object.fromEntries(doc.tags.map((t) => [t.type, t.signerId])), { SIGNATURETEMPLATE: pat, DATETEMPLATE: robin }, `${engine}: roles by order`);
  const drawn = await drawnTags(page);
  for (const t of tmpl.tags) assert.ok(drawn.some((d) => sameRect(d, t)), `${engine}: ${t.type} drawn in place`);
  assert.equal(await page.eval(() => document.querySelectorAll("[data-template-offer]").length), 0, `${engine}: a document carrying the template offers it no more`);

  // One undo step removes both.
  await page.waitFor(() => !document.querySelector('[data-action="undo"]').disabled, null, { message: `${engine}: undo offered` });
  await page.click('[data-action="undo"]');
  await page.waitFor(() => document.querySelectorAll(".viewer-page .tag[data-tag-id]").length === 0, null, { message: `${engine}: undo removes them` });
  doc = (await srv.transaction(r.transactionId)).documents[0];
  assert.equal(doc.tags.length, 0, `${engine}: and the server has none`);

  // Offered again once the room is drawn again; dismissed, it stays hidden in this tab.
  const here = await page.eval(() => location.href);
  await page.goto(here);
  await page.waitForSelector(".viewer-page--rendered");
  await page.waitForSelector("[data-template-offer]");
  await page.click("[data-template-offer-dismiss]");
  await page.waitFor(() => document.querySelector("[data-template-offer]").hidden, null, { message: `${engine}: dismiss hides it` });
  await page.goto(here);
  await page.waitForSelector(".viewer-page--rendered");
  assert.equal(await page.eval(() => document.querySelector("[data-template-offer]")?.hidden), true, `${engine}: still dismissed after a reload`);
  await assertClean(page);
  await page.close(); // WebKit drives one page at a time

  // At phone width, in the documents sheet, the dismissal forgotten (WebKit's adapter reuses its one
  // window, whose sessionStorage remembers it).
  const phone = await openRoom(r.url, PHONE);
  await phone.eval(() => sessionStorage.clear());
  await phone.goto(here);
  await phone.waitForSelector(".viewer-page--rendered");
  await phone.click('[data-sheet-open="documents"]');
  await phone.eval(() => document.querySelector("[data-template-offer]").scrollIntoView({ block: "center" }));
  await clickable(phone, "[data-template-offer-apply]", `${engine}: the documents sheet shows the offer`);
  const fits = await phone.eval(() => {
    const d = document.querySelector("[data-template-offer]").getBoundingClientRect();
    return d.left >= 0 && d.right <= innerWidth + 0.5;
  });
  assert.ok(fits, `${engine}: the offer fits the screen`);
  await phone.screenshot(`offer-${PHONE.width}`);
  await assertClean(phone);
});
