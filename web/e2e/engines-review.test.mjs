// The pre-send check in the room's "Create e-signature session" dialog
// (issue 40, docs/review.md) on three browser engines through
// web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-review.test.mjs
//
// The dialog lists the review's findings, blocking ones first, each worded in
// the room's language with the fix one click makes: "Add initials to pages
// 3–5" copies the initials tag there in ONE undo step (undo removes every
// copy); a blocking finding disables the button and the server refuses the
// session (422 review_blocked) too; "Show" selects the tag and puts the focus
// on it (not on the header's button the dialog came from); "Assign to…" puts
// the focus on the selected tag's signer; a tag a revision could not carry
// surely "needs a look", and "Keep here" saves it where it is. Screenshots:
// review-check-<width>-<lang>-<engine>.png.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { makePDF, mixedPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean, createSession } from "./lib/room.mjs";
import { eventually } from "./lib/wait.mjs";

const T = { timeout: 240000 };
const catalog = (lang) => JSON.parse(readFileSync(new URL(`../i18n/locales/${lang}.json`, import.meta.url), "utf8"));
let srv, browser, mixed;

before(async () => {
  srv = await startServer();
  browser = await launch();
  mixed = await srv.upload(mixedPDF(), "Lease");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

const inLang = (url, lang) => {
  const u = new URL(url);
  u.searchParams.set("lang", lang);
  return u.toString();
};

/** A room on the five-page mixed document with tags (type, page, x, y, who: 0 Pat, 1 Robin). */
async function roomWith(tags) {
  const r = await srv.room([mixed]);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = tags.map(([type, page, x, y, who]) => ({
    type, page, x, y, width: type === "INITIALSTEMPLATE" ? 50 : 120, height: 30, signerId: tx.participants[who].id, customData: {}, required: true,
  }));
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  return { r, tx };
}

/** Opens the session dialog and waits for this opening's check to be drawn. */
async function openCheck(page) {
  await page.request("GET", /\/checklist$/, () => page.click("[data-control='create-session']"));
  await page.waitForSelector("#session-dialog [data-checklist]", { visible: true });
}

/** The dialog's findings: [code, severity, words, fix label, fix kind]. */
const findings = (page) =>
  page.eval(() =>
    [...document.querySelectorAll("#session-dialog [data-finding]")].map((li) => [
      li.dataset.finding,
      li.hasAttribute("data-warning") ? "warning" : "blocking",
      li.querySelector(".checklist__problem").textContent.trim(),
      li.querySelector(".checklist__fix")?.textContent.trim() || "",
      li.querySelector(".checklist__fix")?.dataset.fix || "",
    ]),
  );

/** Pat's initials tags, by page, as the API has them. */
async function initialsPages(txID) {
  const tx = await srv.transaction(txID);
  return tx.documents[0].tags.filter((t) => t.type === "INITIALSTEMPLATE" && t.signerId === tx.participants[0].id).map((t) => t.page).sort();
}

test("initials on some pages: the check offers to add them to the others, as one undo step", T, async () => {
  const { r } = await roomWith([
    ["SIGNATURETEMPLATE", 1, 72, 100, 0],
    ["SIGNATURETEMPLATE", 1, 320, 100, 1],
    ["INITIALSTEMPLATE", 1, 480, 40, 0],
    ["INITIALSTEMPLATE", 2, 480, 40, 0],
  ]);
  const page = await pages.openRoom(r.url);
  await openCheck(page);
  const found = await findings(page);
  const initials = found.find((f) => f[0] === "initials_missing");
  assert.deepEqual(initials, ["initials_missing", "warning", "Pat Buyer initials some pages of “Lease” but not these: \u20663–5\u2069.", "Add initials to pages \u20663–5\u2069", "copy_to_pages"], `${engine}: ${JSON.stringify(found)}`);
  assert.ok(await page.eval(() => document.querySelector("#session-dialog [data-checklist]").hasAttribute("data-ready")), `${engine}: a warning does not block`);

  const steps = await page.eval(() => window.markupRoomHistory.size);
  await page.click('#session-dialog [data-fix="copy_to_pages"]');
  await page.waitForSelector("#session-dialog", { hidden: true });
  await eventually(async () => assert.deepEqual(await initialsPages(r.transactionId), [1, 2, 3, 4, 5]), { timeout: 30000 });
  await page.waitFor(() => document.querySelectorAll('.viewer-page .tag[data-tag-type="INITIALSTEMPLATE"]:not(.tag--pending)').length === 5, null, { message: `${engine}: five initials on the pages` });
  await page.waitFor((n) => window.markupRoomHistory.size === n + 1 && !window.markupRoomHistory.busy, steps, { message: `${engine}: one undo step` });

  // The check has nothing to say about initials any more.
  await openCheck(page);
  assert.equal((await findings(page)).filter((f) => f[0] === "initials_missing").length, 0, `${engine}: the initials are complete`);
  await page.click("#session-dialog .dialog__footer [data-dialog-close]");
  await page.waitForSelector("#session-dialog", { hidden: true });

  // One undo removes every copy.
  await page.click('[data-action="undo"]');
  await eventually(async () => assert.deepEqual(await initialsPages(r.transactionId), [1, 2]), { timeout: 30000 });
  await page.waitFor(() => document.querySelectorAll('.viewer-page .tag[data-tag-type="INITIALSTEMPLATE"]').length === 2, null, { message: `${engine}: two initials left on the pages` });
  await assertClean(page);
});

test("a blocking finding stops the session, in the dialog and on the server", T, async () => {
  // Robin only dates the lease: nothing to sign.
  const { r, tx } = await roomWith([
    ["SIGNATURETEMPLATE", 1, 72, 100, 0],
    ["DATETEMPLATE", 1, 320, 100, 1],
  ]);
  const page = await pages.openRoom(r.url);
  await openCheck(page);
  const found = await findings(page);
  assert.deepEqual(found[0], ["participant_signs_nothing", "blocking", "Robin Seller has nothing to sign: add a signature or initials for them.", "Place tags", ""], `${engine}: ${JSON.stringify(found)}`);
  assert.ok(found.some((f) => f[0] === "fill_without_signing" && f[1] === "warning" && f[4] === "show"), `${engine}: Robin's date is a warning: ${JSON.stringify(found)}`);
  const state = await page.eval(() => ({
    blocked: document.querySelector("#session-dialog [data-checklist]").hasAttribute("data-blocked"),
    disabled: document.querySelector("#session-dialog [data-control='confirm-create-session']").disabled,
    headings: [...document.querySelectorAll("#session-dialog .checklist__heading")].map((h) => h.textContent.trim()),
  }));
  assert.deepEqual(state, { blocked: true, disabled: true, headings: ["Stops the session", "Warnings"] }, `${engine}: the button waits`);

  // The server refuses it too: 422 with the codes.
  const refused = await page.eval(async () => {
    const id = document.querySelector("[data-room-id]").dataset.roomId;
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const res = await fetch(`/rooms/${id}/complete`, { method: "POST", headers: { "X-CSRF-Token": csrf, "HX-Request": "true" }, body: new URLSearchParams({ notify: "" }) });
    return { status: res.status, body: await res.json() };
  });
  assert.equal(refused.status, 422, `${engine}: refused`);
  assert.deepEqual(refused.body.errors.map((e) => [e.pointer, e.code]), [["#/findings/0", "review_blocked"]]);
  assert.deepEqual(refused.body.findings.map((f) => [f.code, f.participantId]), [["participant_signs_nothing", tx.participants[1].id]]);
  assert.equal((await srv.api("GET", `/api/v1/markup-rooms/${r.id}`)).status, "open", `${engine}: the room stays open`);
  assert.equal((await srv.transaction(r.transactionId)).status, tx.status, `${engine}: the transaction did not go out`);
  // (The refused fetch is the test's own request: the engines report its 422 themselves.)
  await assertClean(page, (p) => /422|Unprocessable/.test(p));
});

test("Show selects the tag and puts the focus on it; Assign to… puts it on the tag's signer", T, async () => {
  // Pat's and Robin's signatures overlap on page 2.
  const { r } = await roomWith([
    ["SIGNATURETEMPLATE", 1, 72, 100, 0],
    ["SIGNATURETEMPLATE", 2, 72, 300, 0],
    ["SIGNATURETEMPLATE", 2, 100, 305, 1],
  ]);
  const page = await pages.openRoom(r.url);
  await openCheck(page);
  const overlap = (await findings(page)).find((f) => f[0] === "tags_overlap");
  assert.deepEqual(overlap, ["tags_overlap", "warning", "Tags of Pat Buyer and Robin Seller overlap on page \u20662\u2069 of “Lease”.", "Show", "show"], `${engine}: the overlap`);
  const id = await page.eval(() => document.querySelector('#session-dialog [data-fix="show"]').dataset.fixTag);
  await page.click('#session-dialog [data-fix="show"]');
  await page.waitForSelector("#session-dialog", { hidden: true });
  const shown = await page.waitFor(
    (id) => {
      const el = document.activeElement;
      if (!el?.matches?.(`.tag[data-tag-id="${id}"]`) || el.getAttribute("aria-selected") !== "true") return false;
      const v = document.querySelector("[data-viewer]").getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return { inView: r.top >= v.top && r.bottom <= v.bottom, page: el.closest(".viewer-page").dataset.page, selected: document.querySelectorAll(".tag[data-selected]").length };
    },
    id,
    { message: `${engine}: the overlapping tag selected and focused` },
  );
  assert.deepEqual(shown, { inView: true, page: "2", selected: 1 }, `${engine}: shown`);
  // The properties panel speaks of it: Robin's.
  assert.equal(await page.eval(() => document.querySelector("#tag-prop-signer").selectedOptions[0]?.textContent.trim()), "Robin Seller");

  // A tag of nobody's: "Assign to…" selects it and puts the focus on its signer.
  await page.eval(async () => {
    const v = document.querySelector("[data-viewer]");
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const body = new URLSearchParams({ documentPosition: "0", type: "SIGNATURETEMPLATE", signerId: "", page: "3", x: "72", y: "400", width: "120", height: "30", required: "true" });
    const res = await fetch(v.dataset.tagUrl, { method: "POST", headers: { "X-CSRF-Token": csrf, "HX-Request": "true" }, body });
    if (!res.ok) throw new Error(`tag: ${res.status}`);
  });
  await page.goto(await page.eval(() => location.href));
  await page.waitForSelector(".viewer-page--rendered");
  await openCheck(page);
  const nobody = (await findings(page)).find((f) => f[0] === "tag_without_signer");
  assert.deepEqual(nobody, ["tag_without_signer", "blocking", "A tag on page \u20663\u2069 of “Lease” has no signer.", "Assign to…", "assign"], `${engine}: the unassigned tag`);
  const unassigned = await page.eval(() => document.querySelector('#session-dialog [data-fix="assign"]').dataset.fixTag);
  await page.click('#session-dialog [data-fix="assign"]');
  await page.waitForSelector("#session-dialog", { hidden: true });
  await page.waitFor(
    (id) => document.activeElement?.id === "tag-prop-signer" && document.querySelector(`.tag[data-tag-id="${id}"]`)?.getAttribute("aria-selected") === "true",
    unassigned,
    { message: `${engine}: the signer of the unassigned tag has the focus` },
  );
  await assertClean(page);
});

test("a tag a revision could not carry needs a look; Keep here saves it where it is", T, async () => {
  const { r } = await roomWith([["SIGNATURETEMPLATE", 1, 72, 100, 0]]);
  // Another document altogether: none of the words around the tag are on it.
  const other = await srv.upload(makePDF([{ width: 612, height: 792, label: "Something else entirely", lines: 0 }]), "Other");
  const tx = await srv.transaction(r.transactionId);
  const revised = await srv.api("POST", `/api/v1/transactions/${r.transactionId}/documents/${tx.documents[0].id}/revise`, { documentId: other.id });
  assert.equal(revised.revision.flagged, 1, `${engine}: the revision flags the tag: ${JSON.stringify(revised.revision)}`);
  const page = await pages.openRoom(r.url);
  await openCheck(page);
  const look = await page.eval(() =>
    [...document.querySelectorAll('#session-dialog [data-finding="tag_needs_look"] .checklist__fix')].map((a) => [a.dataset.fix, a.textContent.trim()]),
  );
  assert.deepEqual(look, [["show", "Show"], ["keep", "Keep here"]], `${engine}: the finding's fixes`);
  await page.request("PUT", /\/tags\//, () => page.click('#session-dialog [data-fix="keep"]'));
  await page.waitForSelector("#session-dialog", { hidden: true });
  await eventually(async () => {
    const rv = await srv.api("GET", `/api/v1/transactions/${r.transactionId}/review`);
    assert.ok(!rv.findings.some((f) => f.code === "tag_needs_look"), `${engine}: still needs a look: ${JSON.stringify(rv.findings)}`);
  });
  const after = await srv.transaction(r.transactionId);
  assert.deepEqual([after.documents[0].tags[0].x, after.documents[0].tags[0].y], [revised.documents[0].tags[0].x, revised.documents[0].tags[0].y], `${engine}: kept where it was`);
  await openCheck(page);
  assert.ok(!(await findings(page)).some((f) => f[0] === "tag_needs_look"), `${engine}: the check no longer lists it`);
  await assertClean(page);
});

test("the check's dialog at 1440 and 390 px, in English and Arabic (screenshots), and the session once only warnings are left", T, async () => {
  const { r } = await roomWith([
    ["SIGNATURETEMPLATE", 1, 72, 100, 0],
    ["INITIALSTEMPLATE", 1, 480, 40, 0],
    ["INITIALSTEMPLATE", 2, 480, 40, 0],
    ["DATETEMPLATE", 1, 320, 100, 1],
  ]);
  // WebKitGTK's MiniBrowser window stops at 447 px.
  const phone = engine === "webkit" ? { width: 447, height: 844 } : { width: 390, height: 844 };
  for (const lang of ["en", "ar"]) {
    const words = catalog(lang);
    for (const size of [{ width: 1440, height: 900 }, phone]) {
      const page = await pages.openRoom(inLang(r.url, lang), size);
      await openCheck(page);
      const seen = await page.eval(() => ({
        dir: document.documentElement.dir,
        text: document.querySelector("#session-dialog").innerText,
        wider: [...document.querySelectorAll("#session-dialog .checklist__item")].some((li) => li.scrollWidth > li.clientWidth + 1),
        dialogFits: document.querySelector("#session-dialog").getBoundingClientRect().right <= innerWidth + 1,
      }));
      assert.equal(seen.dir, lang === "ar" ? "rtl" : "ltr");
      for (const id of ["room.review.blocking", "room.review.warnings", "room.checklist.fix.place_tags"]) {
        assert.ok(seen.text.includes(words[id]), `${engine} ${lang} ${size.width}: the dialog says ${words[id]}: ${seen.text}`);
      }
      assert.equal(seen.wider, false, `${engine} ${lang} ${size.width}: nothing spills out of a finding`);
      assert.equal(seen.dialogFits, true, `${engine} ${lang} ${size.width}: the dialog fits the window`);
      await page.screenshot(`review-check-${size.width}-${lang}`);
      await assertClean(page);
      await page.close();
    }
  }

  // Robin signs too: only warnings are left, asked about once in the room's own dialog.
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags.push({ type: "SIGNATURETEMPLATE", page: 1, x: 320, y: 200, width: 120, height: 30, signerId: tx.participants[1].id, customData: {}, required: true });
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  const page = await pages.openRoom(r.url);
  await page.eval(() => {
    window.confirm = () => {
      throw new Error("window.confirm was called");
    };
  });
  await openCheck(page);
  assert.equal(await page.eval(() => document.querySelector("#session-complete-form").getAttribute("data-confirm")), "Create the session with 1 warning?");
  await createSession(page);
  await page.waitForSelector("[data-room-summary]", { timeout: 30000 });
  assert.equal((await srv.transaction(r.transactionId)).status, "esign_pending");
});
