// Room uploads and the session checklist on three browser engines (issue 26,
// "Markup Room editor V", items 1 and 2's checklist), run once per engine
// through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-uploads.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// A PDF with text tags uploaded inside the room reads as it does through the
// API and a new room: its tags drawn where the API lists them, its malformed
// text tag shown, its suggested field offered, and one undo step removing
// what was placed (redo puts it back). The checklist warns, without
// blocking, about a document with no tags and undecided suggested fields,
// with a link to each.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF, textTagsPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean, clickable } from "./lib/room.mjs";

const T = { timeout: 240000 };
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

/** The tags of a transaction's document, signers named by their place among the participants. */
async function signedTags(txID, pos) {
  const tx = await srv.transaction(txID);
  const ids = tx.participants.map((p) => p.id);
  return {
    doc: tx.documents[pos],
    tags: (tx.documents[pos]?.tags || []).map((t) => ({ type: t.type, page: t.page, x: t.x, y: t.y, width: t.width, height: t.height, signer: ids.indexOf(t.signerId) })),
  };
}

/** Chooses a file in the room's upload control, as a user's pick does (the input's files, then change). */
async function chooseFile(page, name, pdf) {
  await page.eval(
    ({ name, data }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: "application/pdf" }));
      const input = document.querySelector("[data-upload-input]");
      input.files = dt.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    },
    { name, data: pdf.toString("base64") },
  );
}

/** The tags drawn on a document's pages: {id, type, page, x, y, width, height, shown}. */
function drawnTags(page, docId) {
  return page.eval((docId) => [...document.querySelectorAll(`.viewer-page[data-document-id="${docId}"] .tag[data-tag-id]`)].map((el) => ({
    id: el.dataset.tagId, type: el.dataset.tagType, page: Number(el.closest(".viewer-page").dataset.page),
    x: Number(el.dataset.x), y: Number(el.dataset.y), width: Number(el.dataset.w), height: Number(el.dataset.h),
    shown: el.getBoundingClientRect().width > 0,
  })), docId);
}

const near = (a, b) => Math.abs(a - b) < 0.01;
const sameRect = (a, b) => a.type === b.type && a.page === b.page && near(a.x, b.x) && near(a.y, b.y) && near(a.width, b.width) && near(a.height, b.height);
const settled = (page) => page.waitFor(() => !document.querySelector(".tag--pending") && !window.markupRoomHistory.busy && document.querySelector("[data-save-status]").dataset.kind !== "busy");

test("a PDF uploaded in the room gets its tags placed, its problem shown, its suggestion offered; one undo removes them, redo restores (issue 26, item 1)", T, async () => {
  const pdf = textTagsPDF();
  // Through the API and a new room: the baseline.
  const viaAPI = await srv.upload(pdf, "Addendum");
  const detected = await srv.api("GET", `/api/v1/documents/${viaAPI.id}/detected-tags`);
  const apiRoom = await srv.room([viaAPI]);
  const want = (await signedTags(apiRoom.transactionId, 0)).tags;
  assert.equal(want.length, 3, `${engine}: the API's room has the PDF's 3 tags`);
  assert.equal(detected.problems.length, 1, `${engine}: and the API lists 1 problem`);
  const labels = detected.tags.filter((t) => t.source === "label");
  assert.equal(labels.length, 1, `${engine}: and 1 suggested field`);

  // The same file chosen in the room's upload control.
  const r = await srv.room([mixed]);
  const page = await openRoom(r.url);
  await page.eval(() => (window.markupRoomViewer.stale = true));
  const req = await page.request("POST", /\/documents$/, () => chooseFile(page, "Addendum.pdf", pdf));
  assert.equal(req.status, 200, req.body);
  await page.waitFor(() => window.markupRoomViewer && !window.markupRoomViewer.stale && document.querySelectorAll(".viewer-doc").length === 2, null, { message: `${engine}: the room with the new document` });
  const after = await signedTags(r.transactionId, 1);
  assert.deepEqual(after.tags, want, `${engine}: the room upload placed what the API's room has, for the same signers`);
  const docId = after.doc.id;

  // Drawn where the API lists them, and in the field list.
  const drawn = await page.waitFor((docId) => {
    const els = document.querySelectorAll(`.viewer-page[data-document-id="${docId}"] .tag[data-tag-id]`);
    return els.length === 3 && els.length;
  }, docId, { message: `${engine}: 3 tags drawn on the new document` });
  assert.equal(drawn, 3);
  let tags = await drawnTags(page, docId);
  for (const t of want) assert.ok(tags.some((d) => sameRect(d, t)), `${engine}: ${t.type} at ${t.x},${t.y} is drawn`);
  const first = tags[0];
  await page.eval((id) => {
    // The viewer's own scroll (scrollIntoView would scroll the document root too, in Chromium and WebKit).
    const el = document.querySelector(`.tag[data-tag-id="${id}"]`);
    const box = document.querySelector("[data-viewer]");
    box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 2;
  }, first.id);
  const at = await page.eval(async ({ id, docId }) => {
    const el = document.querySelector(`.tag[data-tag-id="${id}"]`);
    const pageEl = el.closest(".viewer-page");
    const v = window.markupRoomViewer;
    const view = v.pages.find((p) => p.el === pageEl);
    const pdfPage = await (await view.doc.load()).getPage(view.number);
    const vp = pdfPage.getViewport({ scale: view.scale });
    const d = el.dataset;
    const a = vp.convertToViewportPoint(Number(d.x), Number(d.y));
    const b = vp.convertToViewportPoint(Number(d.x) + Number(d.w), Number(d.y) + Number(d.h));
    const er = el.getBoundingClientRect();
    const pr = pageEl.getBoundingClientRect();
    return { left: er.left - pr.left, top: er.top - pr.top, wantLeft: Math.min(a[0], b[0]), wantTop: Math.min(a[1], b[1]), scale: view.scale, docId };
  }, { id: first.id, docId });
  assert.ok(Math.abs(at.left - at.wantLeft) <= at.scale && Math.abs(at.top - at.wantTop) <= at.scale, `${engine}: drawn at ${at.left},${at.top}, pdf.js puts it at ${at.wantLeft},${at.wantTop}`);

  // The malformed text tag is shown with its page and text; the status says what was placed.
  const shown = await page.eval(() => [...document.querySelectorAll("[data-upload-problems] [data-upload-problem]")].map((li) => ({ page: li.dataset.page, text: li.textContent.replace(/\s+/g, " ").trim() })));
  assert.equal(shown.length, 1, `${engine}: one problem shown`);
  assert.match(shown[0].text, /Page 1/, `${engine}: with its page`);
  assert.ok(shown[0].text.includes(detected.problems[0].text), `${engine}: with the tag as written (${shown[0].text})`);
  assert.match(await page.eval(() => document.querySelector("[data-upload-problems]").textContent), /Addendum.*1 text tag could not be read/s);
  assert.match(await page.eval(() => document.querySelector("[data-save-status]").textContent), /Placed 3 tags from Addendum; 1 text tag could not be read/);

  // The suggested field is offered on the new document.
  const offered = await page.waitFor((docId) => {
    const els = [...document.querySelectorAll(`.viewer-page[data-document-id="${docId}"] .suggestion[data-placed]:not([hidden])`)];
    return els.length > 0 && els.map((el) => ({ type: el.dataset.suggestionType, x: Number(el.dataset.x), y: Number(el.dataset.y) }));
  }, docId, { message: `${engine}: the suggested field drawn` });
  assert.equal(offered.length, 1);
  assert.ok(offered[0].type === labels[0].type && Math.abs(offered[0].x - labels[0].x) < 0.05 && Math.abs(offered[0].y - labels[0].y) < 0.05, `${engine}: where the API has it`);
  await page.eval(() => {
    // The sidebar's own scroll, not scrollIntoView (which, in Chromium, also scrolls the document root).
    const bar = document.querySelector("#room-sidebar");
    const note = document.querySelector("[data-upload-problems]");
    bar.scrollTop += note.getBoundingClientRect().top - bar.getBoundingClientRect().top - 8;
  });
  await page.waitForSelector(`.viewer-page[data-document-id="${docId}"].viewer-page--rendered`);
  await page.screenshot("engines-uploads-placed");

  // One undo step: one batch request removes the three; redo puts them back.
  const labelsNow = await page.eval(() => window.markupRoomHistory.labels());
  assert.equal(labelsNow.at(-1), "Place 3 tags from Addendum", `${engine}: the history's step`);
  const batches = async () => (await page.fetches()).filter((f) => f.method === "POST" && /\/tags\/batch$/.test(f.path)).length;
  const n0 = await batches();
  await page.click('[data-action="undo"]');
  await page.waitFor((docId) => document.querySelectorAll(`.viewer-page[data-document-id="${docId}"] .tag[data-tag-id]`).length === 0, docId, { message: `${engine}: undo removed the placed tags` });
  await settled(page);
  assert.equal((await batches()) - n0, 1, `${engine}: in one request`);
  assert.equal((await signedTags(r.transactionId, 1)).tags.length, 0, `${engine}: and the server has none`);
  assert.equal((await signedTags(r.transactionId, 0)).tags.length, 0, `${engine}: the other document untouched`);
  await page.click('[data-action="redo"]');
  await page.waitFor((docId) => document.querySelectorAll(`.viewer-page[data-document-id="${docId}"] .tag[data-tag-id]`).length === 3, docId, { message: `${engine}: redo drew them again` }).catch(async (err) => {
    const why = await page.eval(() => ({ status: document.querySelector("[data-save-status]").textContent, redo: window.markupRoomHistory.redoSize, undo: window.markupRoomHistory.size, busy: window.markupRoomHistory.busy, disabled: document.querySelector('[data-action="redo"]').disabled, problems: window.__e2e.problems, fetches: window.__e2e.fetches, root: document.scrollingElement.scrollTop }));
    throw new Error(`${err.message}: ${JSON.stringify(why)}`);
  });
  await settled(page);
  assert.equal((await batches()) - n0, 2, `${engine}: redo is one request too`);
  assert.deepEqual((await signedTags(r.transactionId, 1)).tags, want, `${engine}: redo stored the same tags for the same signers`);
  tags = await drawnTags(page, docId);
  for (const t of want) assert.ok(tags.some((d) => sameRect(d, t) && d.shown), `${engine}: ${t.type} drawn again`);
  // And undo once more, after the redo, still takes them all.
  await page.click('[data-action="undo"]');
  await page.waitFor((docId) => document.querySelectorAll(`.viewer-page[data-document-id="${docId}"] .tag[data-tag-id]`).length === 0, docId, { message: `${engine}: a second undo` });
  await settled(page);
  assert.equal((await signedTags(r.transactionId, 1)).tags.length, 0, `${engine}: the server has none again`);
  await assertClean(page);
  await page.close();
});

test("the session checklist warns, without blocking, about a document with no tags and undecided suggested fields, with a link to each (issue 26)", T, async () => {
  // The addendum's text tags give both participants a tag; "Mixed pages" has none; the addendum's "Initials: ____" is undecided.
  const tagged = await srv.upload(textTagsPDF(), "Addendum");
  const r = await srv.room([tagged, mixed]);
  const tx = await srv.transaction(r.transactionId);
  assert.equal(tx.documents[0].tags.length, 3, `${engine}: the addendum's tags placed`);
  assert.equal(tx.documents[1].tags.length, 0, `${engine}: the mixed document has none`);

  // A phone's 390 px where the engine's window goes that narrow (WebKitGTK's MiniBrowser stops at 447 px); a
  // portrait tablet's drawer (the documents and the field list outside the columns) everywhere.
  const sizes = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }, { width: 768, height: 1024 }];
  if (engine !== "webkit") sizes.push({ width: 390, height: 844 });
  for (const size of sizes) {
    const page = await openRoom(r.url, size);
    // The dialog keeps the last checklist until the new one is swapped in: wait for this opening's answer
    // to be drawn, not for the old list, or a link scrolled into view is replaced under the footer.
    const openChecklist = async () => {
      await page.request("GET", /\/checklist$/, () => page.click("[data-control='create-session']"));
      await page.waitForSelector("#session-dialog [data-checklist][data-ready]", { visible: true });
    };
    await openChecklist();
    const c = await page.eval(() => {
      const d = document.querySelector("#session-dialog");
      const item = (sel) => {
        const el = d.querySelector(sel);
        return el && { warning: el.hasAttribute("data-warning"), ok: el.hasAttribute("data-ok"), text: el.textContent.replace(/\s+/g, " ").trim(), links: [...el.querySelectorAll("a")].map((a) => ({ href: a.getAttribute("href"), text: a.textContent.trim() })) };
      };
      return {
        intro: d.querySelector("[data-checklist] > p").textContent,
        untagged: item('[data-finding="document_untagged"]'),
        undecided: item('[data-check="suggestions-decided"]'),
        todo: d.querySelectorAll(".checklist__item--todo").length,
        disabled: d.querySelector("[data-control='confirm-create-session']").disabled,
      };
    });
    assert.doesNotMatch(c.intro, /Everything is ready/, `${engine}: not "Everything is ready" with warnings`);
    assert.match(c.intro, /Ready, but check \d+ warnings below first \(they do not block\)/, `${engine}: the intro says there are warnings`);
    assert.ok(c.untagged?.warning && !c.untagged.ok, `${engine}: the untagged document is a warning`);
    assert.match(c.untagged.text, /“Mixed pages” has no tags/, `${engine}: naming the document`);
    assert.deepEqual(c.untagged.links, [{ href: "#doc-1-page-1", text: "Go to “Mixed pages”" }], `${engine}: with a link to it`);
    assert.ok(c.undecided?.warning, `${engine}: undecided suggested fields are a warning`);
    assert.match(c.undecided.text, /1 suggested field not accepted or dismissed\./, `${engine}: counted`);
    assert.deepEqual(c.undecided.links, [{ href: "#room-suggestions", text: "Open the suggested fields" }], `${engine}: with a link to the list`);
    assert.equal(c.todo, 0, `${engine}: nothing blocks`);
    assert.equal(c.disabled, false, `${engine}: the session can be created`);
    await page.screenshot(`engines-uploads-checklist-warnings-${size.width}`);

    // The document's link closes the dialog and shows the document's first page.
    // Scrolled into the dialog's view (at 768 px high the list runs on under the dialog's footer, as a
    // user scrolls it), and still: the click lands on the link.
    await page.eval((sel) => document.querySelector(sel).scrollIntoView({ block: "center" }), '#session-dialog a[href="#doc-1-page-1"]');
    await clickable(page, '#session-dialog a[href="#doc-1-page-1"]');
    await page.click('#session-dialog a[href="#doc-1-page-1"]');
    await page.waitForSelector("#session-dialog", { hidden: true });
    await page.waitFor(() => {
      const v = document.querySelector("[data-viewer]").getBoundingClientRect();
      const p = document.querySelector("#doc-1-page-1").getBoundingClientRect();
      return p.top < v.bottom && p.bottom > v.top;
    }, null, { message: `${engine} ${size.width}: the mixed document's first page in view` });
    assert.equal(await page.eval(() => document.scrollingElement.scrollTop), 0, `${engine} ${size.width}: the document root did not scroll (the header stays)`);

    // The suggestions' link closes the dialog and shows the list (in its sheet on a phone).
    await openChecklist();
    // Scrolled into the dialog's view (at 768 px high the list runs on under the dialog's footer, as a
    // user scrolls it), and still: the click lands on the link.
    await page.eval((sel) => document.querySelector(sel).scrollIntoView({ block: "center" }), '#session-dialog a[href="#room-suggestions"]');
    await clickable(page, '#session-dialog a[href="#room-suggestions"]');
    await page.click('#session-dialog a[href="#room-suggestions"]');
    await page.waitForSelector("#session-dialog", { hidden: true });
    await page.waitFor(() => {
      const el = document.querySelector("#room-suggestions");
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + Math.min(20, r.width / 2), r.top + Math.min(10, r.height / 2));
      return !el.hidden && r.height > 0 && r.top >= 0 && r.top < innerHeight && !!hit && el.contains(hit);
    }, null, { message: `${engine} ${size.width}: the suggested fields list in view` }).catch(async (err) => {
      const why = await page.eval(() => {
        const el = document.querySelector("#room-suggestions");
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + Math.min(20, r.width / 2), r.top + Math.min(10, r.height / 2));
        return { hidden: el.hidden, top: r.top, height: r.height, inner: innerHeight, root: document.scrollingElement.scrollTop, hit: hit?.outerHTML.slice(0, 100) };
      });
      await page.screenshot("failed-suggestions-link");
      throw new Error(`${err.message}: ${JSON.stringify(why)}`);
    });
    assert.equal(await page.eval(() => document.scrollingElement.scrollTop), 0, `${engine} ${size.width}: the document root did not scroll`);
    await page.screenshot(`engines-uploads-checklist-suggestions-${size.width}`);
    await assertClean(page);
    await page.close();
  }
});
