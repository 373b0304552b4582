// Polish of the room (issue "Markup Room editor V", item 2, the last defects)
// on three browser engines, through web/e2e/lib/engine.mjs —
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-polish.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// A date tag's label says its format, not today's date, the same whether the
// server or the editor drew it; every required field of the room's dialogs
// and forms is marked (aria-required and a visible mark, explained once); an
// empty room's toolbar says so instead of "page 1 of 1"; the save status has
// a slot of its own in the toolbar at 1440×900, 1024×768 and 390×844.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertNoProblems, clickable } from "./lib/room.mjs";

const T = { timeout: 240000 };
// WebKitGTK's MiniBrowser window is never narrower than about 447 px: there the
// phone is 460×844, still the phone layout (below 48rem, 768 px) the others get at 390.
const PHONE = engine === "webkit" ? { width: 460, height: 844 } : { width: 390, height: 844 };
const SIZES = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }, PHONE];
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
const { newPage, openRoom } = pages;
afterEach(pages.closeAll);

const pageSel = (docId, n) => `.viewer-page[data-document-id="${docId}"][data-page="${n}"]`;
const tagSel = (id) => `.tag[data-tag-id="${id}"]`;

/** On a phone, opens the dock's sheet name and waits until sel in it takes a click (the sheet slides in). */
async function openSheet(page, name, sel) {
  await page.click(`[data-room-dock] [data-sheet-open='${name}']`);
  await clickable(page, sel, `${sel} in the ${name} sheet`);
}

/** The words the server wrote on the tag (its HTML fetched again, no script run). */
const serverText = (page, id) =>
  page.eval(async (id) => {
    const html = await (await fetch(location.href, { credentials: "same-origin" })).text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    return doc.querySelector(`.tag[data-tag-id="${id}"] .tag__type`)?.textContent.trim() ?? null;
  }, id);

/** The words the tag shows now, and its label mode. */
const shownText = (page, id) =>
  page.eval((sel) => {
    const t = document.querySelector(sel);
    return { text: t.querySelector(".tag__type").textContent, mode: t.dataset.label };
  }, tagSel(id));

test("a date tag says 'Date signed · MM/DD/YYYY', not today's date, the same drawn by the server or by the editor", T, async () => {
  const r = await srv.room([mixed]);
  const page = await openRoom(r.url);
  await page.select("[data-zoom-select]", "2");
  await page.waitFor(() => Math.abs(window.markupRoomViewer.zoom - 2) < 1e-6);
  await page.click(`[data-palette] [data-tag-type="DATETEMPLATE"]`);
  const req = await page.request("POST", /\/tags$/, () => page.click(pageSel(mixed.id, 1), { offset: { x: 80, y: 120 } }));
  assert.equal(req.status, 201, req.body);
  const id = /data-tag-id="([^"]+)"/.exec(req.body)[1];
  await page.waitFor((sel) => document.querySelector(sel)?.dataset.label, tagSel(id));
  let shown = await shownText(page, id);
  assert.equal(shown.text, "Date signed · MM/DD/YYYY", `${engine}: the new date tag at 200 %`);
  assert.equal(shown.mode, "full");
  assert.equal(await serverText(page, id), "Date signed · MM/DD/YYYY", `${engine}: the server's words`);
  await page.screenshot("polish-date-tag");

  // Another format, chosen in the properties: both say it.
  await page.click(tagSel(id));
  await page.waitForSelector("[data-tag-props-form]:not([hidden])", { visible: true });
  const put = await page.request("PUT", /\/tags\//, () => page.select("#tag-prop-date-format", "MMMM do, yyyy"));
  assert.equal(put.status, 200, put.body);
  await page.waitFor((sel) => document.querySelector(sel).querySelector(".tag__type").textContent === "Date signed · MMMM do, yyyy", tagSel(id));
  assert.equal(await serverText(page, id), "Date signed · MMMM do, yyyy");

  // Reloaded (every tag drawn by the server first): the same words, and at 50 % the format alone or the type's name ("Date", issue 40), never a date.
  await page.goto(r.url);
  await page.waitForSelector(".viewer-page--rendered");
  await page.select("[data-zoom-select]", "2");
  // (At the first zoom a small date tag may say "Date" in full too: wait for the words of 200 %.)
  await page.waitFor((sel) => document.querySelector(sel)?.dataset.label === "full" && document.querySelector(sel).querySelector(".tag__type").textContent.includes("·"), tagSel(id));
  shown = await shownText(page, id);
  assert.equal(shown.text, "Date signed · MMMM do, yyyy", `${engine}: after a reload`);
  await page.select("[data-zoom-select]", "0.5");
  await page.waitFor(() => Math.abs(window.markupRoomViewer.zoom - 0.5) < 1e-6);
  await page.eval(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
  shown = await shownText(page, id);
  assert.ok(["MMMM do, yyyy", "Date signed · MMMM do, yyyy", "Date"].includes(shown.text), `${engine} 50 %: "${shown.text}" (${shown.mode})`);
  assert.doesNotMatch(shown.text, /\d/, "no date that reads as fixed");
  await assertNoProblems(page);
  await page.close();
});

/** Every required input under scope (a selector): its name, whether it says so, and whether a visible mark and legend go with it. */
const requiredFields = (page, scope) =>
  page.eval((scope) => {
    const seen = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && el.getBoundingClientRect().width > 0;
    const out = [];
    for (const root of document.querySelectorAll(scope)) {
      for (const input of root.querySelectorAll("input, select, textarea")) {
        const says = input.required || input.getAttribute("aria-required") === "true";
        const label = input.labels?.[0] || input.closest("label");
        const name = label?.querySelector(".field__label") || label;
        const mark = name && /\*/.test(getComputedStyle(name, "::after").content) ? name : null; // drawn by CSS
        const form = input.closest("form");
        const legend = form?.querySelector("[data-required-legend]");
        if (!says && !mark) continue;
        if (!seen(input)) continue; // a field of a part the form hides (another authentication type)
        out.push({
          name: input.name,
          says,
          mark: seen(mark) ? "*" : "",
          nameClean: !!name && !name.textContent.includes("*"),
          legend: seen(legend) ? legend.textContent.replace(/\s+/g, " ").trim() : "",
        });
      }
    }
    return out;
  }, scope);

function assertMarked(fields, where) {
  assert.ok(fields.length > 0, `${engine} ${where}: some required fields`);
  for (const f of fields) {
    assert.ok(f.says, `${engine} ${where}: ${f.name} has aria-required or required`);
    assert.equal(f.mark, "*", `${engine} ${where}: ${f.name} shows the mark`);
    assert.ok(f.nameClean, `${engine} ${where}: ${f.name}'s label text stays its name (the mark is drawn by CSS)`);
    assert.equal(f.legend, "* required", `${engine} ${where}: ${f.name}'s form explains the mark`);
  }
}

test("required fields are marked in every dialog and form of the room: aria-required and a visible mark, explained once", T, async () => {
  const r = await srv.room([mixed]);
  for (const size of [SIZES[0], SIZES[2]]) {
    const page = await openRoom(r.url, size);
    // Add participant: first name, last name and e-mail.
    if (size.width < 768) await openSheet(page, "people", "[data-control='participant-add']");
    await page.click("[data-control='participant-add']");
    await page.waitForSelector("dialog#participant-add[open]", { visible: true });
    let fields = await requiredFields(page, "dialog#participant-add");
    assert.deepEqual(fields.map((f) => f.name), ["firstName", "lastName", "email"], `${engine}: the add dialog's required fields`);
    assertMarked(fields, "add participant");
    // Personal password: the password too (none is set yet).
    await page.select("dialog#participant-add select[name='authenticationType']", "personal-password");
    fields = await requiredFields(page, "dialog#participant-add");
    assert.deepEqual(fields.map((f) => f.name), ["firstName", "lastName", "email", "personalPassword"]);
    assertMarked(fields, "add participant, personal password");
    if (size.width === 1440) await page.screenshot("polish-required-add");
    if (size === PHONE) await page.screenshot("polish-required-add-phone");
    await page.press("Escape");
    await page.waitFor(() => !document.querySelector("dialog[open]"));

    // Every other dialog, opened as its opener would: each required field it holds is marked.
    const dialogs = await page.eval(() => [...document.querySelectorAll("dialog")].map((d) => d.id));
    assert.ok(dialogs.length >= 4, `${engine}: ${dialogs.join(", ")}`);
    let edits = 0;
    for (const id of dialogs) {
      await page.eval((id) => document.getElementById(id).showModal(), id);
      fields = await requiredFields(page, `dialog#${id}`);
      if (fields.length) assertMarked(fields, `dialog #${id}`);
      if (/^participant-(?!add)/.test(id)) {
        edits++;
        assert.deepEqual(fields.map((f) => f.name), ["firstName", "lastName", "email"], `${engine}: #${id}`);
      }
      await page.eval((id) => document.getElementById(id).close(), id);
    }
    assert.equal(edits, 2, `${engine}: both participants' edit dialogs checked`);

    // The rename form of a document.
    if (size.width < 768) {
      await page.press("Escape"); // the people sheet
      await clickable(page, "[data-room-dock] [data-sheet-open='documents']");
      await openSheet(page, "documents", ".room-doc__rename summary");
    }
    await page.click(".room-doc__rename summary");
    await page.waitForSelector(".room-doc__rename[open] input[name='title']", { visible: true });
    fields = await requiredFields(page, ".room-doc__rename");
    assert.deepEqual(fields.map((f) => f.name), ["title"]);
    assertMarked(fields, "rename");
    await page.screenshot(`polish-required-rename-${size.width}`);
    await assertNoProblems(page);
    await page.close();
  }
});

test("an empty room says so in the toolbar, with no page count or page navigation", T, async () => {
  const r = await srv.room([]);
  for (const size of SIZES) {
    const page = await newPage(size);
    await page.goto(r.url);
    await page.waitForSelector("[data-viewer-toolbar]", { visible: true });
    const bar = await page.eval(() => {
      const bar = document.querySelector("[data-viewer-toolbar]");
      const seen = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
      const empty = bar.querySelector("[data-viewer-empty]");
      return {
        empty: seen(empty) ? empty.textContent.trim() : "",
        whole: empty ? empty.scrollWidth <= empty.clientWidth + 1 : false,
        pageNav: ["[data-page-input]", "[data-page-total]", "[data-action='page-prev']", "[data-action='page-next']", "[data-zoom-select]"].filter((s) => seen(bar.querySelector(s))),
        text: bar.innerText,
        undo: seen(bar.querySelector("[data-action='undo']")),
      };
    });
    assert.equal(bar.empty, "No documents yet — upload a PDF", `${engine} ${size.width}`);
    assert.ok(bar.whole, `${engine} ${size.width}: the words are not cut`);
    assert.deepEqual(bar.pageNav, [], `${engine} ${size.width}: no page navigation in an empty room`);
    assert.doesNotMatch(bar.text, /page|of 1|No document\b/i, `${engine} ${size.width}: ${bar.text}`);
    assert.ok(bar.undo, `${engine} ${size.width}: Undo stays (a removal can be undone)`);
    await page.screenshot(`polish-empty-room-${size.width}`);
    await assertNoProblems(page);
    await page.close();
  }
  // A room with a document still numbers its pages.
  const full = await srv.room([mixed]);
  const page = await openRoom(full.url);
  const nav = await page.eval(() => ({ empty: !!document.querySelector("[data-viewer-empty]"), total: document.querySelector("[data-page-total]").textContent }));
  assert.deepEqual(nav, { empty: false, total: "5" });
  await page.close();
});

/** The save status's box, and every box it may not touch: the viewer's pages and every visible control. */
const statusPlace = (page) =>
  page.eval(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    };
    const seen = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && el.getBoundingClientRect().width > 0;
    const status = document.querySelector("[data-save-status]");
    const viewer = document.querySelector("[data-viewer]");
    const others = [];
    const name = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""} "${(el.getAttribute("aria-label") || el.textContent).trim().slice(0, 30)}"`;
    others.push({ what: "the pages' box", ...box(viewer) });
    for (const el of document.querySelectorAll(".viewer-page, button, select, input:not([type=hidden]), a[href], summary, [data-page-doc], [data-viewer-empty], .room-header__heading, .room-header__meta")) {
      if (!seen(el) || el.closest("dialog") || status.contains(el)) continue;
      others.push({ what: name(el), ...box(el) });
    }
    return { status: seen(status) ? box(status) : null, text: status.textContent.trim(), others, viewport: { width: innerWidth, height: innerHeight } };
  });

const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

test("the save status has a slot of its own in the toolbar at 1440×900, 1024×768 and 390×844: it never covers the pages or a control", T, async () => {
  const r = await srv.room([mixed]);
  for (const [i, size] of SIZES.entries()) {
    const page = await openRoom(r.url, size);
    const texts = ["All changes saved", "Saving…", "Not saved: The server could not be reached. Check the connection and try again."];
    for (const text of texts) {
      await page.eval((text) => {
        const s = document.querySelector("[data-save-status]");
        s.textContent = text;
        s.title = text;
        s.dataset.kind = text.startsWith("Not") ? "error" : text.startsWith("Saving") ? "busy" : "ok";
      }, text);
      const place = await statusPlace(page);
      assert.ok(place.status, `${engine} ${size.width}: "${text}" is shown`);
      const s = place.status;
      assert.ok(s.left >= 0 && s.right <= place.viewport.width && s.top >= 0 && s.bottom <= place.viewport.height, `${engine} ${size.width}: in the window ${JSON.stringify(s)}`);
      assert.ok(s.height >= 10 && s.width >= 40, `${engine} ${size.width}: "${text}" has room ${JSON.stringify(s)}`);
      const hit = place.others.filter((o) => overlap(s, o)).map((o) => o.what);
      assert.deepEqual(hit, [], `${engine} ${size.width}: "${text}" at ${JSON.stringify(s)} overlaps`);
      // It sits in the toolbar, the same place whatever it says.
      // Said whole (at 1280 px and wider a long error is cut, its whole text the tooltip, as before).
      const whole = await page.eval(() => {
        const st = document.querySelector("[data-save-status]");
        return st.scrollHeight <= st.clientHeight + 1 && st.scrollWidth <= st.clientWidth + 1;
      });
      if (!text.startsWith("Not") || size.width < 1280) assert.ok(whole, `${engine} ${size.width}: "${text}" is not cut`);
      const inBar = await page.eval(() => {
        const bar = document.querySelector("[data-viewer-toolbar]").getBoundingClientRect();
        const st = document.querySelector("[data-save-status]").getBoundingClientRect();
        return st.top >= bar.top - 0.5 && st.bottom <= bar.bottom + 0.5;
      });
      assert.ok(inBar, `${engine} ${size.width}: "${text}" sits in the viewer's toolbar`);
      if (text === "Saving…") await page.screenshot(`polish-status-${size.width}`);
      if (text.startsWith("Not")) await page.screenshot(`polish-status-error-${size.width}`);
    }
    // A real save, at the end: the status says so where it sits.
    await page.eval(() => (document.querySelector("[data-save-status]").textContent = ""));
    if (size.width < 768) await openSheet(page, "tools", `[data-palette] [data-tag-type="SIGNATURETEMPLATE"]`);
    await page.click(`[data-palette] [data-tag-type="SIGNATURETEMPLATE"]`);
    if (size.width < 768) await clickable(page, pageSel(mixed.id, 1));
    const req = await page.request("POST", /\/tags$/, () => page.click(pageSel(mixed.id, 1), { offset: { x: 40, y: 90 + 60 * i } }));
    assert.equal(req.status, 201, req.body);
    await page.waitFor(() => document.querySelector("[data-save-status]").textContent.trim() === "All changes saved");
    const place = await statusPlace(page);
    assert.deepEqual(place.others.filter((o) => overlap(place.status, o)).map((o) => o.what), [], `${engine} ${size.width}: after a save`);
    await page.screenshot(`polish-status-saved-${size.width}`);
    await assertNoProblems(page);
    await page.close();
  }
});
