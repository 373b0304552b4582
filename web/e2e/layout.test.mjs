// Browser tests of the room on every screen (issue "Markup Room editor III",
// items 1 and 2): at 1024×768, 768×1024, 1280×800, 1440×900 and 390×844 the
// demo room opens with the current page, the palette and the selected tag's
// properties in reach — on screen after at most scrolling the document or the
// viewer, never inside a short nested scroll box; on a phone the palette,
// the people and the properties open as sheets, a tag is placed by tap and
// moved with the arrow buttons. Also: a landscape document leaves portrait
// pages their width, and a completed room's summary is short, keeps e-mail
// addresses whole and says nothing of the link's validity.
//
// Screenshots: web/e2e/artifacts/layout-<w>x<h>.png (and -sheet, -completed).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { makePDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, watchProblems, artifacts, createSession } from "./lib/server.mjs";

let srv, browser;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const isTagSave = (method) => (r) => /\/tags(\/[^/]+)?$/.test(new URL(r.url()).pathname) && r.request().method() === method;

/** Opens url at w×h (a touch screen when phone); waits for the first page. */
async function open(url, w, h, phone = false) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, ...(phone ? { hasTouch: true, isMobile: true } : {}) });
  const page = await ctx.newPage();
  const problems = watchProblems(page);
  await page.goto(url);
  await page.locator(".viewer-page--rendered").first().waitFor();
  return { ctx, page, problems };
}

/**
 * Asserts that el can be reached: scrolled into view (by the document or the
 * viewer), its centre (of its part on screen) inside the viewport and the
 * topmost element there is el or inside it — nothing covers it.
 */
async function assertReachable(page, locator, what) {
  await locator.scrollIntoViewIfNeeded();
  const r = await locator.evaluate((el) => {
    const b = el.getBoundingClientRect();
    const top = Math.max(b.top, 0);
    const bottom = Math.min(b.bottom, innerHeight);
    const left = Math.max(b.left, 0);
    const right = Math.min(b.right, innerWidth);
    const x = (left + right) / 2;
    const y = (top + bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    return { shown: bottom - top, width: right - left, height: b.height, hitInside: !!hit && (el === hit || el.contains(hit)), hit: hit?.outerHTML.slice(0, 80) };
  });
  assert.ok(r.width > 0 && r.shown >= Math.min(r.height, 120), `${what}: ${r.shown}px of ${r.height}px on screen`);
  assert.ok(r.hitInside, `${what}: covered by ${r.hit}`);
}

/** The viewer is the scroll box of the pages and takes most of the screen. */
async function assertViewer(page, h) {
  const v = await page.locator("[data-viewer]").evaluate((el) => {
    const b = el.getBoundingClientRect();
    return { height: el.clientHeight, top: b.top, bottom: b.bottom, overflow: getComputedStyle(el).overflowY, docScrollW: document.documentElement.scrollWidth };
  });
  assert.ok(v.height >= 0.6 * h, `the viewer is ${v.height}px tall, under 60 % of ${h}`);
  assert.ok(v.top >= 0 && v.bottom <= h + 1, `the viewer lies on screen (${v.top}–${v.bottom})`);
  assert.match(v.overflow, /auto|scroll/);
  assert.ok(v.docScrollW <= (await page.evaluate(() => innerWidth)), "nothing sticks out sideways");
  // The current page, drawn (its canvas): on screen, not covered.
  const current = page.locator(".viewer-page--rendered").first();
  assert.ok((await current.locator("canvas").evaluate((c) => c.width)) > 300, "the page's canvas is drawn");
  await assertReachable(page, current, "the current page");
}

for (const [i, [w, h]] of [
  [1024, 768],
  [768, 1024],
  [1280, 800],
  [1440, 900],
].entries()) {
  test(`${w}×${h}: the current page, the palette and the selected tag's properties are in reach`, async () => {
    const { ctx, page, problems } = await open(srv.roomURL, w, h);
    await page.screenshot({ path: join(artifacts, `layout-${w}x${h}.png`) });
    await assertViewer(page, h);
    await assertReachable(page, page.locator("[data-palette]"), "the palette");

    // Place a tag by picking it and clicking the page: its properties show.
    await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').click();
    const first = page.locator(".viewer-page").first();
    await first.scrollIntoViewIfNeeded();
    await Promise.all([page.waitForResponse(isTagSave("POST")), first.click({ position: { x: 40, y: 60 + 45 * i } })]);
    await page.locator("[data-tag-props-form]").waitFor();
    await assertReachable(page, page.locator("[data-tag-props-form]"), "the selected tag's properties");
    await assertReachable(page, page.locator('[data-prop="x"]'), "the X field");
    await page.screenshot({ path: join(artifacts, `layout-${w}x${h}-selected.png`) });
    // Leave the demo room as it was for the next size's screenshot.
    await Promise.all([page.waitForResponse(isTagSave("DELETE")), page.locator("[data-tag-props-form]").getByRole("button", { name: "Delete tag" }).click()]);

    // The people sit beside the palette (the list is the signer picker); the
    // documents are a column on wide screens, a drawer on a portrait tablet.
    const people = page.locator(".room-participants");
    await assertReachable(page, people, "the participants");
    assert.equal(await page.locator("#room-panel .room-participants").count(), 1, "people in the palette's column");
    if (w < 1024) {
      assert.equal(await page.getByRole("button", { name: "People", exact: true }).isVisible(), false, "no People sheet: they are in view");
      await page.getByRole("button", { name: "Documents", exact: true }).click();
      await assertReachable(page, page.locator(".room-thumb").first(), "a page thumbnail in the drawer");
      assert.equal(await page.evaluate(() => document.activeElement.id), "room-sidebar", "focus moves into the drawer");
      await page.keyboard.press("Escape");
      await page.locator(".room-docs").waitFor({ state: "hidden" });
      assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), "Documents", "focus goes back to the opener");
      await page.getByRole("button", { name: "Documents", exact: true }).click();
      await page.locator("#room-sidebar").getByRole("button", { name: "Close" }).click();
      await page.locator(".room-docs").waitFor({ state: "hidden" });
    } else {
      assert.equal(await page.locator("[data-room-dock]").isVisible(), false, "no dock on a wide screen");
    }
    assert.deepEqual(problems, []);
    await ctx.close();
  });
}

test("390×844 (phone): full-width pages, sheets for palette, properties and people, a tag placed by tap and moved with the arrow buttons", async () => {
  const [w, h] = [390, 844];
  const { ctx, page, problems } = await open(srv.roomURL, w, h, true);
  await page.screenshot({ path: join(artifacts, `layout-${w}x${h}.png`) });
  await assertViewer(page, h);
  const pageBox = await page.locator(".viewer-page").first().boundingBox();
  assert.ok(pageBox.width >= w - 24, `the page is ${pageBox.width}px wide on a ${w}px screen`);
  assert.equal(await page.locator("[data-palette]").isVisible(), false, "the palette waits in its sheet");

  // The palette sheet: opened by its button, focus inside, Escape closes it and focus returns.
  const tools = page.getByRole("button", { name: "Add tags" });
  await assertReachable(page, tools, "the palette's opener");
  await tools.tap();
  await page.locator("[data-palette]").waitFor({ state: "visible" });
  await page.waitForFunction(() => getComputedStyle(document.querySelector("#room-panel")).transform === "none");
  await assertReachable(page, page.locator("[data-palette]"), "the palette in its sheet");
  assert.equal(await page.locator("#room-panel").getAttribute("role"), "dialog");
  assert.equal(await page.evaluate(() => document.activeElement.id), "room-panel");
  await page.screenshot({ path: join(artifacts, `layout-${w}x${h}-sheet.png`) });
  await page.keyboard.press("Escape");
  await page.locator("[data-palette]").waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), "Add tags");

  // Place by tap: pick the type (the sheet closes), tap the page.
  await tools.tap();
  await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').tap();
  await page.locator("[data-palette]").waitFor({ state: "hidden" });
  assert.match(await page.locator("[data-placing-hint]").textContent(), /Tap a page to place “Signature”/);
  const first = page.locator(".viewer-page").first();
  const [created] = await Promise.all([page.waitForResponse(isTagSave("POST")), first.tap({ position: { x: 60, y: 200 } })]);
  assert.equal(created.status(), 201, await created.text());
  const id = /data-tag-id="([^"]+)"/.exec(await created.text())[1];
  const roomID = await page.locator("[data-room-id]").getAttribute("data-room-id");
  const { transactionId } = await srv.api("GET", `/api/v1/markup-rooms/${roomID}`);
  // The API's tags carry no id: find this one by where the page says it is.
  const tagEl = page.locator(`.tag[data-tag-id="${id}"]`);
  // The page and the server are compared once the editor has nothing in flight (no pending tag, no
  // save under way): reading the element between a save's answer and its swap read a stale place.
  const stored = async () => {
    await page.waitForFunction(() => !document.querySelector(".tag--pending") && !window.markupRoomHistory?.busy);
    const [x, y] = await tagEl.evaluate((el) => [Number(el.dataset.x), Number(el.dataset.y)]);
    const all = (await srv.transaction(transactionId)).documents.flatMap((d) => d.tags);
    return all.find((t) => Math.abs(t.x - x) < 0.01 && Math.abs(t.y - y) < 0.01);
  };
  const before = await stored();
  assert.ok(before, "the placed tag is stored");

  // The arrow buttons move it, 5 pt a press: right twice, down once (PDF y grows upwards).
  const saved = (res) => res.url().endsWith(`/tags/${id}`) && res.request().method() === "PUT";
  const nudge = async (name) => {
    await Promise.all([page.waitForResponse(saved), page.getByRole("button", { name }).tap()]);
  };
  await assertReachable(page, page.getByRole("button", { name: "Move the tag right 5 pt" }), "the arrow buttons");
  await nudge("Move the tag right 5 pt");
  await nudge("Move the tag right 5 pt");
  await nudge("Move the tag down 5 pt");
  const after = await stored();
  assert.ok(Math.abs(after.x - (before.x + 10)) < 0.01, `x ${before.x} → ${after.x}`);
  assert.ok(Math.abs(after.y - (before.y - 5)) < 0.01, `y ${before.y} → ${after.y}`);
  assert.equal(after.width, before.width);
  // The keyboard still works too.
  await page.locator(`.tag[data-tag-id="${id}"]`).focus();
  await Promise.all([page.waitForResponse(saved), page.keyboard.press("ArrowLeft")]);
  assert.ok(Math.abs((await stored()).x - (before.x + 9)) < 0.01);

  // The properties sheet shows the selected tag.
  const props = page.getByRole("button", { name: "Properties" });
  await props.tap();
  const x = page.locator('[data-prop="x"]');
  await x.waitFor({ state: "visible" });
  await page.waitForFunction(() => getComputedStyle(document.querySelector("#room-panel")).transform === "none");
  await assertReachable(page, x, "the X field in the properties sheet");
  assert.ok(Math.abs(Number(await x.inputValue()) - (before.x + 9)) < 0.01);
  assert.equal(await page.locator("[data-palette]").isVisible(), false, "the properties sheet shows the properties only");
  await page.locator("#room-panel").getByRole("button", { name: "Close" }).tap();
  await x.waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), "Properties");

  // The session checklist's "Place tags" (Robin has no tag yet) opens the palette sheet.
  await page.getByRole("button", { name: "Create e-signature session" }).tap();
  await page.locator("#session-dialog").getByRole("link", { name: "Place tags" }).first().tap();
  await page.getByRole("dialog", { name: "Add tags" }).waitFor();
  await page.locator("[data-palette]").waitFor({ state: "visible" });
  await page.keyboard.press("Escape");
  await page.locator("[data-palette]").waitFor({ state: "hidden" });

  // People: a sheet of their own.
  await page.getByRole("button", { name: "People", exact: true }).tap();
  await page.locator(".room-participants").waitFor({ state: "visible" });
  await page.getByRole("dialog", { name: "People" }).waitFor();
  assert.equal(await page.locator(".room-docs").isVisible(), false);
  assert.equal(await page.locator("[data-palette]").isVisible(), false, "the people sheet shows only the people");
  await page.waitForFunction(() => getComputedStyle(document.querySelector("#room-panel")).transform === "none");
  await assertReachable(page, page.getByRole("button", { name: "Add Participant" }), "Add Participant in the people sheet");
  // A tap beside the sheet closes it.
  await page.mouse.click(w / 2, 20);
  await page.locator(".room-participants").waitFor({ state: "hidden" });

  // A page moved from the documents sheet rebuilds the room: the sheet stays open, and closes cleanly.
  await page.getByRole("button", { name: "Documents", exact: true }).tap();
  await page.locator(".room-docs").waitFor({ state: "visible" });
  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  await Promise.all([
    page.waitForResponse((r) => /\/pages\/\d+\/move$/.test(r.url())),
    page.locator('.room-doc[data-document="1"] .room-thumb[data-page="1"]').getByRole("button", { name: "Move page 1 down" }).tap(),
  ]);
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale);
  await page.locator(".room-docs").waitFor({ state: "visible" });
  assert.equal(await page.locator("#room-sidebar").getAttribute("role"), "dialog", "the rebuilt room keeps the sheet open");
  await page.keyboard.press("Escape");
  await page.locator(".room-docs").waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => [...document.querySelectorAll("[inert]")].length), 0, "nothing stays inert");
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("adding a landscape document leaves the portrait pages as wide as they were (fit width per document)", async () => {
  const portrait = await srv.upload(makePDF([{ width: 612, height: 792 }, { width: 612, height: 792 }]), "Portrait letter");
  const r = await srv.room([portrait]);
  const { ctx, page, problems } = await open(r.url, 1280, 800);
  const width = () => page.locator(`.viewer-page[data-document-id="${portrait.id}"][data-page="1"]`).evaluate((el) => el.getBoundingClientRect().width);
  const before = await width();
  await page.evaluate(() => (window.markupRoomViewer.stale = true));
  await Promise.all([
    page.waitForResponse((res) => res.url().includes("/documents") && res.request().method() === "POST"),
    page.locator("[data-upload-input]").setInputFiles({ name: "plan.pdf", mimeType: "application/pdf", buffer: makePDF([{ width: 1224, height: 792, label: "Site plan" }]) }),
  ]);
  await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale && document.querySelectorAll(".viewer-doc").length === 2);
  const after = await width();
  assert.ok(Math.abs(after - before) < 0.5, `the portrait page went from ${before}px to ${after}px wide`);
  const wide = await page.locator('.viewer-doc[data-doc-position="1"] .viewer-page').evaluate((el) => ({ w: el.getBoundingClientRect().width, avail: el.closest(".viewer").clientWidth }));
  assert.ok(wide.w <= wide.avail, "the landscape page fits the viewer's width too");
  assert.ok(Math.abs(wide.w - before) < 0.5, "and is as wide as the portrait page");
  await page.locator('.viewer-doc[data-doc-position="1"] .viewer-page').scrollIntoViewIfNeeded();
  await page.locator('.viewer-doc[data-doc-position="1"] .viewer-page--rendered').waitFor();
  await page.screenshot({ path: join(artifacts, "layout-landscape-1280x800.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("a completed room: a short summary, whole e-mail addresses, no link validity, the first page in view", async () => {
  const doc = await srv.upload(makePDF([{ width: 612, height: 792 }]), "Listing agreement");
  const r = await srv.api("POST", "/api/v1/markup-rooms", {
    senderId: srv.senderId,
    documents: [doc.location],
    participants: [
      { firstName: "Alexandra", lastName: "Montgomery-Castellanos", email: "alexandra.montgomery-castellanos@international-realty-partners.example.com" },
      { firstName: "Robin", lastName: "Seller", email: "robin.seller@example.com" },
    ],
  });
  {
    const { ctx, page } = await open(r.url, 1440, 900);
    for (const who of ["Alexandra", "Robin"]) {
      await page.locator("[data-signer-picker] label", { hasText: who }).click();
      await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').click();
      await Promise.all([page.waitForResponse(isTagSave("POST")), page.locator(".viewer-page").first().click({ position: { x: who === "Robin" ? 300 : 60, y: 500 } })]);
    }
    await page.getByRole("button", { name: "Create e-signature session" }).click();
    await createSession(page);
    await page.locator("[data-room-summary]").waitFor();
    await ctx.close();
  }
  const roomPage = `${srv.base}/rooms/${r.id}`;
  // The link's session cookie lives in the context that opened it: open the room URL again in each.
  for (const [w, h, phone] of [
    [1024, 768, false],
    [390, 844, true],
  ]) {
    const { ctx, page, problems } = await open(r.url, w, h, phone);
    assert.ok(page.url().startsWith(roomPage), page.url());
    await page.locator("[data-room-summary]").waitFor();
    await page.screenshot({ path: join(artifacts, `layout-completed-${w}x${h}.png`) });
    assert.doesNotMatch(await page.locator(".room").innerText(), /valid until/i);
    const emails = await page.locator("[data-summary-email]").evaluateAll((els) =>
      els.map((el) => {
        const cs = getComputedStyle(el);
        // Every line box of the address starts at a break point: after "@" or before ".".
        const range = document.createRange();
        const text = el.textContent.replace(/\s+/g, "");
        const lines = [];
        let node;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let lastTop = null;
        while ((node = walker.nextNode())) {
          for (let i = 0; i < node.length; i++) {
            if (/\s/.test(node.data[i])) continue;
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            if (lastTop === null || top > lastTop + 2) lines.push("");
            lines[lines.length - 1] += node.data[i];
            lastTop = top;
          }
        }
        return { text, lines, overflowWrap: cs.overflowWrap, wordBreak: cs.wordBreak };
      }),
    );
    assert.equal(emails.length, 2);
    for (const e of emails) {
      assert.notEqual(e.overflowWrap, "anywhere", e.text);
      assert.notEqual(e.wordBreak, "break-all", e.text);
      assert.equal(e.lines.join(""), e.text);
      for (let i = 1; i < e.lines.length; i++) {
        assert.ok(e.lines[i].startsWith(".") || e.lines[i - 1].endsWith("@"), `${e.text} breaks mid-word: ${JSON.stringify(e.lines)}`);
      }
    }
    const top = await page.locator(".viewer-page").first().evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < h - 150, `the first page starts at ${top}px of ${h}`);
    assert.deepEqual(problems, []);
    await ctx.close();
  }
});
