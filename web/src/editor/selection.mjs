// The selection's pure parts: an ordered list of tag ids (the first one
// chosen first: "same size" sizes to it), the marquee's hit test, how a
// group move is kept on its pages, and what the status line says.
// Node-tested (web/test/selection.test.mjs); the editor keeps the DOM side.
import { screenDeltaToPdf } from "./coords.mjs";
import { t as tr } from "./i18n.mjs";

/** The ids with id added at the end, or removed when it was there. */
export function toggleId(ids, id) {
  return ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
}

/** The ids of a followed by those of b not in a (order kept: a's first). */
export function unionIds(a, b) {
  const seen = new Set(a);
  return [...a, ...b.filter((id) => !seen.has(id) && seen.add(id))];
}

/** Whether two screen rectangles {left, top, width, height} overlap (touching edges do not). */
export function rectsOverlap(a, b) {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

/** The rectangle between two points (a drag from one corner to the other). */
export function rectFromPoints(x0, y0, x1, y1) {
  return { left: Math.min(x0, x1), top: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
}

/** The ids of the tags ({id, rect}) a marquee rectangle touches, in the tags' order. */
export function hitByMarquee(marquee, tags) {
  return tags.filter((t) => rectsOverlap(marquee, t.rect)).map((t) => t.id);
}

/** What the status line says about a selection of n tags. */
export function selectionMessage(n) {
  if (n === 0) return tr("editor.selection.cleared");
  return tr("editor.selection.count", { count: n });
}

/**
 * The move (right, down, in points on screen) of a group, shortened so that
 * every member ({box, rotate, rect}: its page's crop box and /Rotate and its
 * PDF rectangle) stays inside its page: the group keeps its shape at an
 * edge instead of members piling up against it.
 */
export function clampGroupMove(members, right, down) {
  let [rlo, rhi, dlo, dhi] = [-Infinity, Infinity, -Infinity, Infinity];
  for (const { box, rotate, rect } of members) {
    const room = { x: [box.llx - rect.x, box.urx - rect.x - rect.width], y: [box.lly - rect.y, box.ury - rect.y - rect.height] };
    // A move right (then down) of one point changes exactly one PDF axis by ±1.
    for (const [which, unit] of [["r", screenDeltaToPdf(rotate, 1, 0)], ["d", screenDeltaToPdf(rotate, 0, 1)]]) {
      const axis = unit[0] !== 0 ? "x" : "y";
      const sign = unit[0] !== 0 ? unit[0] : unit[1];
      const [a, b] = room[axis].map((v) => v / sign);
      const lo = Math.min(a, b);
      const hi = Math.max(a, b);
      if (which === "r") [rlo, rhi] = [Math.max(rlo, lo), Math.min(rhi, hi)];
      else [dlo, dhi] = [Math.max(dlo, lo), Math.min(dhi, hi)];
    }
  }
  const clamp = (v, lo, hi) => (lo > hi ? 0 : Math.min(Math.max(v, lo), hi));
  return [clamp(right, rlo, rhi) || 0, clamp(down, dlo, dhi) || 0];
}
