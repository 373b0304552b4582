// The room that never jumps (issue "Markup Room editor V"), on three browser
// engines through web/e2e/lib/engine.mjs, like engines.test.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-viewer.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…` runs it too)
//
// - the document root never scrolls: after clicking every page thumbnail,
//   every field-list entry and every suggested field's entry, and after
//   keyboard navigation, at 1440×900, 1024×768 and 390×844, the root's
//   scrollTop stays 0, the room fills the window exactly, and the room's
//   header and the viewer's toolbar stay in it;
// - suggested fields are listed by document (two documents' "Signature,
//   page 1" told apart by a heading each and by their buttons' names);
// - after "Copy to pages" the originals stay selected and the status line
//   ("Copied 6 tags to 2 pages.") is whole at every width;
// - the signer picker stays in view when a tag is selected, and the picked
//   signer outlives a reload (sessionStorage, per room).
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean } from "./lib/room.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const T = { timeout: 600000 };
// WebKit's MiniBrowser window cannot be narrower than about 447 px (its own toolbar): there the
// phone layout (below 48rem) is checked at 450×844 instead of 390×844.
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
  { width: engine === "webkit" ? 450 : 390, height: 844 },
];
const corpus = (name) => readFileSync(join(repo, "models/pdf/testdata/corpus", `${name}.pdf`));
let srv, browser, loanA, loanB, tagged, mixed, agreement;

before(async () => {
  srv = await startServer();
  browser = await launch();
  loanA = await srv.upload(corpus("loan-borrowers"), "Loan A");
  loanB = await srv.upload(corpus("loan-borrowers"), "Loan B");
  tagged = await srv.upload(corpus("text-tags-helvetica"), "Tagged");
  mixed = await srv.upload(mixedPDF(), "Mixed pages");
  // A long title, as real ones are: the toolbar's document name then competes with the status for room.
  agreement = await srv.upload(mixedPDF(), "Residential purchase agreement with mixed page sizes");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
const { openRoom } = pages;
afterEach(pages.closeAll);

// Two animation frames and 30 ms: the time a scroll the click caused would take to show. The test proves the
// room does NOT move, so there is no event to wait for: this is a deliberate "nothing happens within" wait.
const frames = (page) => page.eval(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30)))));

/**
 * Asserts the room did not move: the root is not scrolled (and could not be: it is no taller than the
 * window), the room fills the window exactly, the header and the toolbar are inside the window.
 */
async function assertStill(page, size, what) {
  const m = await page.eval(() => {
    const se = document.scrollingElement;
    const box = (sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r ? { top: Math.round(r.top), bottom: Math.round(r.bottom) } : null;
    };
    return { top: se.scrollTop, y: window.scrollY, scrollHeight: se.scrollHeight, h: innerHeight, room: box(".room"), header: box(".room-header"), toolbar: box("[data-viewer-toolbar]") };
  });
  const where = `${engine} ${size.width}×${size.height}, ${what}`;
  assert.equal(m.top, 0, `${where}: the root scrolled by ${m.top} px`);
  assert.equal(m.y, 0, `${where}: the window scrolled by ${m.y} px`);
  assert.ok(m.scrollHeight <= m.h, `${where}: the document is ${m.scrollHeight} px tall in a ${m.h} px window`);
  assert.ok(Math.abs(m.room.bottom - m.h) <= 1, `${where}: the room ends at ${m.room.bottom}, the window at ${m.h} (a band below it)`);
  for (const part of ["header", "toolbar"]) {
    assert.ok(m[part].top >= 0 && m[part].bottom <= m.h, `${where}: the ${part} is at ${m[part].top}–${m[part].bottom}, out of the window`);
  }
}

/** On a phone the documents and fields are a sheet: opens it (nothing to do where they are a column). */
async function showSidebar(page, name) {
  const sheet = await page.eval(() => getComputedStyle(document.querySelector("#room-sidebar")).position === "fixed");
  if (!sheet) return;
  // A sheet that was just closed (a choice in it closes it) slides away first.
  const state = await page.waitFor((n) => {
    const open = document.querySelector("[data-room-layout]").dataset.openSheet;
    return open === n ? "open" : !open && getComputedStyle(document.querySelector("#room-sidebar")).visibility === "hidden" && "closed";
  }, name, { message: `${engine}: the sheets settled` });
  if (state === "closed") await page.click(`[data-room-dock] [data-sheet-open="${name}"]`);
  await page.waitFor(() => {
    const s = document.querySelector("#room-sidebar");
    return document.querySelector("[data-room-layout]").dataset.openSheet && getComputedStyle(s).transform === "none" && s.getBoundingClientRect().bottom <= innerHeight + 1;
  }, null, { message: `${engine}: the ${name} sheet open` });
}

/** Whether el's box and the viewer's scroll box overlap (it is shown in the pages). */
const inViewer = (page, sel) =>
  page.eval((sel) => {
    const el = document.querySelector(sel);
    const v = document.querySelector("[data-viewer]").getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.bottom > v.top && r.top < v.bottom && r.right > v.left && r.left < v.right;
  }, sel);

/**
 * What a long walk visits: every item on Chromium; on Firefox and WebKit,
 * whose runs take two and three times as long, a representative part — the
 * first, the last and every third between (docs/testing.md, "What runs where").
 */
const sample = (items) => (engine === "chromium" ? items : items.filter((_, i) => i === 0 || i === items.length - 1 || i % 3 === 0));

test("the root never scrolls: every thumbnail, field-list entry and suggestion entry clicked, and the keyboard, at 1440×900, 1024×768 and 390×844", T, async () => {
  const r = await srv.room([loanA, loanB, tagged, mixed]);
  for (const size of SIZES) {
    const page = await openRoom(r.url, size);
    await page.waitFor(() => document.querySelectorAll("[data-suggestion-item]").length > 0 && document.querySelectorAll("[data-field-tag]").length > 0, null, { message: `${engine}: suggestions and the field list` });
    await assertStill(page, size, "on opening");
    const counts = await page.eval(() => ({
      thumbs: document.querySelectorAll(".room-thumb__link").length,
      fields: [...document.querySelectorAll("[data-field-tag]")].map((b) => b.dataset.fieldTag),
      suggestions: [...document.querySelectorAll("[data-suggestion-item]")].map((li) => li.dataset.suggestionItem),
    }));
    assert.ok(counts.thumbs >= 4 && counts.fields.length >= 5 && counts.suggestions.length >= 10, `${engine}: ${JSON.stringify(counts)}`);

    // Every page thumbnail: the pages scroll to it, nothing else moves.
    for (const i of sample([...Array(counts.thumbs).keys()])) {
      await showSidebar(page, "documents");
      const target = await page.eval((i) => {
        document.querySelectorAll("[data-e2e-thumb]").forEach((x) => delete x.dataset.e2eThumb);
        const link = document.querySelectorAll(".room-thumb__link")[i];
        link.dataset.e2eThumb = "";
        return link.hash.slice(1);
      }, i);
      await page.click("[data-e2e-thumb]");
      await frames(page);
      await assertStill(page, size, `thumbnail ${target}`);
      assert.ok(await inViewer(page, `#${target}`), `${engine} ${size.width}: ${target} shown after its thumbnail`);
    }

    // Every field-list entry: the pages scroll to the tag, which takes the focus.
    for (const id of sample(counts.fields)) {
      await showSidebar(page, "fields");
      await page.click(`[data-field-tag="${id}"]`);
      await page.waitFor((id) => document.activeElement?.dataset.tagId === id, id, { message: `${engine}: tag ${id} focused from the field list` });
      await frames(page);
      await assertStill(page, size, `field-list entry ${id}`);
      assert.ok(await inViewer(page, `.tag[data-tag-id="${id}"]`), `${engine} ${size.width}: tag ${id} shown`);
    }

    // Every suggested field's entry: the pages scroll to it (it flashes).
    for (const id of sample(counts.suggestions)) {
      await showSidebar(page, "fields");
      await page.eval(() => document.querySelectorAll(".suggestion--flash").forEach((x) => x.classList.remove("suggestion--flash")));
      await page.click(`[data-suggestion-item="${id}"] [data-suggestion-show]`);
      await page.waitFor((id) => document.querySelector(`.suggestion[data-suggestion-id="${id}"]`)?.classList.contains("suggestion--flash"), id, { message: `${engine}: suggestion ${id} shown` });
      await frames(page);
      await assertStill(page, size, `suggestion entry ${id}`);
      assert.ok(await inViewer(page, `.suggestion[data-suggestion-id="${id}"]`), `${engine} ${size.width}: suggestion ${id} shown`);
    }

    // The keyboard: Tab from tag to tag (each focused one scrolled into view by the browser), the toolbar's page buttons.
    await page.focus(".tag[data-tag-id]");
    for (let i = 0; i < 8; i++) {
      await page.press("Tab");
      await frames(page);
      await assertStill(page, size, `Tab ${i + 1}`);
    }
    await page.press("Escape");
    for (let i = 0; i < 3; i++) {
      await page.click('[data-action="page-next"]');
      await frames(page);
      await assertStill(page, size, `next page ${i + 1}`);
    }
    await page.screenshot(`engines-viewer-still-${size.width}`);
    await assertClean(page);
    await page.close();
  }
});

test("suggested fields are listed by document: two documents' “Signature, page 1” told apart", T, async () => {
  const r = await srv.room([loanA, loanB]);
  const page = await openRoom(r.url, SIZES[0]);
  await page.waitFor(() => document.querySelectorAll("[data-suggestion-item]").length >= 12, null, { message: `${engine}: both documents' suggestions` });
  const groups = await page.eval(() =>
    [...document.querySelectorAll("[data-suggestions] [data-suggestion-doc]")].map((g) => ({
      doc: g.dataset.suggestionDoc,
      heading: g.querySelector("h4")?.textContent.trim() || "",
      rows: [...g.querySelectorAll("[data-suggestion-item]")].map((li) => ({
        id: li.dataset.suggestionItem,
        name: li.querySelector("[data-suggestion-show]")?.textContent.trim(),
        accept: li.querySelector("[data-suggestion-accept]")?.getAttribute("aria-label"),
        dismiss: li.querySelector("[data-suggestion-dismiss]")?.getAttribute("aria-label"),
      })),
    })),
  );
  assert.deepEqual(groups.map((g) => g.doc), ["0", "1"], `${engine}: one group per document, in the room's order`);
  assert.match(groups[0].heading, /^Loan A\s*6$/, `${engine}: the first group is headed by its document's title and count`);
  assert.match(groups[1].heading, /^Loan B\s*6$/, `${engine}: the second too`);
  for (const g of groups) {
    assert.ok(g.rows.every((row) => row.id.startsWith(`${g.doc}/`)), `${engine}: every row of ${g.heading} is its own`);
  }
  const sigA = groups[0].rows.find((row) => /^Signature/.test(row.name));
  const sigB = groups[1].rows.find((row) => /^Signature/.test(row.name));
  assert.equal(sigA.name, sigB.name, `${engine}: the two rows read alike (“${sigA.name}”)…`);
  assert.equal(sigA.accept, "Accept: Signature, page 1 of Loan A", `${engine}: …their buttons say which document`);
  assert.equal(sigB.accept, "Accept: Signature, page 1 of Loan B");
  assert.equal(sigB.dismiss, "Dismiss: Signature, page 1 of Loan B");
  // (the sidebar scrolled to the list for the picture)
  await page.eval(() => {
    const side = document.querySelector("#room-sidebar");
    side.scrollTop += document.querySelector("[data-suggestions]").getBoundingClientRect().top - side.getBoundingClientRect().top - 8;
    const list = document.querySelector(".suggestions__list");
    list.scrollTop = document.querySelector('[data-suggestion-doc="1"]').offsetTop - list.offsetTop - list.clientHeight / 2;
  });
  await page.screenshot("engines-viewer-suggestions-by-document");

  // The hooks still work: accepting Loan B's signature adds it to Loan B.
  await page.click(`[data-suggestion-item="${sigB.id}"] [data-suggestion-accept]`);
  await page.waitFor((id) => !document.querySelector(`[data-suggestion-item="${id}"]`), sigB.id, { message: `${engine}: accepted` });
  await page.waitFor(() => !document.querySelector(".tag--pending") && !window.markupRoomHistory.busy);
  const tx = await srv.transaction(r.transactionId);
  assert.equal(tx.documents[0].tags.length, 0, `${engine}: nothing added to Loan A`);
  assert.equal(tx.documents[1].tags.length, 1, `${engine}: Loan B's signature added`);
  assert.equal(tx.documents[1].tags[0].type, "SIGNATURETEMPLATE");
  await assertClean(page);
  await page.close();
});

const START = [
  { type: "SIGNATURETEMPLATE", x: 72, y: 600, width: 120, height: 30, signer: 0 },
  { type: "DATETEMPLATE", x: 250, y: 500, width: 100, height: 24, signer: 0 },
  { type: "INITIALSTEMPLATE", x: 400, y: 380, width: 80, height: 40, signer: 1 },
];

/** A room on doc (a copy of the mixed document) with the START tags on page 1. */
async function tagRoom(doc) {
  const r = await srv.room([doc]);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = START.map((s) => ({ type: s.type, x: s.x, y: s.y, width: s.width, height: s.height, page: 1, signerId: tx.participants[s.signer].id, customData: {}, required: true }));
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  return r;
}

/** The sheet holding sel on a phone, opened from the dock (nothing to do where the panels are columns). */
async function showPanel(page, name) {
  const sheet = await page.eval(() => getComputedStyle(document.querySelector("#room-panel")).position === "fixed");
  if (!sheet) return;
  await page.click(`[data-room-dock] [data-sheet-open="${name}"]`);
  await page.waitFor(() => {
    const s = document.querySelector("#room-panel");
    return getComputedStyle(s).transform === "none" && s.getBoundingClientRect().bottom <= innerHeight + 1;
  }, null, { message: `${engine}: the ${name} sheet open` });
}

test("after “Copy to pages” the originals stay selected and the status is whole, at 1440, 1024 and 390 px", T, async () => {
  for (const size of SIZES) {
    const r = await tagRoom(agreement);
    const page = await openRoom(r.url, size);
    const onPage1 = `.viewer-page[data-document-id="${agreement.id}"][data-page="1"] .tag[data-tag-id]`;
    const originals = (await page.eval((sel) => [...document.querySelectorAll(sel)].map((el) => el.dataset.tagId), onPage1)).sort();
    assert.equal(originals.length, 3);
    await page.click(onPage1);
    await page.press("Control+a");
    await page.waitFor(() => document.querySelectorAll(".tag[data-selected]").length === 3, null, { message: `${engine}: Ctrl A selects the three` });
    await showPanel(page, "props");
    await page.click("[data-copy-pages-open]");
    await page.waitForSelector("[data-copy-pages-dialog][open]", { visible: true });
    await page.fill("[data-copy-pages-list]", "2-3");
    await page.click("[data-copy-pages-submit]");
    await page.waitForSelector("[data-copy-pages-dialog]", { hidden: true });
    await page.waitFor(() => /^Copied/.test(document.querySelector("[data-save-status]").textContent.trim()) && !window.markupRoomHistory.busy, null, { message: `${engine}: the copy said` });
    // On a phone the properties sheet closes (and slides away) so the page and the status show.
    await page.waitFor(() => {
      const panel = getComputedStyle(document.querySelector("#room-panel"));
      return panel.position !== "fixed" || panel.visibility === "hidden";
    }, null, { message: `${engine}: the properties sheet closed` });
    assert.equal((await srv.transaction(r.transactionId)).documents[0].tags.length, 9, `${engine}: 3 tags + 6 copies`);
    const selected = (await page.eval(() => [...document.querySelectorAll(".tag[data-selected]")].map((el) => el.dataset.tagId))).sort();
    assert.deepEqual(selected, originals, `${engine} ${size.width}: the originals stay selected, not the copies on other pages`);
    await frames(page);
    const status = await page.eval(() => {
      const el = document.querySelector("[data-save-status]");
      const r = el.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(el);
      const t = range.getBoundingClientRect();
      el.style.pointerEvents = "auto"; // (where it floats over the pages it lets the pointer through)
      const hit = document.elementFromPoint((t.left + t.right) / 2, (t.top + t.bottom) / 2);
      el.style.pointerEvents = "";
      return { text: el.textContent.trim(), cut: el.scrollWidth > el.clientWidth + 1, left: r.left, right: r.right, textLeft: t.left, textRight: t.right, textTop: t.top, textBottom: t.bottom, w: innerWidth, h: innerHeight, covered: !hit || !(hit === el || el.contains(hit)) ? hit?.outerHTML.slice(0, 80) || "nothing" : "" };
    });
    assert.equal(status.text, "Copied 6 tags to 2 pages.", `${engine}: the status says what was done`);
    assert.ok(!status.cut && status.textLeft >= status.left - 1 && status.textRight <= status.right + 1, `${engine} ${size.width}: the status is cut: ${JSON.stringify(status)}`);
    assert.ok(status.textLeft >= 0 && status.textRight <= status.w && status.textTop >= 0 && status.textBottom <= status.h, `${engine} ${size.width}: the status is in the window: ${JSON.stringify(status)}`);
    assert.equal(status.covered, "", `${engine} ${size.width}: the status is covered`);
    await page.screenshot(`engines-viewer-copied-${size.width}`);
    await assertClean(page);
    await page.close();
  }
});

test("the signer picker stays in view when a tag is selected, and the picked signer outlives a reload", T, async () => {
  const r = await tagRoom(mixed);
  for (const size of SIZES.slice(0, 2)) {
    const page = await openRoom(r.url, size);
    // Pick Robin Seller for new tags.
    const robin = await page.eval(() => {
      const rows = [...document.querySelectorAll("[data-signer-picker] .room-participant")];
      const row = rows.find((li) => /Robin Seller/.test(li.textContent));
      row.querySelector("label").dataset.e2ePick = "";
      return row.dataset.participantId;
    });
    await page.click("[data-e2e-pick]");
    assert.equal(await page.eval(() => document.querySelector('[data-signer-picker] input[name="new-tag-signer"]:checked')?.value), robin);
    // Select each tag on the page, then from the field list: the picker and the properties are both in view.
    const ids = await page.eval(() => [...document.querySelectorAll(".tag[data-tag-id]")].map((el) => el.dataset.tagId));
    for (const [i, id] of ids.entries()) {
      if (i % 2) await page.click(`[data-field-tag="${id}"]`);
      else await page.click(`.tag[data-tag-id="${id}"]`);
      await page.waitFor((id) => document.querySelector(".tag[aria-selected='true']")?.dataset.tagId === id, id, { message: `${engine}: tag ${id} selected` });
      await frames(page);
      const seen = await page.eval(() => {
        const panel = document.querySelector("#room-panel").getBoundingClientRect();
        const shown = (el) => {
          const r = el.getBoundingClientRect();
          const x = r.left + r.width / 2;
          const y = r.top + r.height / 2;
          const hit = document.elementFromPoint(x, y);
          return r.top >= panel.top - 1 && r.bottom <= panel.bottom + 1 && !!hit && (hit === el || el.contains(hit) || hit.contains(el));
        };
        const picked = document.querySelector('[data-signer-picker] input[name="new-tag-signer"]:checked').closest("label");
        const props = document.querySelector("[data-tag-props-form]");
        const legend = document.querySelector("[data-signer-picker] legend");
        const p = props.getBoundingClientRect();
        return { picked: shown(picked), legend: legend.getBoundingClientRect().bottom > panel.top, propsTop: Math.round(p.top), propsShown: Math.min(p.bottom, panel.bottom) - Math.max(p.top, panel.top), panelTop: Math.round(panel.top) };
      });
      assert.ok(seen.picked, `${engine} ${size.width}: the picked signer is out of view with tag ${i + 1} selected (${JSON.stringify(seen)})`);
      assert.ok(seen.propsShown >= 120, `${engine} ${size.width}: the selected tag's properties show ${seen.propsShown} px (${JSON.stringify(seen)})`);
    }
    await page.screenshot(`engines-viewer-picker-${size.width}`);
    // A reload keeps the pick, and a tag placed then is Robin's (picked in the palette, a click on page 2).
    await page.goto(r.url);
    await page.waitForSelector(".viewer-page--rendered");
    assert.equal(await page.eval(() => document.querySelector('[data-signer-picker] input[name="new-tag-signer"]:checked')?.value), robin, `${engine}: the pick outlives a reload`);
    const before = (await srv.transaction(r.transactionId)).documents[0].tags.length;
    await page.click('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]');
    const req = await page.request("POST", /\/tags$/, () => page.click(`.viewer-page[data-document-id="${mixed.id}"][data-page="2"]`, { offset: { x: 60, y: 60 } }));
    assert.equal(req.status, 201, req.body);
    const tags = (await srv.transaction(r.transactionId)).documents[0].tags;
    assert.equal(tags.length, before + 1);
    assert.equal(tags.find((t) => t.page === 2).signerId, robin, `${engine}: the new tag goes to the signer kept`);
    await page.waitFor(() => !document.querySelector(".tag--pending") && !window.markupRoomHistory.busy);
    await assertClean(page);
    await page.close();
  }
});
