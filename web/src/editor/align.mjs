// Align, distribute and same size for a selection: pure geometry on the
// rectangles as the page shows them, in points ({left, top, width, height}
// from the page's top-left corner at zoom 1, i.e. after the crop box offset
// and /Rotate: "left" is the left the user sees). The editor converts each
// tag's PDF rectangle to that space and back (coords.mjs), page by page:
// align and distribute work among the tags of one page (tags on other pages
// are lined up with their own page's members), same size applies the first
// selected tag's size to every member. Node-tested (web/test/align.test.mjs).

/** The bounding box of rectangles. */
export function bounds(rects) {
  const left = Math.min(...rects.map((r) => r.left));
  const top = Math.min(...rects.map((r) => r.top));
  const right = Math.max(...rects.map((r) => r.left + r.width));
  const bottom = Math.max(...rects.map((r) => r.top + r.height));
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * Lines up rectangles on their common bounding box: how is "left",
 * "center" (vertical centre line), "right", "top", "middle" (horizontal
 * centre line) or "bottom". Sizes are kept; a new array in the same order.
 */
export function align(rects, how) {
  if (rects.length < 2) return rects.map((r) => ({ ...r }));
  const b = bounds(rects);
  return rects.map((r) => {
    switch (how) {
      case "left":
        return { ...r, left: b.left };
      case "right":
        return { ...r, left: b.left + b.width - r.width };
      case "center":
        return { ...r, left: b.left + (b.width - r.width) / 2 };
      case "top":
        return { ...r, top: b.top };
      case "bottom":
        return { ...r, top: b.top + b.height - r.height };
      case "middle":
        return { ...r, top: b.top + (b.height - r.height) / 2 };
      default:
        throw new Error(`unknown alignment ${how}`);
    }
  });
}

/**
 * Spaces rectangles evenly along axis "horizontal" or "vertical": the first
 * and last (by position) stay, the ones between move so that the gaps
 * between neighbours are equal. Fewer than three change nothing.
 */
export function distribute(rects, axis) {
  const out = rects.map((r) => ({ ...r }));
  if (rects.length < 3) return out;
  const [pos, size] = axis === "vertical" ? ["top", "height"] : ["left", "width"];
  const order = out.map((r, i) => i).sort((a, b) => out[a][pos] - out[b][pos] || a - b);
  const first = out[order[0]];
  const last = out[order[order.length - 1]];
  const span = last[pos] + last[size] - first[pos];
  const gap = (span - order.reduce((s, i) => s + out[i][size], 0)) / (order.length - 1);
  let at = first[pos] + first[size] + gap;
  for (const i of order.slice(1, -1)) {
    out[i][pos] = at;
    at += out[i][size] + gap;
  }
  return out;
}

/**
 * Gives every rectangle the width ("width"), height ("height") or both
 * ("size") of ref (the first selected tag), keeping each top-left corner.
 */
export function sameSize(rects, which, ref) {
  return rects.map((r) => ({
    ...r,
    width: which === "height" ? r.width : ref.width,
    height: which === "width" ? r.height : ref.height,
  }));
}

/** Keeps a rectangle inside a page of w × h points (moved in; shrunk only when larger). */
export function keepInside(r, w, h) {
  const width = Math.min(r.width, w);
  const height = Math.min(r.height, h);
  return { left: Math.min(Math.max(r.left, 0), w - width), top: Math.min(Math.max(r.top, 0), h - height), width, height };
}
