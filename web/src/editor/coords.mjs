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
