// Browser tests of "a room that reads at a glance" (issue 16, item 3): the
// people in one place (the participants list is the signer picker), signer
// colours that are colour-blind safe and always paired with initials, the
// palette with icons and descriptions, tags readable at every zoom, the
// field list, the header and per-document page numbering, and visible
// success that keeps the user where they were.
//
// Screenshots: web/e2e/artifacts/glance-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { makePDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, artifacts, createSession } from "./lib/server.mjs";
import { openRoom, savesDrawn } from "./lib/room.mjs";
import { eventually } from "./lib/wait.mjs";

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

/** Opens url at w×h; waits for the first page. */
const open = (url, w = 1440, h = 900) => openRoom(browser, url, { viewport: { width: w, height: h } });

/** A fresh room on a three-page and a one-page document (ref: its referenceId, "" for none). */
async function freshRoom(ref = "") {
  const a = await srv.upload(makePDF([1, 2, 3].map((n) => ({ width: 612, height: 792, label: `Agreement ${n}` }))), "Purchase agreement");
  const b = await srv.upload(makePDF([{ width: 612, height: 792, label: "Disclosure 1" }]), "Disclosure");
  const body = {
    senderId: srv.senderId,
    documents: [a.location, b.location],
    participants: [
      { firstName: "Pat", lastName: "Buyer", email: "pat@example.com" },
      { firstName: "Robin", lastName: "Seller", email: "robin@example.com" },
    ],
    ...(ref ? { referenceId: ref } : {}),
  };
  return srv.api("POST", "/api/v1/markup-rooms", body);
}

/** Places a tag of type on page n (1-based, across documents) at x, y (pixels in the page); resolves once it is drawn. */
async function place(page, type, n, x, y) {
  await page.locator(`[data-palette] [data-tag-type="${type}"]`).click();
  const target = page.locator(".viewer-page").nth(n - 1);
  await target.scrollIntoViewIfNeeded();
  const [res] = await Promise.all([page.waitForResponse(isTagSave("POST")), target.click({ position: { x, y } })]);
  await savesDrawn(page);
  return res;
}

/** Relative luminance contrast of two CSS rgb() colours. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test("people in one place: the participants list is the signer picker, each with colour, initials, name, tag count and a menu", async () => {
  const r = await freshRoom();
  const { ctx, page, problems } = await open(r.url);
  const list = page.locator(".room-participants");
  // One list, in the side column with the palette; no second picker elsewhere.
  assert.equal(await page.locator("[data-signer-picker]").count(), 1);
  assert.equal(await list.locator("[data-signer-picker]").count(), 1, "the picker is the participants list");
  assert.equal(await page.locator("#room-panel .room-participants").count(), 1, "the people sit beside the palette");
  assert.equal(await page.locator("#room-sidebar .room-participants").count(), 0, "not at the foot of the documents");
  const robin = list.locator(".room-participant", { hasText: "Robin Seller" });
  assert.equal((await robin.locator(".signer-chip").textContent()).trim(), "RS", "initials beside the colour");
  await robin.locator("summary").click();
  await robin.getByRole("button", { name: "Edit" }).waitFor();
  assert.equal(await robin.getByRole("button", { name: "Remove" }).count(), 1);
  await robin.locator("summary").click();
  await list.getByRole("button", { name: "Add Participant" }).waitFor();

  // Choosing Robin in the list gives new tags to Robin, and Robin's count follows.
  await page.locator("[data-signer-picker] label", { hasText: "Robin Seller" }).click();
  const res = await place(page, "SIGNATURETEMPLATE", 1, 80, 120);
  const tag = page.locator(".viewer-page .tag[data-tag-id]").first();
  await tag.waitFor();
  const robinId = await robin.getAttribute("data-participant-id");
  assert.equal(await tag.getAttribute("data-signer-id"), robinId);
  assert.ok(res.ok());
  await robin.locator(`[data-tag-count-signer="${robinId}"]`, { hasText: "1 tag" }).waitFor();
  await page.screenshot({ path: join(artifacts, "glance-people.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("signer colours: colour-blind safe, never the error red, each with initials whose text is legible on it", async () => {
  const r = await freshRoom();
  const { ctx, page } = await open(r.url);
  const colours = await page.evaluate(() => {
    const out = [];
    for (let i = 0; i < 10; i++) {
      const el = document.createElement("span");
      el.className = `signer-c${i} signer-chip`;
      el.textContent = "AB";
      document.body.append(el);
      const cs = getComputedStyle(el);
      out.push({ tag: cs.getPropertyValue("--tag").trim().toLowerCase(), bg: cs.backgroundColor, fg: cs.color });
      el.remove();
    }
    const probe = document.createElement("span");
    probe.style.color = "var(--color-danger)";
    document.body.append(probe);
    const danger = getComputedStyle(probe).color;
    probe.remove();
    return { out, danger };
  });
  // Okabe–Ito (without black and vermillion), then Paul Tol's muted scheme.
  assert.deepEqual(colours.out.map((c) => c.tag), ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#332288", "#999933", "#aa4499", "#117733", "#ddcc77"]);
  for (const c of colours.out) {
    assert.notEqual(c.bg, colours.danger, "never the error red");
    assert.ok(contrast(c.bg, c.fg) >= 4.5, `initials on ${c.tag}: contrast ${contrast(c.bg, c.fg).toFixed(2)}`);
  }
  // Tags carry their signer's initials too.
  await page.locator("[data-signer-picker] label", { hasText: "Pat Buyer" }).click();
  await place(page, "SIGNATURETEMPLATE", 1, 80, 120);
  await page.locator(".viewer-page .tag[data-tag-id] .tag__signer", { hasText: "PB" }).waitFor();
  await ctx.close();
});

test("the header names the transaction by its referenceId and the documents by title, on one line from 768 to 1440 px; pages are numbered per document", async () => {
  const r = await freshRoom("HOUSE-2291 Maple Street closing with a rather long reference name");
  for (const [w, h] of [[768, 1024], [1024, 768], [1280, 800], [1440, 900]]) {
    const { ctx, page } = await open(r.url, w, h);
    const h1 = page.getByRole("heading", { level: 1 });
    assert.equal((await h1.textContent()).trim(), "HOUSE-2291 Maple Street closing with a rather long reference name");
    assert.equal(await h1.getAttribute("title"), "HOUSE-2291 Maple Street closing with a rather long reference name", "the full name is its tooltip");
    const meta = page.locator(".room-header__meta");
    assert.match(await meta.getAttribute("title"), /^Purchase agreement · Disclosure — prepared for /);
    // One line: heading, details and action share a row, and the header is one line tall.
    const box = await page.evaluate(() => {
      const r = (s) => document.querySelector(s).getBoundingClientRect();
      const [t, m, a] = [r(".room-header__heading"), r(".room-header__meta"), r(".room-header__action")];
      const lh = parseFloat(getComputedStyle(document.querySelector(".room-header__meta")).lineHeight) || 20;
      return { tMid: (t.top + t.bottom) / 2, mTop: m.top, mBottom: m.bottom, aTop: a.top, aBottom: a.bottom, mHeight: m.height, lh, header: r(".room-header").height };
    });
    assert.ok(box.mHeight <= box.lh * 1.5, `${w}px: the details take ${box.mHeight}px, more than one line`);
    assert.ok(box.tMid > box.aTop && box.tMid < box.aBottom, `${w}px: the heading and the action share a row`);
    assert.ok(box.header < 72, `${w}px: the header is ${box.header}px tall`);
    if (w === 1024) await page.screenshot({ path: join(artifacts, "glance-header-1024.png") });

    // The toolbar, the thumbnails and the page badges number pages within their document.
    const bar = page.locator("[data-viewer-toolbar]");
    assert.equal((await bar.locator("[data-page-doc]").textContent()).trim(), "Purchase agreement");
    assert.equal(await bar.locator("[data-page-total]").textContent(), "3");
    assert.equal(await page.locator('.viewer-page[data-page="2"] .viewer-page__number').first().textContent(), "Purchase agreement · page 2 of 3");
    await page.locator('.room-doc[data-document="1"] .room-thumb[data-page="1"] .room-thumb__text span').first().evaluate((el) => el.textContent).then((t) => assert.equal(t, "Page 1 of 1"));
    if (w === 1440) {
      // Scrolled to the second document: the toolbar names it, page 1 of 1; typing 2 stays within it.
      await page.locator('.viewer-doc[data-doc-position="1"] .viewer-page').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector("[data-page-doc]").textContent === "Disclosure");
      assert.equal(await bar.locator("[data-page-total]").textContent(), "1");
      assert.equal(await bar.getByLabel("Jump to page").inputValue(), "1");
      await page.locator('.viewer-doc[data-doc-position="0"] .viewer-page').first().scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector("[data-page-doc]").textContent === "Purchase agreement");
      await bar.getByLabel("Jump to page").fill("3");
      await bar.getByLabel("Jump to page").press("Enter");
      await page.waitForFunction(() => document.querySelector("[data-page-input]").value === "3" && document.querySelector("[data-page-doc]").textContent === "Purchase agreement");
    }
    await ctx.close();
  }
  // Without a referenceId, a short label: never the 36-character id.
  const plain = await freshRoom();
  const { ctx, page } = await open(plain.url);
  const name = (await page.getByRole("heading", { level: 1 }).textContent()).trim();
  assert.equal(name, "Purchase agreement + 1 more");
  assert.doesNotMatch(await page.locator(".room-header").textContent(), /[0-9a-f]{8}-[0-9a-f]{4}-/);
  await ctx.close();
});

test("the palette: an icon and a plain name per type from the SVG sprite, a description on hover and on focus, no cut labels, the notary group folds", async () => {
  const r = await freshRoom();
  for (const [w, h] of [[1440, 900], [1024, 768]]) {
    const { ctx, page, problems } = await open(r.url, w, h);
    const palette = page.locator("[data-palette]");
    // The sprite is an SVG file of static/, referenced with <use href>, drawn (no icon font).
    const sig = palette.locator('[data-tag-type="SIGNATURETEMPLATE"]');
    const href = await sig.locator("svg use").getAttribute("href");
    assert.match(href, /^\/static\/img\/tags\.[0-9a-f]+\.svg#signature$/);
    const res = await page.request.get(new URL(href, page.url()).href);
    assert.equal(res.headers()["content-type"].split(";")[0], "image/svg+xml");
    assert.ok((await sig.locator("svg").evaluate((el) => el.querySelector("use").getBBox().width)) > 0, "the icon is drawn");
    assert.equal((await sig.textContent()).trim(), "Signature", "a plain name");
    // Every visible type shows its whole name.
    const cut = await palette.locator("[data-tag-type]").evaluateAll((els) => els.filter((b) => b.offsetParent && (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)).map((b) => b.textContent));
    assert.deepEqual(cut, [], `${w}px: cut labels`);
    // Hover: the description of "Sign here" says the signer signs there; "Signature" is applied.
    const signHere = palette.locator('[data-tag-type="SIGNHERETAGTEMPLATEANNOTATION"]');
    await signHere.hover();
    const tip = page.locator("#palette-tip-SIGNHERETAGTEMPLATEANNOTATION");
    await tip.waitFor({ state: "visible" });
    assert.match(await tip.textContent(), /asks the signer to sign/);
    if (w === 1440) await page.screenshot({ path: join(artifacts, "glance-palette-hover.png") });
    await page.mouse.move(5, 5);
    await tip.waitFor({ state: "hidden" });
    // Focus (keyboard): the same line, and it describes the button.
    await page.locator('[data-palette] [data-tag-type="INITIALSTEMPLATE"]').focus();
    await page.keyboard.press("Tab");
    const initialHere = page.locator("#palette-tip-INITIALHERETAGTEMPLATEANNOTATION");
    await initialHere.waitFor({ state: "visible" });
    assert.match(await initialHere.textContent(), /asks the signer to initial/);
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-describedby")), "palette-tip-INITIALHERETAGTEMPLATEANNOTATION");
    // The notary group starts folded and opens; its hooks stay.
    const notary = palette.locator('[data-tag-type="NOTARYSTATETEMPLATE"]');
    assert.equal(await notary.isVisible(), false, "notary fields folded away");
    await palette.locator('[data-palette-group="notary"] > summary').click();
    await notary.waitFor({ state: "visible" });
    const cutNotary = await palette.locator('[data-palette-group="notary"] [data-tag-type]').evaluateAll((els) => els.filter((b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1).length);
    assert.equal(cutNotary, 0);
    if (w === 1440) await page.locator("#room-panel").screenshot({ path: join(artifacts, "glance-palette.png") });
    assert.deepEqual(problems, []);
    await ctx.close();
  }
});

test("tags on the page read at 50, 100 and 200 %: icon, name and initials when they fit, icon and initials when not, never a cut name; required marker; a date tag previews its format", async () => {
  const r = await freshRoom();
  const { ctx, page, problems } = await open(r.url);
  await page.locator("#viewer-zoom").selectOption("1");
  await page.locator("[data-signer-picker] label", { hasText: "Pat Buyer" }).click();
  await place(page, "INITIALSTEMPLATE", 1, 60, 100);
  await place(page, "SIGNATURETEMPLATE", 1, 200, 100);
  await place(page, "DATETEMPLATE", 1, 60, 200);
  const tags = page.locator(".viewer-page .tag[data-tag-id]");
  await page.waitForFunction(() => document.querySelectorAll(".viewer-page .tag[data-tag-id][data-label]").length === 3);
  const read = () =>
    tags.evaluateAll((els) =>
      els.map((t) => {
        const shown = (s) => {
          const el = t.querySelector(s);
          return !!el && getComputedStyle(el).display !== "none";
        };
        const type = t.querySelector(".tag__type");
        return {
          type: t.dataset.tagType,
          mode: t.dataset.label,
          icon: shown(".tag__icon") && t.querySelector(".tag__icon use").getBBox().width > 0,
          text: shown(".tag__type") ? type.textContent : "",
          cut: shown(".tag__type") && type.scrollWidth > type.clientWidth + 1,
          initials: shown(".tag__signer") ? t.querySelector(".tag__signer").textContent : "",
          required: shown(".tag__req"),
        };
      }),
    );
  for (const zoom of ["0.5", "1", "2"]) {
    await page.locator("#viewer-zoom").selectOption(zoom);
    await page.waitForFunction((z) => Math.abs(window.markupRoomViewer.zoom - Number(z)) < 1e-6, zoom);
    await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
    const seen = await read();
    for (const t of seen) {
      assert.equal(t.cut, false, `${zoom}: ${t.type} shows a cut name`);
      // (A tag too narrow for its words beside the initials says its type alone: its colour says whose, issue 40.)
      assert.equal(t.initials, t.mode === "name" ? "" : "PB", `${zoom}: ${t.type} shows its signer's initials`);
      const expected = { full: !!t.text && t.icon, text: !!t.text && !t.icon, name: !!t.text && !t.icon, compact: !t.text && t.icon, mini: !t.text }[t.mode];
      assert.ok(expected, `${zoom}: ${t.type} in ${t.mode} mode shows ${JSON.stringify(t)}`);
    }
    const by = Object.fromEntries(seen.map((t) => [t.type, t]));
    if (zoom === "0.5") {
      assert.notEqual(by.INITIALSTEMPLATE.mode, "full", "a small tag at 50 %: no room for its name");
      assert.ok(["compact", "mini"].includes(by.INITIALSTEMPLATE.mode), by.INITIALSTEMPLATE.mode);
    }
    if (zoom === "2") {
      for (const t of seen) assert.equal(t.mode, "full", `200 %: ${t.type} shows everything`);
      assert.equal(by.SIGNATURETEMPLATE.text, "Signature");
      assert.equal(by.DATETEMPLATE.text, "Date signed · MM/DD/YYYY", "the date tag says what it holds, in the default format");
      assert.ok(by.SIGNATURETEMPLATE.required, "new tags are required: the marker shows");
      await page.locator(".viewer-page").first().screenshot({ path: join(artifacts, "glance-tags-200.png") });
    }
    if (zoom === "0.5") await page.locator(".viewer-page").first().screenshot({ path: join(artifacts, "glance-tags-50.png") });
  }
  // The date format chosen in the properties shows on the tag; "not required" drops the marker.
  const date = page.locator('.viewer-page .tag[data-tag-type="DATETEMPLATE"]');
  await date.click();
  await Promise.all([page.waitForResponse(isTagSave("PUT")), page.locator("#tag-prop-date-format").selectOption("MMMM do, yyyy")]);
  await page.waitForFunction(() => /^(Date signed · )?MMMM do, yyyy$/.test(document.querySelector('.viewer-page .tag[data-tag-type="DATETEMPLATE"] .tag__type').textContent));
  await eventually(async () => assert.match(await date.getAttribute("aria-label"), /, to be filled in$/, "a required tag says so to screen readers too"));
  await Promise.all([page.waitForResponse(isTagSave("PUT")), page.locator("#tag-prop-required").uncheck()]);
  await date.locator(".tag__req").waitFor({ state: "detached" });
  await eventually(async () => assert.doesNotMatch(await date.getAttribute("aria-label"), /to be filled in/));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the field list: every tag by participant, document and page with counts, unassigned first and marked; a click scrolls to the tag and selects it; it keeps in step", async () => {
  const r = await freshRoom();
  const { ctx, page, problems } = await open(r.url);
  await page.locator("#viewer-zoom").selectOption("1");
  const list = page.locator("[data-field-list]");
  await page.locator("[data-signer-picker] label", { hasText: "Pat Buyer" }).click();
  await place(page, "SIGNATURETEMPLATE", 1, 60, 100);
  await place(page, "DATETEMPLATE", 4, 60, 300); // the Disclosure's only page
  await page.locator("[data-signer-picker] label", { hasText: "Robin Seller" }).click();
  await place(page, "INITIALSTEMPLATE", 2, 60, 120);
  await place(page, "FULLNAMETEMPLATE", 3, 60, 500);
  // One made unassigned in the properties, once they show the tag just placed (as a user sees it).
  await page.waitForFunction(() => document.querySelector("[data-tag-props-type]")?.textContent === "Full name");
  await Promise.all([page.waitForResponse(isTagSave("PUT")), page.locator("#tag-prop-signer").selectOption("")]);
  // The list is rebuilt after the server's answer is swapped in (the total stays 4, so wait for the group).
  await page.waitForFunction(() => document.querySelector("[data-field-total]").textContent === "4" && document.querySelector('[data-field-group="unassigned"]'));

  const groups = await list.locator(".field-group").evaluateAll((els) =>
    els.map((g) => ({
      who: g.querySelector(".field-group__name").textContent,
      count: g.querySelector(".field-group__head .field-list__count").textContent,
      docs: [...g.querySelectorAll(".field-doc")].map((d) => `${d.querySelector(".field-doc__title").textContent} ${d.querySelector(".field-doc__head .field-list__count").textContent}: ${[...d.querySelectorAll(".field-page__head")].map((p) => p.textContent).join(", ")}`),
    })),
  );
  assert.deepEqual(groups, [
    { who: "Unassigned", count: "1", docs: ["Purchase agreement 1: Page 31"] },
    { who: "Pat Buyer", count: "2", docs: ["Purchase agreement 1: Page 11", "Disclosure 1: Page 11"] },
    { who: "Robin Seller", count: "1", docs: ["Purchase agreement 1: Page 21"] },
  ]);
  assert.equal(await list.locator(".field-group").first().getAttribute("data-field-group"), "unassigned", "unassigned first");
  assert.match(await list.locator(".field-group--unassigned .signer-chip").textContent(), /!/, "marked, not by colour alone");
  await page.screenshot({ path: join(artifacts, "glance-fields.png") });

  // A click scrolls the pages to the tag and selects it.
  const viewer = page.locator("[data-viewer]");
  await viewer.evaluate((el) => (el.scrollTop = 0));
  const dateItem = list.locator(".field-group", { hasText: "Pat Buyer" }).locator("[data-field-tag]").nth(1);
  const dateId = await dateItem.getAttribute("data-field-tag");
  await dateItem.click();
  const tag = page.locator(`.tag[data-tag-id="${dateId}"]`);
  await page.waitForFunction((id) => document.querySelector(`.tag[data-tag-id="${id}"]`).getAttribute("aria-selected") === "true", dateId);
  const inView = await tag.evaluate((el) => {
    const v = el.closest("[data-viewer]").getBoundingClientRect();
    const b = el.getBoundingClientRect();
    return b.top >= v.top && b.bottom <= v.bottom;
  });
  assert.ok(inView, "the chosen tag is in view");
  await page.locator("[data-tag-props-form]").waitFor();
  assert.equal(await page.locator("[data-tag-props-type]").textContent(), "Date");
  await list.locator(`[data-field-tag="${dateId}"][aria-current="true"]`).waitFor();

  // Removed: the list follows.
  await Promise.all([page.waitForResponse(isTagSave("DELETE")), page.locator("[data-tag-props-form]").getByRole("button", { name: "Delete tag" }).click()]);
  await page.waitForFunction(() => document.querySelector("[data-field-total]").textContent === "3");
  await eventually(async () => assert.equal(await list.locator(".field-group", { hasText: "Pat Buyer" }).locator(".field-group__head .field-list__count").textContent(), "1"));
  assert.deepEqual(problems, []);
  await ctx.close();

  // On a phone the list is a sheet; choosing a tag closes it and selects the tag.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const p2 = await phone.newPage();
  await p2.goto(r.url);
  await p2.locator(".viewer-page--rendered").first().waitFor();
  await p2.getByRole("button", { name: "Fields", exact: true }).tap();
  await p2.getByRole("dialog", { name: "Fields" }).waitFor();
  await p2.waitForFunction(() => getComputedStyle(document.querySelector("#room-sidebar")).transform === "none");
  assert.equal(await p2.locator(".room-docs").isVisible(), false, "the fields sheet shows only the fields");
  await p2.screenshot({ path: join(artifacts, "glance-fields-390x844.png") });
  const first = p2.locator("[data-field-tag]").first();
  const id = await first.getAttribute("data-field-tag");
  await first.tap();
  await p2.locator("[data-field-list]").waitFor({ state: "hidden" });
  await p2.waitForFunction((tid) => document.querySelector(`.tag[data-tag-id="${tid}"]`).getAttribute("aria-selected") === "true", id);
  await phone.close();
});

test("success is visible and keeps the place: a renamed document and a saved participant are confirmed in the status line, the pages and the side columns stay scrolled", async () => {
  const r = await freshRoom();
  const { ctx, page, problems } = await open(r.url, 1024, 768);
  await page.locator("#viewer-zoom").selectOption("1");
  for (const n of [1, 2, 3]) await place(page, "SIGNATURETEMPLATE", n, 60, 100);
  const viewer = page.locator("[data-viewer]");
  const sidebar = page.locator("#room-sidebar");
  const status = page.locator("[data-save-status]");
  assert.equal(await status.getAttribute("aria-live"), "polite");

  // The pages scrolled to page 3, the documents column to the second document.
  await page.locator(".viewer-page").nth(2).evaluate((el) => el.closest("[data-viewer]").scrollTo(0, el.offsetTop + 40));
  const doc2 = page.locator('.room-doc[data-document="1"]');
  await doc2.locator(".room-doc__rename summary").scrollIntoViewIfNeeded();
  await sidebar.evaluate((el) => el.scrollBy(0, 60));
  await doc2.locator(".room-doc__rename summary").click();
  await doc2.locator("input[name=title]").fill("Seller disclosure");
  await doc2.getByRole("button", { name: "Save title" }).scrollIntoViewIfNeeded();
  const place0 = { viewer: await viewer.evaluate((el) => el.scrollTop), sidebar: await sidebar.evaluate((el) => el.scrollTop) };
  assert.ok(place0.viewer > 500 && place0.sidebar > 0, JSON.stringify(place0));
  await Promise.all([page.waitForResponse((res) => res.url().endsWith("/documents/1/title")), doc2.getByRole("button", { name: "Save title" }).click()]);
  await status.filter({ hasText: "Renamed to “Seller disclosure”." }).waitFor();
  assert.match(page.url(), /\/rooms\/[^/]+$/, "the address stays the room's");
  await page.locator(".viewer-doc__title", { hasText: "Seller disclosure" }).waitFor();
  await eventually(async () => {
    const place1 = { viewer: await viewer.evaluate((el) => el.scrollTop), sidebar: await sidebar.evaluate((el) => el.scrollTop), sidebarMax: await sidebar.evaluate((el) => el.scrollHeight - el.clientHeight) };
    assert.ok(Math.abs(place1.viewer - place0.viewer) <= 2, `the pages stay where they were: ${place0.viewer} → ${place1.viewer}`);
    // The closed rename form makes the column shorter: it stays as far down as it now can.
    const expected = Math.min(place0.sidebar, place1.sidebarMax);
    assert.ok(expected > 0 && Math.abs(place1.sidebar - expected) <= 2, `the documents column stays scrolled: ${place0.sidebar} → ${place1.sidebar} (of ${place1.sidebarMax})`);
    assert.equal(await page.locator("[data-page-input]").inputValue(), "3", "still on page 3");
  });

  // A participant saved: confirmed, and everything stays where it was.
  const panel = page.locator("#room-panel");
  await panel.evaluate((el) => el.scrollTo(0, 40));
  const before = { viewer: await viewer.evaluate((el) => el.scrollTop), panel: await panel.evaluate((el) => el.scrollTop) };
  const pat = page.locator(".room-participant", { hasText: "Pat Buyer" });
  await pat.locator("summary").click();
  await pat.getByRole("button", { name: "Edit" }).click();
  const dialog = page.locator("dialog[open]");
  await dialog.getByLabel("Last name", { exact: true }).fill("Buyer-Smith");
  await Promise.all([page.waitForResponse((res) => res.request().method() === "POST" && /\/participants\/[^/]+$/.test(res.url())), dialog.getByRole("button", { name: "Save participant" }).click()]);
  await status.filter({ hasText: "Saved Pat Buyer-Smith." }).waitFor();
  await page.locator(".room-participant", { hasText: "Pat Buyer-Smith" }).waitFor();
  await eventually(async () => {
    const after = { viewer: await viewer.evaluate((el) => el.scrollTop), panel: await panel.evaluate((el) => el.scrollTop) };
    assert.ok(Math.abs(after.viewer - before.viewer) <= 2, `the pages stay: ${before.viewer} → ${after.viewer}`);
    assert.ok(Math.abs(after.panel - before.panel) <= 2, `the side column stays: ${before.panel} → ${after.panel}`);
  });
  await page.screenshot({ path: join(artifacts, "glance-saved-1024x768.png") });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("screenshots: the room at five sizes, each dialog, the field list and the completed room (web/e2e/artifacts/glance-*.png)", async () => {
  const r = await freshRoom("HOUSE-2291 Maple Street");
  let { ctx, page, problems } = await open(r.url, 1280, 800);
  await page.locator("#viewer-zoom").selectOption("1");
  for (const [who, type, n, x, y] of [["Pat Buyer", "SIGNATURETEMPLATE", 1, 60, 420], ["Pat Buyer", "DATETEMPLATE", 1, 300, 440], ["Robin Seller", "INITIALSTEMPLATE", 2, 60, 420], ["Robin Seller", "SIGNHERETAGTEMPLATEANNOTATION", 4, 60, 400]]) {
    await page.locator("[data-signer-picker] label", { hasText: who }).click();
    await place(page, type, n, x, y);
  }
  await page.keyboard.press("Escape");
  await ctx.close();
  for (const [w, h] of [[1440, 900], [1280, 800], [1024, 768], [768, 1024], [390, 844]]) {
    ({ ctx, page } = await open(r.url, w, h));
    await page.screenshot({ path: join(artifacts, `glance-room-${w}x${h}.png`) });
    if (w >= 1024) {
      await page.locator("[data-field-list]").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(artifacts, `glance-fields-${w}x${h}.png`) });
    } else {
      await page.getByRole("button", { name: "Fields", exact: true }).click();
      await page.waitForFunction(() => getComputedStyle(document.querySelector("#room-sidebar")).transform === "none");
      await page.screenshot({ path: join(artifacts, `glance-fields-${w}x${h}.png`) });
      await page.keyboard.press("Escape");
      if (w < 768) {
        await page.getByRole("button", { name: "People", exact: true }).click();
        await page.waitForFunction(() => getComputedStyle(document.querySelector("#room-panel")).transform === "none");
        await page.screenshot({ path: join(artifacts, `glance-people-${w}x${h}.png`) });
        await page.keyboard.press("Escape");
      }
    }
    await ctx.close();
  }

  // Each dialog, at 1280×800.
  ({ ctx, page, problems } = await open(r.url, 1280, 800));
  await page.getByRole("button", { name: "Add Participant" }).click();
  const add = page.locator("dialog#participant-add");
  await add.waitFor({ state: "visible" });
  await page.screenshot({ path: join(artifacts, "glance-dialog-participant-add.png") });
  await add.getByLabel("First name", { exact: true }).fill("Casey");
  await add.getByLabel("Last name", { exact: true }).fill("Witness");
  await add.getByLabel("E-mail", { exact: true }).fill("casey@example.com");
  await add.getByLabel("Authentication", { exact: true }).selectOption("personal-password");
  await add.getByRole("button", { name: "Save participant" }).click();
  await page.locator("dialog#participant-add[open] [data-form-errors]").waitFor();
  await page.screenshot({ path: join(artifacts, "glance-dialog-participant-errors.png") });
  await page.keyboard.press("Escape");
  await page.locator("dialog[open]").waitFor({ state: "hidden" });
  const pat = page.locator(".room-participant", { hasText: "Pat Buyer" });
  await pat.locator("summary").click();
  await page.screenshot({ path: join(artifacts, "glance-participant-menu.png") });
  await pat.getByRole("button", { name: "Edit" }).click();
  await page.locator("dialog[open]").waitFor();
  await page.screenshot({ path: join(artifacts, "glance-dialog-participant-edit.png") });
  await page.keyboard.press("Escape");
  await page.locator("dialog[open]").waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Create e-signature session" }).click();
  const session = page.locator("#session-dialog");
  await session.locator("[data-checklist][data-ready]").waitFor();
  assert.equal(await add.evaluate((d) => d.open), false, "a refused dialog, once closed, does not come back when the checklist is swapped in");
  await page.screenshot({ path: join(artifacts, "glance-dialog-session.png") });
  await createSession(page);
  await page.locator("[data-room-summary]").waitFor();
  await page.locator(".viewer-page--rendered").first().waitFor();
  for (const [w, h] of [[1440, 900], [1280, 800], [1024, 768], [768, 1024], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
    await page.screenshot({ path: join(artifacts, `glance-completed-${w}x${h}.png`) });
  }
  // The refused participant form answers 422 on purpose.
  assert.deepEqual(problems.filter((p) => !p.includes("status of 422")), []);
  await ctx.close();
});

test("390×844: the dock's four buttons fit the width", async () => {
  const r = await freshRoom();
  const { ctx, page } = await open(r.url, 390, 844);
  const boxes = await page.locator(".room-dock__sheets .btn").evaluateAll((els) => els.filter((b) => b.offsetParent).map((b) => ({ text: b.textContent.trim(), right: b.getBoundingClientRect().right, cut: b.scrollWidth > b.clientWidth })));
  assert.deepEqual(boxes.map((b) => b.text), ["Documents", "Fields", "People", "Add tags"]);
  for (const b of boxes) assert.ok(b.right <= 390 && !b.cut, `${b.text}: right edge ${b.right}`);
  await ctx.close();
});
