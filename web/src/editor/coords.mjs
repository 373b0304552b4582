// Conversions between PDF user space and the screen, for one page.
//
// PDF: points, origin at the bottom-left, y upwards; a page shows its crop box
// {llx, lly, urx, ury} turned clockwise by /Rotate (0, 90, 180, 270).
// Screen: CSS pixels inside the page element, origin at its top-left corner,
// y downwards; `scale` is CSS pixels per point (zoom × 96/72).
// Pure functions only: unit-tested with node's test runner (web/test/).

/** CSS pixels per PDF point at 100 % zoom (96 dpi screen, 72 points an inch). */
export const CSS_PER_POINT = 96 / 72;

/** Normalises a /Rotate value to 0, 90, 180 or 270. */
export function normalizeRotation(rotate) {
  const r = ((Math.round(Number(rotate) / 90) * 90) % 360 + 360) % 360;
  return Number.isFinite(r) ? r : 0;
}

/** The page's displayed size in points (width and height swap at 90 and 270). */
export function displaySize(box, rotate) {
  const w = box.urx - box.llx;
  const h = box.ury - box.lly;
  return normalizeRotation(rotate) % 180 === 0 ? { width: w, height: h } : { width: h, height: w };
}

/** Maps a PDF point to screen pixels. */
export function pdfToScreen(box, rotate, scale, x, y) {
  switch (normalizeRotation(rotate)) {
    case 90:
      return [(y - box.lly) * scale, (x - box.llx) * scale];
    case 180:
      return [(box.urx - x) * scale, (y - box.lly) * scale];
    case 270:
      return [(box.ury - y) * scale, (box.urx - x) * scale];
    default:
      return [(x - box.llx) * scale, (box.ury - y) * scale];
  }
}

/** Maps screen pixels back to a PDF point. */
export function screenToPdf(box, rotate, scale, sx, sy) {
  const u = sx / scale;
  const v = sy / scale;
  switch (normalizeRotation(rotate)) {
    case 90:
      return [box.llx + v, box.lly + u];
    case 180:
      return [box.urx - u, box.lly + v];
    case 270:
      return [box.urx - v, box.ury - u];
    default:
      return [box.llx + u, box.ury - v];
  }
}

/** Maps a PDF rectangle {x, y, width, height} (bottom-left corner) to a screen rectangle {left, top, width, height}. */
export function pdfRectToScreen(box, rotate, scale, r) {
  const [ax, ay] = pdfToScreen(box, rotate, scale, r.x, r.y);
  const [bx, by] = pdfToScreen(box, rotate, scale, r.x + r.width, r.y + r.height);
  return { left: Math.min(ax, bx), top: Math.min(ay, by), width: Math.abs(bx - ax), height: Math.abs(by - ay) };
}

/** Maps a screen rectangle to a PDF rectangle, rounded to 1/100 point. */
export function screenRectToPdf(box, rotate, scale, r) {
  const [ax, ay] = screenToPdf(box, rotate, scale, r.left, r.top);
  const [bx, by] = screenToPdf(box, rotate, scale, r.left + r.width, r.top + r.height);
  return {
    x: roundPoint(Math.min(ax, bx)),
    y: roundPoint(Math.min(ay, by)),
    width: roundPoint(Math.abs(bx - ax)),
    height: roundPoint(Math.abs(by - ay)),
  };
}

/** Turns a move on screen (points right and down) into a move in PDF space. */
export function screenDeltaToPdf(rotate, right, down) {
  switch (normalizeRotation(rotate)) {
    case 90:
      return [down, right];
    case 180:
      return [-right, down];
    case 270:
      return [-down, -right];
    default:
      return [right, -down];
  }
}

/** Size in PDF points {width, height} of a tag that shows w × h points on screen. */
export function screenSizeToPdf(rotate, w, h) {
  return normalizeRotation(rotate) % 180 === 0 ? { width: w, height: h } : { width: h, height: w };
}

/** Keeps a PDF rectangle inside the box: moved in, and shrunk only if larger than the box. */
export function clampRect(box, r) {
  const width = Math.min(r.width, box.urx - box.llx);
  const height = Math.min(r.height, box.ury - box.lly);
  const x = Math.min(Math.max(r.x, box.llx), box.urx - width);
  const y = Math.min(Math.max(r.y, box.lly), box.ury - height);
  return { x: roundPoint(x), y: roundPoint(y), width: roundPoint(width), height: roundPoint(height) };
}

/** Keeps a screen rectangle inside a page of w × h pixels (moved in, shrunk if larger). */
export function clampScreenRect(r, w, h) {
  const width = Math.min(r.width, w);
  const height = Math.min(r.height, h);
  return {
    left: Math.min(Math.max(r.left, 0), w - width),
    top: Math.min(Math.max(r.top, 0), h - height),
    width,
    height,
  };
}

/** Whether the PDF rectangle lies inside the box (with a tolerance for rounding). */
export function rectInside(box, r, eps = 1e-6) {
  return (
    r.width > 0 &&
    r.height > 0 &&
    r.x >= box.llx - eps &&
    r.y >= box.lly - eps &&
    r.x + r.width <= box.urx + eps &&
    r.y + r.height <= box.ury + eps
  );
}

/** Rounds to 1/100 point, the precision the editor stores. */
export function roundPoint(v) {
  return Math.round(v * 100) / 100;
}

/** Parses "llx lly urx ury" as written by the server. */
export function parseBox(s) {
  const [llx, lly, urx, ury] = String(s).trim().split(/\s+/).map(Number);
  return { llx, lly, urx, ury };
}

/**
 * Moves a PDF rectangle by (right, down) points on screen, kept inside the
 * box. Width and height are kept exactly (a move never resizes); only the
 * corner is rounded to 1/100 point.
 */
export function moveRect(box, rotate, r, right, down) {
  const [dx, dy] = screenDeltaToPdf(rotate, right, down);
  const x = roundPoint(Math.min(Math.max(r.x + dx, box.llx), box.urx - r.width));
  const y = roundPoint(Math.min(Math.max(r.y + dy, box.lly), box.ury - r.height));
  return { x, y, width: r.width, height: r.height };
}

// Which PDF edge each screen edge of a tag is, per /Rotate, and whether a
// move right/down on screen increases (+1) or decreases (−1) it.
const EDGES = {
  0: { w: ["x0", 1], e: ["x1", 1], n: ["y1", -1], s: ["y0", -1] },
  90: { w: ["y0", 1], e: ["y1", 1], n: ["x0", 1], s: ["x1", 1] },
  180: { w: ["x1", -1], e: ["x0", -1], n: ["y0", 1], s: ["y1", 1] },
  270: { w: ["y1", -1], e: ["y0", -1], n: ["x1", -1], s: ["x0", -1] },
};

/**
 * Resizes a PDF rectangle by dragging the screen edges named in dir ("n",
 * "se", "w", …) by (right, down) points on screen. Edges not dragged stay
 * exactly where they were; a dragged edge stays inside the box and at least
 * min points from its opposite edge, rounded to 1/100 point.
 */
export function resizeRect(box, rotate, r, dir, right, down, min = 4) {
  const e = { x0: r.x, x1: roundPoint(r.x + r.width), y0: r.y, y1: roundPoint(r.y + r.height) };
  const map = EDGES[normalizeRotation(rotate)];
  const limits = { x0: [box.llx, () => e.x1 - min], x1: [() => e.x0 + min, box.urx], y0: [box.lly, () => e.y1 - min], y1: [() => e.y0 + min, box.ury] };
  const val = (v) => (typeof v === "function" ? v() : v);
  for (const side of ["n", "s", "w", "e"]) {
    if (!dir.includes(side)) continue;
    const [edge, sign] = map[side];
    const delta = side === "n" || side === "s" ? down : right;
    const [lo, hi] = limits[edge];
    e[edge] = roundPoint(Math.min(Math.max(e[edge] + sign * delta, val(lo)), val(hi)));
  }
  return { x: e.x0, y: e.y0, width: roundPoint(e.x1 - e.x0), height: roundPoint(e.y1 - e.y0) };
}
