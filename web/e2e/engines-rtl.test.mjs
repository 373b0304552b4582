// Right to left (issue #31 "Languages", docs/i18n.md "Right to left") on three
// browser engines, through web/e2e/lib/engine.mjs —
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-rtl.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// With ?lang=ar the chrome mirrors and the pages do not: <html dir="rtl">, the
// documents column on the right of the pages and the palette on their left
// (the other way round in English); a tag placed and dragged at the same spot
// of the page gets the same PDF coordinates in both languages; ArrowRight
// nudges it to the page's right; the page area stays left to right (the same
// page position in its container, computed direction ltr); the thumbnail's
// context menu opens inside the window; nothing is wider than a 390 px phone,
// in the room or in the console.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertNoProblems } from "./lib/room.mjs";
import { signIn, assertConsoleFits } from "./lib/admin.mjs";

const T = { timeout: 240000 };
// WebKitGTK's MiniBrowser window is never narrower than about 447 px: there the
// phone is 460×844, still the phone layout (below 48rem, 768 px) the others get at 390.
const PHONE = engine === "webkit" ? { width: 460, height: 844 } : { width: 390, height: 844 };
let srv, browser, mixed, room;

before(async () => {
  srv = await startServer();
  browser = await launch();
  mixed = await srv.upload(mixedPDF(), "Mixed pages");
  room = await srv.room([mixed]);
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
const pageSel = (n) => `.viewer-page[data-document-id="${mixed.id}"][data-page="${n}"]`;
const tagSel = (id) => `.tag[data-tag-id="${id}"]`;

/** The boxes of the room's columns, the page area's direction and a page's place in it. */
const layout = (page) =>
  page.eval((sel) => {
    const box = (s) => {
      const r = document.querySelector(s)?.getBoundingClientRect();
      return r ? { left: r.left, right: r.right, width: r.width } : null;
    };
    const viewer = document.querySelector(".viewer");
    const pg = document.querySelector(sel);
    return {
      dir: document.documentElement.dir,
      lang: document.documentElement.lang,
      documents: box(".room-layout > .app-sidebar"),
      pages: box(".viewer"),
      palette: box("[data-palette]"),
      viewerDir: getComputedStyle(viewer).direction,
      pageDir: getComputedStyle(pg).direction,
      pageLeft: pg.getBoundingClientRect().left - viewer.getBoundingClientRect().left - viewer.clientLeft + viewer.scrollLeft,
    };
  }, pageSel(1));

/** Places a Signature tag at (x, y) of page 1 (zoom 100 %), drags it by (dx, dy); its PDF rectangle after each step. */
async function placeAndDrag(page, at, by) {
  await page.select("[data-zoom-select]", "1");
  await page.waitFor(() => !window.markupRoomViewer.fit && Math.abs(window.markupRoomViewer.zoom - 1) < 1e-6);
  await page.click(`[data-palette] [data-tag-type="SIGNATURETEMPLATE"]`);
  const req = await page.request("POST", /\/tags$/, () => page.click(pageSel(1), { offset: at }));
  assert.equal(req.status, 201, req.body);
  const id = /data-tag-id="([^"]+)"/.exec(req.body)[1];
  await page.waitForSelector(`${tagSel(id)}[data-placed]`, { visible: true });
  const rect = (id) => page.eval((sel) => ({ x: Number(document.querySelector(sel).dataset.x), y: Number(document.querySelector(sel).dataset.y) }), tagSel(id));
  const placed = await rect(id);
  const b = await page.reveal(tagSel(id));
  const from = { x: b.x + 6, y: b.y + b.height / 2 };
  await page.request("PUT", new RegExp(`/tags/${id}$`), () => page.drag(from, { x: from.x + by.x, y: from.y + by.y }));
  await page.waitFor((a) => Number(document.querySelector(a.sel).dataset.x) !== a.x, { sel: tagSel(id), x: placed.x });
  const dragged = await rect(id);
  return { id, placed, dragged, rect };
}

test(`${engine}: right to left the chrome mirrors and the pages do not`, T, async () => {
  const seen = {};
  for (const lang of ["en", "ar"]) {
    const page = await pages.openRoom(inLang(room.url, lang));
    const l = await layout(page);
    assert.equal(l.lang, lang, `${engine} ${lang}: <html lang>`);
    assert.equal(l.dir, lang === "ar" ? "rtl" : "ltr", `${engine} ${lang}: <html dir>`);
    assert.equal(l.viewerDir, "ltr", `${engine} ${lang}: the page area reads left to right`);
    assert.equal(l.pageDir, "ltr", `${engine} ${lang}: a page reads left to right`);
    seen[lang] = { layout: l, ...(await placeAndDrag(page, { x: 120, y: 160 }, { x: 48, y: 36 })) };
    await page.screenshot(`rtl-room-${lang}`);
    await assertNoProblems(page);
    await page.close();
  }
  const { en, ar } = seen;
  // The columns: documents on the left of the pages in English, on their right in Arabic; the palette the other way.
  assert.ok(en.layout.documents.right <= en.layout.pages.left + 1, `${engine} en: the documents column is left of the pages ${JSON.stringify(en.layout)}`);
  assert.ok(en.layout.palette.left >= en.layout.pages.right - 1, `${engine} en: the palette is right of the pages`);
  assert.ok(ar.layout.documents.left >= ar.layout.pages.right - 1, `${engine} ar: the documents column is right of the pages ${JSON.stringify(ar.layout)}`);
  assert.ok(ar.layout.palette.right <= ar.layout.pages.left + 1, `${engine} ar: the palette is left of the pages`);
  assert.ok(Math.abs(ar.layout.documents.width - en.layout.documents.width) < 1, `${engine}: the documents column keeps its width`);
  // The page itself is where it was in its container, and the tags keep their PDF coordinates.
  assert.ok(Math.abs(ar.layout.pageLeft - en.layout.pageLeft) < 1, `${engine}: the page's left edge in the page area: ${en.layout.pageLeft} (en), ${ar.layout.pageLeft} (ar)`);
  assert.deepEqual(ar.placed, en.placed, `${engine}: a tag placed at the same point of the page`);
  assert.deepEqual(ar.dragged, en.dragged, `${engine}: a tag dragged by the same distance`);
  assert.ok(ar.dragged.x > ar.placed.x, `${engine} ar: dragged to the right is to the page's right`);
});

test(`${engine}: right to left ArrowRight nudges the selected tag to the page's right`, T, async () => {
  const page = await pages.openRoom(inLang(room.url, "ar"));
  const { id, dragged, rect } = await placeAndDrag(page, { x: 200, y: 320 }, { x: 24, y: 0 });
  await page.click(tagSel(id), { offset: { x: 6, y: 6 } });
  await page.waitFor((sel) => document.querySelector(sel).getAttribute("aria-selected") === "true", tagSel(id));
  await page.request("PUT", new RegExp(`/tags/${id}$`), () => page.press("ArrowRight"));
  await page.waitFor((a) => Number(document.querySelector(a.sel).dataset.x) === a.x + 1, { sel: tagSel(id), x: dragged.x }, { message: `${engine}: ArrowRight moves the tag 1 pt right` });
  const now = await rect(id);
  assert.equal(now.y, dragged.y, `${engine}: the nudge keeps the tag's height on the page`);
  await page.request("PUT", new RegExp(`/tags/${id}$`), () => page.press("ArrowLeft"));
  await page.waitFor((a) => Number(document.querySelector(a.sel).dataset.x) === a.x, { sel: tagSel(id), x: dragged.x }, { message: `${engine}: ArrowLeft moves it back` });
  await assertNoProblems(page);
});

test(`${engine}: right to left the thumbnail's context menu opens inside the window, towards the left`, T, async () => {
  const page = await pages.openRoom(inLang(room.url, "ar"));
  const thumb = ".room-thumb .room-thumb__link";
  const b = await page.reveal(thumb);
  const at = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
  await page.clickAt(at.x, at.y, { button: "right" });
  await page.waitForSelector("[data-control='thumbnail-context-menu']", { visible: true });
  const m = await page.eval(() => {
    const r = document.querySelector("[data-control='thumbnail-context-menu']").getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: innerWidth, height: innerHeight };
  });
  assert.ok(m.left >= 0 && m.right <= m.width && m.top >= 0 && m.bottom <= m.height, `${engine}: the menu is inside the window ${JSON.stringify(m)}`);
  assert.ok(m.right <= at.x + 1, `${engine}: the menu opens left of the pointer ${JSON.stringify({ m, at })}`);
  await page.press("Escape");
});

test(`${engine}: right to left nothing is wider than a phone, in the room or in the console`, T, async () => {
  const page = await pages.openRoom(inLang(room.url, "ar"), PHONE);
  const overflow = (p) => p.eval(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok((await overflow(page)) <= 0, `${engine}: the room is wider than the phone by ${await overflow(page)} px`);
  await page.screenshot("rtl-room-phone");
  await page.close();

  // The console's navigation wraps on a phone (app.css): there only the width counts;
  // at a tablet's width it is one line, uncut, read from the right.
  const admin = await pages.newPage(PHONE);
  await signIn(admin, srv);
  for (const path of ["/admin", "/admin/transactions", "/admin/rooms"]) {
    await admin.goto(srv.base + path + "?lang=ar");
    await admin.waitForSelector("h1");
    assert.equal(await admin.eval(() => document.documentElement.dir), "rtl", `${engine} ${path}: <html dir>`);
    assert.ok((await overflow(admin)) <= 0, `${engine} ${path}: wider than the phone`);
  }
  await admin.screenshot("rtl-console-phone");
  await admin.close();

  const wide = await pages.newPage({ width: 1024, height: 768 });
  await signIn(wide, srv);
  for (const path of ["/admin", "/admin/transactions", "/admin/rooms"]) {
    await wide.goto(srv.base + path + "?lang=ar");
    await wide.waitForSelector("h1");
    await assertConsoleFits(wide, `${path} in ar at 1024`);
  }
  await assertNoProblems(wide);
});
