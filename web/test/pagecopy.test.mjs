import { test } from "node:test";
import assert from "node:assert/strict";
import { copyToPage, pageBox, parsePages } from "../src/editor/pagecopy.mjs";
import { displaySize, pdfRectToScreen, rectInside } from "../src/editor/coords.mjs";
import "./english.mjs"; // the editor speaks English in these tests

test("parsePages reads lists, ranges and the words all, odd and even", () => {
  assert.deepEqual(parsePages("2-5, 8", 10), { pages: [2, 3, 4, 5, 8] });
  assert.deepEqual(parsePages("  8 ,2 - 5 ", 10), { pages: [2, 3, 4, 5, 8] });
  assert.deepEqual(parsePages("2–5", 10), { pages: [2, 3, 4, 5] }, "en dash");
  assert.deepEqual(parsePages("all", 4), { pages: [1, 2, 3, 4] });
  assert.deepEqual(parsePages("ALL", 2), { pages: [1, 2] });
  assert.deepEqual(parsePages("odd", 5), { pages: [1, 3, 5] });
  assert.deepEqual(parsePages("even", 5), { pages: [2, 4] });
  assert.deepEqual(parsePages("odd, 4", 5), { pages: [1, 3, 4, 5] });
  assert.deepEqual(parsePages("3", 3), { pages: [3] });
});

test("parsePages merges duplicates, sorts, and never lists more than the document's pages", () => {
  assert.deepEqual(parsePages("5, 1-3, 2, 3-5, all", 6), { pages: [1, 2, 3, 4, 5, 6] });
  assert.deepEqual(parsePages("4,4,4", 6), { pages: [4] });
  const { pages } = parsePages("1-20, 1-20, odd, even", 20);
  assert.equal(pages.length, 20);
});

test("parsePages refuses with a sentence that says what is wrong", () => {
  assert.match(parsePages("5-2", 10).error, /runs backwards: write it as 2–5/);
  assert.match(parsePages("12", 10).error, /Page 12 does not exist: the document has 10 pages/);
  assert.match(parsePages("0-3", 10).error, /Page 0 does not exist/);
  assert.match(parsePages("2-999999999", 3).error, /the document has 3 pages/, "a huge range is refused before it is counted");
  assert.match(parsePages("2", 1).error, /the document has 1 page\./);
  assert.match(parsePages("two", 10).error, /“two” is not a page number or a range/);
  assert.match(parsePages("2-", 10).error, /not a page number/);
  assert.match(parsePages("1.5", 10).error, /not a page number/);
  assert.match(parsePages("even", 1).error, /no even page/);
  for (const empty of ["", "   ", ",", null, undefined]) assert.match(parsePages(empty, 10).error, /Name the pages/);
  assert.match(parsePages("1,".repeat(1500), 10).error, /too long/);
  assert.match(parsePages("1", 0).error, /no pages/);
});

const letter = { box: [0, 0, 612, 792], rotate: 0 };
const tag = { x: 72, y: 100, width: 150, height: 30 };

/** The tag's centre as fractions of the displayed page (from the top-left), and its displayed size. */
function seen(r, page) {
  const box = pageBox(page.box);
  const size = displaySize(box, page.rotate);
  const s = pdfRectToScreen(box, page.rotate, 1, r);
  return { cx: (s.left + s.width / 2) / size.width, cy: (s.top + s.height / 2) / size.height, width: s.width, height: s.height };
}

function assertSameSpot(from, fromPage, to, toPage) {
  const a = seen(from, fromPage);
  const b = seen(to, toPage);
  assert.ok(Math.abs(a.cx - b.cx) < 1e-3 && Math.abs(a.cy - b.cy) < 1e-3, `centre ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  assert.ok(Math.abs(a.width - b.width) < 0.011 && Math.abs(a.height - b.height) < 0.011, `size as seen ${a.width}×${a.height} → ${b.width}×${b.height}`);
  assert.ok(rectInside(pageBox(toPage.box), to), `inside ${JSON.stringify(to)}`);
}

test("copyToPage: a page of the same size gets the same rectangle", () => {
  assert.deepEqual(copyToPage(tag, letter, { box: [0, 0, 612, 792], rotate: 0 }), tag);
  assert.deepEqual(copyToPage(tag, letter, letter), tag);
});

test("copyToPage: a larger page keeps the size and the relative spot", () => {
  const tabloid = { box: [0, 0, 792, 1224], rotate: 0 };
  const r = copyToPage(tag, letter, tabloid);
  assert.equal(r.width, 150);
  assert.equal(r.height, 30);
  assertSameSpot(tag, letter, r, tabloid);
});

test("copyToPage: a cropped page measures from its crop box", () => {
  const cropped = { box: [36, 48, 576, 744], rotate: 0 };
  const r = copyToPage(tag, letter, cropped);
  assertSameSpot(tag, letter, r, cropped);
  // And back from a cropped page with an offset box: relative to that box, not to 0,0.
  const onCrop = { x: 136, y: 148, width: 100, height: 20 };
  const back = copyToPage(onCrop, cropped, letter);
  assertSameSpot(onCrop, cropped, back, letter);
});

test("copyToPage: a landscape page gets the tag upright at the same relative spot", () => {
  const landscape = { box: [0, 0, 792, 612], rotate: 0 };
  const r = copyToPage(tag, letter, landscape);
  assert.equal(r.width, 150);
  assert.equal(r.height, 30);
  assertSameSpot(tag, letter, r, landscape);
});

test("copyToPage: a /Rotate 90 page gets the tag as the user sees it (width and height swap in PDF space)", () => {
  const turned = { box: [0, 0, 612, 792], rotate: 90 }; // shown landscape, 792 × 612
  const r = copyToPage(tag, letter, turned);
  assert.equal(r.width, 30, "150 points wide on screen is 150 points high in the page's user space");
  assert.equal(r.height, 150);
  assertSameSpot(tag, letter, r, turned);
  for (const rotate of [180, 270]) {
    const page = { box: [0, 0, 612, 792], rotate };
    assertSameSpot(tag, letter, copyToPage(tag, letter, page), page);
  }
  // From a turned page back to an upright one.
  const onTurned = { x: 300, y: 500, width: 20, height: 120 };
  assertSameSpot(onTurned, turned, copyToPage(onTurned, turned, letter), letter);
  // A turned page onto itself is the identity.
  assert.deepEqual(copyToPage(onTurned, turned, turned), onTurned);
});

test("copyToPage: a tag near the right and top edges stays inside a smaller page", () => {
  const corner = { x: 462, y: 752, width: 150, height: 40 }; // touching the right and top edges of Letter
  const a6 = { box: [0, 0, 298, 420], rotate: 0 };
  const r = copyToPage(corner, letter, a6);
  assert.deepEqual(r, { x: 148, y: 380, width: 150, height: 40 }, "moved in against the same corner, size kept");
  assert.ok(rectInside(pageBox(a6.box), r));
  // Near the top edge of a rotated, cropped page.
  const turnedCrop = { box: [20, 30, 320, 450], rotate: 90 };
  const t2 = copyToPage(corner, letter, turnedCrop);
  assert.ok(rectInside(pageBox(turnedCrop.box), t2), JSON.stringify(t2));
  assert.equal(t2.width, 40);
  assert.equal(t2.height, 150);
});

test("copyToPage shrinks a tag only when it is larger than the target's box", () => {
  const wide = { x: 10, y: 10, width: 500, height: 30 };
  const small = { box: [0, 0, 298, 420], rotate: 0 };
  assert.deepEqual(copyToPage(wide, letter, small), { x: 0, y: 0, width: 298, height: 30 });
});

test("pageBox reads an array, a box object and data-box text, corners in any order", () => {
  const want = { llx: 0, lly: 10, urx: 612, ury: 792 };
  assert.deepEqual(pageBox([0, 10, 612, 792]), want);
  assert.deepEqual(pageBox([612, 792, 0, 10]), want);
  assert.deepEqual(pageBox({ llx: 0, lly: 10, urx: 612, ury: 792 }), want);
  assert.deepEqual(pageBox("0 10 612 792"), want);
});
