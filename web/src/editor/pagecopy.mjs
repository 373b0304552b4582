// Copy to pages: which pages a user named, and where a tag lands on each.
// Pure functions only: unit-tested with node's test runner (web/test/).
//
// A page is {box, rotate}: box its crop box in PDF user space, as
// [x1, y1, x2, y2] or {llx, lly, urx, ury} (parseBox of .viewer-page's
// data-box), rotate its /Rotate (data-rotate). Tag rectangles are
// {x, y, width, height} in PDF points from the bottom-left corner of user
// space (a tag's data-x/y/w/h).
//
// The rule (docs/frontend.md, "Copy to pages"): the copy keeps the tag's
// size in points as the user sees it (upright on screen: a tag 150 wide and
// 30 high on screen is 150 wide and 30 high on every target page, whatever
// its /Rotate), and its centre keeps its relative place on the displayed
// page — the same fraction of the displayed width from the left and of the
// displayed height from the top — measured inside each page's crop box. The
// result is then moved inside the target's crop box, and shrunk only if it
// is larger than that box. A landscape target page gets the tag at the same
// relative spot of its wider, lower face.
import { displaySize, normalizeRotation, parseBox, pdfRectToScreen, clampRect, screenRectToPdf } from "./coords.mjs";
import { t } from "./i18n.mjs";

/** The most characters parsePages reads (a list of every page of a long document fits). */
const MAX_TEXT = 2000;

/**
 * Reads the pages a user typed for "copy to pages": "all", "odd", "even",
 * page numbers and ranges separated by commas ("2-5, 8"; an en or em dash
 * works as the hyphen; spaces anywhere). Returns {pages} — sorted, each page
 * once, so never more than pageCount entries — or {error} with a sentence
 * for the user: a page out of range names the page count, a reversed range
 * is refused.
 */
export function parsePages(text, pageCount) {
  const n = Math.floor(Number(pageCount));
  if (!Number.isFinite(n) || n < 1) return { error: t("editor.copy_pages.no_pages") };
  const s = String(text ?? "").trim().toLowerCase();
  if (s === "") return { error: t("editor.copy_pages.name_pages") };
  if (s.length > MAX_TEXT) return { error: t("editor.copy_pages.too_long") };
  const pages = new Set();
  const pagesWord = t("editor.count.pages", { count: n });
  for (const raw of s.split(/[,;]/)) {
    const part = raw.trim();
    if (part === "") continue;
    if (part === "all" || part === "odd" || part === "even") {
      const start = part === "even" ? 2 : 1;
      const step = part === "all" ? 1 : 2;
      if (start > n) return { error: t("editor.copy_pages.no_even", { pages: pagesWord }) };
      for (let p = start; p <= n; p += step) pages.add(p);
      continue;
    }
    const m = /^(\d+)(?:\s*[-\u2013\u2014]\s*(\d+))?$/.exec(part);
    if (!m) return { error: t("editor.copy_pages.not_a_page", { text: raw.trim() }) };
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) return { error: t("editor.copy_pages.backwards", { from: String(from), to: String(to) }) };
    for (const p of [from, to]) {
      if (p < 1 || p > n) return { error: t("editor.copy_pages.no_such_page", { page: String(p), pages: pagesWord }) };
    }
    for (let p = from; p <= to; p++) pages.add(p);
  }
  if (pages.size === 0) return { error: t("editor.copy_pages.name_pages") };
  return { pages: [...pages].sort((a, b) => a - b) };
}

/** A page's crop box as {llx, lly, urx, ury}, from [x1, y1, x2, y2], {llx, …} or data-box text (corners in any order). */
export function pageBox(box) {
  let b = box;
  if (typeof b === "string") b = parseBox(b);
  if (Array.isArray(b)) b = { llx: b[0], lly: b[1], urx: b[2], ury: b[3] };
  return { llx: Math.min(b.llx, b.urx), lly: Math.min(b.lly, b.ury), urx: Math.max(b.llx, b.urx), ury: Math.max(b.lly, b.ury) };
}

/**
 * Where a copy of tagRect (on fromPage) goes on toPage, by the rule above:
 * {x, y, width, height} in toPage's PDF user space, rounded to 1/100 point,
 * inside toPage's crop box.
 */
export function copyToPage(tagRect, fromPage, toPage) {
  const fromBox = pageBox(fromPage.box);
  const toBox = pageBox(toPage.box);
  const fromRotate = normalizeRotation(fromPage.rotate || 0);
  const toRotate = normalizeRotation(toPage.rotate || 0);
  const from = displaySize(fromBox, fromRotate);
  const to = displaySize(toBox, toRotate);
  // The tag as the user sees it on the source page (points, from the top-left corner).
  const seen = pdfRectToScreen(fromBox, fromRotate, 1, tagRect);
  const cx = ((seen.left + seen.width / 2) / from.width) * to.width;
  const cy = ((seen.top + seen.height / 2) / from.height) * to.height;
  const placed = { left: cx - seen.width / 2, top: cy - seen.height / 2, width: seen.width, height: seen.height };
  const r = screenRectToPdf(toBox, toRotate, 1, placed);
  // The displayed size is kept exactly (screenRectToPdf rounds the corners, not the size).
  const sizeSwaps = toRotate % 180 !== 0;
  r.width = sizeSwaps ? seen.height : seen.width;
  r.height = sizeSwaps ? seen.width : seen.height;
  return clampRect(toBox, r);
}
