// The order in which the viewer renders the pages it wants: the page most
// in view first (not the oldest request), then the others by how much of
// them shows, then the ones out of view (neighbours) nearest that page
// first; ties by position. Pure, so node tests it.

/**
 * pages: the pages waiting ({index}); ratioOf(page): the share of it in
 * view (0 when out of view). Returns a new array, the first to render first.
 */
export function renderOrder(pages, ratioOf) {
  let focus = null;
  let best = -1;
  for (const p of pages) {
    const r = ratioOf(p) || 0;
    if (r > best || (r === best && p.index < focus.index)) {
      focus = p;
      best = r;
    }
  }
  const at = focus ? focus.index : 0;
  return [...pages].sort(
    (a, b) => (ratioOf(b) || 0) - (ratioOf(a) || 0) || Math.abs(a.index - at) - Math.abs(b.index - at) || a.index - b.index,
  );
}
