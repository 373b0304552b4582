// Scrolling something into view without moving the page: scrollIntoView (and
// a fragment link) scrolls every scrollable ancestor, the document's root
// too, so the room's header and toolbar could leave the window. reveal()
// scrolls only the nearest scroll container of the element (the viewer, a
// side column, a list). scrollDelta and keepDelta are pure and node-tested.

/**
 * How far to scroll a box ({start, size}: the container's visible span) so
 * that the span item ({start, size}) is shown: "start" puts it at the box's
 * start (less margin), "center" in its middle, "nearest" scrolls as little as
 * possible (nothing when it is already whole in view; its start when it is
 * larger than the box).
 */
export function scrollDelta(item, box, how = "nearest", margin = 0) {
  if (how === "start") return item.start - box.start - margin;
  if (how === "center") return item.start + item.size / 2 - (box.start + box.size / 2);
  const before = item.start - (box.start + margin);
  const after = item.start + item.size - (box.start + box.size - margin);
  if (before >= 0 && after <= 0) return 0;
  if (before < 0 || item.size > box.size - 2 * margin) return before;
  return after;
}

/**
 * delta (scrollDelta's), cut so that keep (a {start, size} span inside the
 * same box) stays whole in view: scrolling forward stops when keep's start
 * reaches the box's start, backward when its end reaches the box's end. A
 * keep already out of view holds nothing back.
 */
export function keepDelta(delta, keep, box) {
  const before = keep.start - box.start;
  const after = box.start + box.size - (keep.start + keep.size);
  if (before < 0 || after < 0) return delta;
  if (delta > 0) return Math.min(delta, before);
  return Math.max(delta, -after);
}

/** The nearest ancestor of el that scrolls its overflow (never the document's root), or null. */
export function scrollContainer(el) {
  for (let s = el.parentElement; s && s !== document.body && s !== document.documentElement; s = s.parentElement) {
    const cs = getComputedStyle(s);
    if (/(auto|scroll)/.test(cs.overflowY + cs.overflowX)) return s;
  }
  return null;
}

/** How much of box's top its sticky children cover (the signer picker atop the right column); el's own ancestor aside. */
function stuckOnTop(box, el = null) {
  let covered = 0;
  for (const c of box.children) {
    if (el && c.contains(el)) continue;
    const cs = getComputedStyle(c);
    if (cs.position === "sticky" && cs.top !== "auto") covered += c.getBoundingClientRect().height;
  }
  return covered;
}

/**
 * Scrolls el's nearest scroll container (only that one) so that el is in view:
 * block and inline are "start", "center" or "nearest" (as scrollIntoView's);
 * what a sticky child covers at the container's top does not count as in view.
 * keep (an element in the same container, such as the palette's item just
 * used) is never scrolled out of view for el's sake: el then shows as far as
 * it can (issue 40: placing a tag took the palette away).
 */
export function reveal(el, { block = "nearest", inline = "nearest", margin = 0, keep = null } = {}) {
  const box = el && scrollContainer(el);
  if (!box) return;
  const r = el.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const covered = stuckOnTop(box, el);
  const top = b.top + box.clientTop + covered;
  const left = b.left + box.clientLeft;
  const shown = { start: top, size: box.clientHeight - covered };
  let dy = scrollDelta({ start: r.top, size: r.height }, shown, block, margin);
  const k = keep?.isConnected && box.contains(keep) && keep.getClientRects().length ? keep.getBoundingClientRect() : null;
  if (k) dy = keepDelta(dy, { start: k.top, size: k.height }, shown);
  box.scrollTop += dy;
  box.scrollLeft += scrollDelta({ start: r.left, size: r.width }, { start: left, size: box.clientWidth }, inline, margin);
}

/**
 * Keeps box's --stuck-top (a CSS length) at the height its sticky children
 * cover, as they and box change size: editor.css gives what is in box that
 * scroll-margin-top, so what the browser itself brings into view there (a
 * focused palette item, a fragment) lands below them, not under them.
 */
export function watchStuck(box, signal) {
  if (!box || typeof ResizeObserver === "undefined") return;
  const set = () => box.style.setProperty("--stuck-top", `${Math.ceil(stuckOnTop(box))}px`);
  const observer = new ResizeObserver(set);
  observer.observe(box);
  for (const c of box.children) observer.observe(c);
  signal?.addEventListener("abort", () => observer.disconnect());
  set();
}
