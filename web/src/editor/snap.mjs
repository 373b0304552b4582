// Snapping while a tag is moved, resized or drawn: pure geometry in the
// page's shown space (points from its top-left corner at zoom 1, after crop
// box and /Rotate, as align.mjs). A rectangle's left/centre/right (and
// top/middle/bottom) snap to the other tags' edges and centres on the page,
// to the page's edges and to a 36 pt (half-inch) margin inside them, when
// one lies within the threshold (the editor passes 6 screen pixels in
// points: 6 / scale). A snap that would put the tag off the page is not
// taken. Node-tested (web/test/snap.test.mjs).

/** The page margin tags snap to, in points from each edge of the shown page. */
export const SNAP_MARGIN = 36;

/** Screen pixels within which an edge snaps. */
export const SNAP_PIXELS = 6;

/**
 * The lines a rectangle snaps to on a page of w × h points with the other
 * tags' rectangles: {x: [{at, kind}], y: [{at, kind}]}; kind says what the
 * line is ("tag", "page", "margin").
 */
export function snapLines(others, w, h) {
  const x = [
    { at: 0, kind: "page" }, { at: w, kind: "page" }, { at: w / 2, kind: "page" },
    { at: SNAP_MARGIN, kind: "margin" }, { at: w - SNAP_MARGIN, kind: "margin" },
  ];
  const y = [
    { at: 0, kind: "page" }, { at: h, kind: "page" }, { at: h / 2, kind: "page" },
    { at: SNAP_MARGIN, kind: "margin" }, { at: h - SNAP_MARGIN, kind: "margin" },
  ];
  for (const r of others) {
    x.push({ at: r.left, kind: "tag" }, { at: r.left + r.width / 2, kind: "tag" }, { at: r.left + r.width, kind: "tag" });
    y.push({ at: r.top, kind: "tag" }, { at: r.top + r.height / 2, kind: "tag" }, { at: r.top + r.height, kind: "tag" });
  }
  return { x, y };
}

/** The best snap of edges (values along one axis) to lines within threshold: {offset, at, kind} or null. */
function nearest(edges, lines, threshold, fits) {
  let best = null;
  for (const e of edges) {
    for (const l of lines) {
      const d = l.at - e;
      if (Math.abs(d) > threshold || !fits(d)) continue;
      if (!best || Math.abs(d) < Math.abs(best.offset)) best = { offset: d, at: l.at, kind: l.kind };
    }
  }
  return best;
}

/**
 * Snaps a moved rectangle (size kept) on a page of w × h points: returns
 * {dx, dy, guides}, the shift to apply and the guide lines ({axis: "x"|"y",
 * at, kind}) it snapped to. A shift that would put it off the page is not
 * taken.
 */
export function snapMove(r, lines, w, h, threshold) {
  const gx = nearest([r.left, r.left + r.width / 2, r.left + r.width], lines.x, threshold, (d) => r.left + d >= -1e-9 && r.left + r.width + d <= w + 1e-9);
  const gy = nearest([r.top, r.top + r.height / 2, r.top + r.height], lines.y, threshold, (d) => r.top + d >= -1e-9 && r.top + r.height + d <= h + 1e-9);
  const guides = [];
  if (gx) guides.push({ axis: "x", at: gx.at, kind: gx.kind });
  if (gy) guides.push({ axis: "y", at: gy.at, kind: gy.kind });
  return { dx: gx ? gx.offset : 0, dy: gy ? gy.offset : 0, guides };
}

/**
 * Snaps the edges named in dir ("n", "se", "w", …) of a rectangle being
 * resized or drawn: only those edges move, each to the nearest line within
 * threshold, never off the page and never closer than min to the opposite
 * edge. Returns {rect, guides}.
 */
export function snapEdges(r, dir, lines, w, h, threshold, min = 4) {
  let [l, t, rt, b] = [r.left, r.top, r.left + r.width, r.top + r.height];
  const guides = [];
  const take = (axis, edge, lo, hi) => {
    const g = nearest([edge], axis === "x" ? lines.x : lines.y, threshold, (d) => edge + d >= lo - 1e-9 && edge + d <= hi + 1e-9);
    if (!g) return edge;
    guides.push({ axis, at: g.at, kind: g.kind });
    return edge + g.offset;
  };
  if (dir.includes("w")) l = take("x", l, 0, rt - min);
  if (dir.includes("e")) rt = take("x", rt, l + min, w);
  if (dir.includes("n")) t = take("y", t, 0, b - min);
  if (dir.includes("s")) b = take("y", b, t + min, h);
  return { rect: { left: l, top: t, width: rt - l, height: b - t }, guides };
}
