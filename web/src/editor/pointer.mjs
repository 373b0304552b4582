// Pointer gestures on the pages, out of the editor's manager (as pdf.js
// keeps each kind of input apart from its UI manager): a press on a tag
// selects it and drags or resizes it, a press on a member of a group drags
// the group, a press on a page with a tag type picked draws a new tag, a
// press elsewhere on a page draws a selection rectangle. Edges snap to the
// other tags and the page (snap.mjs; Alt held: no snap), a guide line
// showing what to. Each gesture ends in one command of the editor
// (editor.mjs, groups.mjs): one save and one undoable step.
import { keepInside } from "./align.mjs";
import { clampRect, moveRect, pdfRectToScreen, resizeRect, screenRectToPdf } from "./coords.mjs";
import { changeGroup, member } from "./groups.mjs";
import { clampGroupMove, hitByMarquee, rectFromPoints, unionIds } from "./selection.mjs";
import { SNAP_PIXELS, snapEdges, snapLines, snapMove } from "./snap.mjs";
import { t } from "./i18n.mjs";

const DRAG_THRESHOLD = 3; // pixels before a press becomes a drag
const MIN_SIZE = 4; // points
const MIN_DRAWN = 8; // points: a drawn tag smaller than this either way gets the type's default size

/**
 * Follows the pointer over the editor's pages (ed.root) until signal
 * aborts: presses start the gestures; ed.pointer keeps where the pointer
 * is (client pixels; null once it leaves), where a paste goes.
 */
export function wirePointer(ed, signal) {
  const root = ed.root;
  root.addEventListener("pointerdown", (e) => onPointerDown(ed, e), { signal });
  root.addEventListener("pointermove", (e) => {
    ed.pointer = { x: e.clientX, y: e.clientY };
  }, { passive: true, signal });
  root.addEventListener("pointerleave", () => {
    ed.pointer = null;
  }, { signal });
}

/** The page under a point of the window (a tag being dragged does not hide it). */
function pageAt(ed, x, y) {
  for (const el of document.elementsFromPoint(x, y)) {
    if (el.classList?.contains("viewer-page")) return ed.viewer.pageOf(el);
  }
  return null;
}

/** What a rectangle on page snaps to: the other tags there (not those in skip), the page edges and margins. */
function snapTarget(ed, page, skip) {
  const others = [...page.el.querySelectorAll(".tag[data-tag-id]")].filter((el) => !skip.has(el.dataset.tagId)).map((el) => pdfRectToScreen(page.box, page.rotate, 1, ed.current(el)));
  return { lines: snapLines(others, page.size.width, page.size.height), w: page.size.width, h: page.size.height, threshold: SNAP_PIXELS / page.scale };
}

/** Shows the guide lines of a snap on page (none: removes them). */
function showGuides(ed, page, guides = []) {
  for (const g of ed.root.querySelectorAll("[data-snap-guide]")) g.remove();
  for (const g of guides) {
    const line = document.createElement("div");
    line.className = `snap-guide snap-guide--${g.axis}`;
    line.dataset.snapGuide = g.axis;
    line.dataset.snapKind = g.kind;
    line.setAttribute("aria-hidden", "true");
    if (g.axis === "x") line.style.left = `${g.at * page.scale}px`;
    else line.style.top = `${g.at * page.scale}px`;
    page.el.append(line);
  }
}

/** A moved PDF rectangle, snapped (unless off): {rect, guides}. */
function snapMoved(page, rect, target, off) {
  if (off) return { rect, guides: [] };
  const s = snapMove(pdfRectToScreen(page.box, page.rotate, 1, rect), target.lines, target.w, target.h, target.threshold);
  return { rect: s.dx || s.dy ? moveRect(page.box, page.rotate, rect, s.dx, s.dy) : rect, guides: s.guides };
}

/** A resized PDF rectangle (edges in dir), snapped (unless off): {rect, guides}. */
function snapResized(page, rect, dir, target, off) {
  if (off) return { rect, guides: [] };
  const s = snapEdges(pdfRectToScreen(page.box, page.rotate, 1, rect), dir, target.lines, target.w, target.h, target.threshold, MIN_SIZE);
  return { rect: s.guides.length ? clampRect(page.box, screenRectToPdf(page.box, page.rotate, 1, s.rect)) : rect, guides: s.guides };
}

/** A press on the pages: on a tag, a group member, a page with a type picked, or an empty spot (each gesture below). */
function onPointerDown(ed, e) {
  if (e.button !== 0) return;
  const page = ed.viewer.pageOf(e.target);
  if (page) {
    const box = page.el.getBoundingClientRect();
    ed.noteSpot(page, e.clientX - box.left, e.clientY - box.top);
  }
  const tag = e.target.closest(".tag");
  if (tag && tag.dataset.tagId) {
    e.preventDefault();
    ed.pointerFocus = true;
    tag.focus({ preventScroll: true });
    ed.pointerFocus = false;
    const id = tag.dataset.tagId;
    if (e.shiftKey || e.ctrlKey || e.metaKey) {
      ed.toggle(id); // adds or removes it; no drag
      return;
    }
    if (ed.ids.length > 1 && ed.ids.includes(id) && !e.target.dataset.handle) {
      ed.selectedId = id;
      startGroupDrag(ed, e, tag, page);
      return;
    }
    ed.select(id);
    startDrag(ed, e, tag, page, e.target.dataset.handle || "");
    return;
  }
  const armed = page && ed.armed();
  const drawing = e.pointerType === "mouse" || e.pointerType === "pen";
  if (armed) {
    e.preventDefault();
    const box = page.el.getBoundingClientRect();
    const at = { left: e.clientX - box.left, top: e.clientY - box.top };
    if (!drawing) {
      // Touch: a tap places the default size (a drag scrolls).
      ed.bus.emit("placed");
      ed.run(ed.place(page, armed, at.left, at.top));
      return;
    }
    startDraw(ed, e, page, armed, at);
    return;
  }
  if (!page) return;
  if (drawing) {
    e.preventDefault();
    startMarquee(ed, e, page);
    return;
  }
  ed.clearSelection();
}

/** Follows a pointer from a press on el until it is released: move(ev), end(ev or null when cancelled). */
function follow(e, el, move, end) {
  el.setPointerCapture?.(e.pointerId);
  const up = (ev) => {
    el.removeEventListener("pointermove", move);
    el.removeEventListener("pointerup", up);
    el.removeEventListener("pointercancel", cancel);
    end(ev);
  };
  const cancel = () => up(null);
  el.addEventListener("pointermove", move);
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", cancel);
}

/**
 * A press on an empty part of a page with no type picked (mouse or pen):
 * a drag draws a selection rectangle (data-marquee) and selects the tags it
 * touches (with Shift/Ctrl/Cmd: adds them); a click clears the selection.
 */
function startMarquee(ed, e, page) {
  const box = page.el.getBoundingClientRect();
  const x0 = e.clientX - box.left;
  const y0 = e.clientY - box.top;
  const add = e.shiftKey || e.ctrlKey || e.metaKey;
  let band = null;
  follow(e, page.el, (ev) => {
    const x = ev.clientX - box.left;
    const y = ev.clientY - box.top;
    if (!band && Math.hypot(x - x0, y - y0) < DRAG_THRESHOLD) return;
    if (!band) {
      band = document.createElement("div");
      band.className = "marquee";
      band.dataset.marquee = "";
      band.setAttribute("aria-hidden", "true");
      page.el.append(band);
    }
    const r = rectFromPoints(x0, y0, Math.min(Math.max(x, 0), box.width), Math.min(Math.max(y, 0), box.height));
    Object.assign(band.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
  }, (ev) => {
    if (!band) {
      if (ev && !add) ed.clearSelection();
      return;
    }
    const r = { left: parseFloat(band.style.left), top: parseFloat(band.style.top), width: parseFloat(band.style.width), height: parseFloat(band.style.height) };
    band.remove();
    if (!ev) return;
    const tags = [...page.el.querySelectorAll(".tag[data-tag-id]")].map((el) => ({ id: el.dataset.tagId, rect: pdfRectToScreen(page.box, page.rotate, page.scale, ed.current(el)) }));
    const hit = hitByMarquee(r, tags);
    const ids = add ? unionIds(ed.ids, hit) : hit;
    ed.setSelection(ids, ids[0]);
    if (ed.selected) {
      ed.pointerFocus = true;
      ed.selected.focus({ preventScroll: true });
      ed.pointerFocus = false;
    }
  });
}

/**
 * A press on a page with a type picked (mouse or pen): a drag draws the
 * new tag's rectangle (snapped, unless Alt is held); a click, or a
 * rectangle under MIN_DRAWN points either way, places the type's default size.
 */
function startDraw(ed, e, page, type, at) {
  const box = page.el.getBoundingClientRect();
  const target = snapTarget(ed, page, new Set());
  let ghost = null;
  let shown = null; // the drawn rectangle, as the page shows it, in points
  follow(e, page.el, (ev) => {
    const x = Math.min(Math.max(ev.clientX - box.left, 0), box.width);
    const y = Math.min(Math.max(ev.clientY - box.top, 0), box.height);
    if (!ghost && Math.hypot(x - at.left, y - at.top) < DRAG_THRESHOLD) return;
    if (!ghost) {
      ghost = document.createElement("div");
      ghost.className = `tag tag--drawing ${ed.signers.colorClass(ed.signers.current())}`;
      ghost.dataset.drawRect = "";
      ghost.setAttribute("aria-hidden", "true");
      page.el.append(ghost);
    }
    const r = rectFromPoints(at.left / page.scale, at.top / page.scale, x / page.scale, y / page.scale);
    const dir = (x >= at.left ? "e" : "w") + (y >= at.top ? "s" : "n");
    const snapped = ev.altKey ? { rect: r, guides: [] } : snapEdges(r, dir, target.lines, target.w, target.h, target.threshold, 0);
    shown = snapped.rect;
    showGuides(ed, page, snapped.guides);
    Object.assign(ghost.style, { left: `${shown.left * page.scale}px`, top: `${shown.top * page.scale}px`, width: `${shown.width * page.scale}px`, height: `${shown.height * page.scale}px` });
  }, (ev) => {
    ghost?.remove();
    showGuides(ed, page);
    if (!ev) return;
    ed.bus.emit("placed");
    if (!shown || shown.width < MIN_DRAWN || shown.height < MIN_DRAWN) {
      ed.run(ed.place(page, type, at.left, at.top));
      return;
    }
    const rect = clampRect(page.box, screenRectToPdf(page.box, page.rotate, 1, keepInside(shown, page.size.width, page.size.height)));
    ed.run(ed.create(page, ed.newFields(page, type, rect)));
  });
}

/**
 * Follows a move (dir "") or a resize (dir a handle: "n", "se", …) in PDF
 * points: a move keeps the width and height exactly, a resize keeps the
 * edges not dragged exactly, whatever the zoom (no round trip through
 * rounded pixel sizes). Edges and centres snap to the other tags and the
 * page's edges and margins (snap.mjs; Alt held: no snap), a guide line
 * showing what to. A move that ends over another page (of this or
 * another document) carries the tag there; near the viewer's top or bottom
 * edge the pages scroll.
 */
function startDrag(ed, e, tag, page, dir) {
  const start = { x: e.clientX, y: e.clientY };
  const box0 = tag.getBoundingClientRect();
  const grab = { x: e.clientX - box0.left, y: e.clientY - box0.top };
  const from = ed.current(tag);
  const rect0 = { x: from.x, y: from.y, width: from.width, height: from.height };
  const scroller = ed.viewer.scroller;
  const target = snapTarget(ed, page, new Set([tag.dataset.tagId]));
  let rect = null;
  let over = page; // the page under the pointer
  tag.setPointerCapture(e.pointerId);
  const track = (ev) => {
    const dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    if (!rect && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    tag.classList.add("tag--dragging");
    over = (!dir && pageAt(ed, ev.clientX, ev.clientY)) || page;
    if (over !== page) {
      // Over another page: the tag follows the pointer there; its place is worked out on that page.
      showGuides(ed, page);
      const b = over.el.getBoundingClientRect();
      rect = ed.rectAt(over, rect0, ev.clientX - grab.x - b.left, ev.clientY - grab.y - b.top);
      const s = pdfRectToScreen(over.box, over.rotate, over.scale, rect);
      const here = page.el.getBoundingClientRect();
      Object.assign(tag.style, { left: `${s.left + b.left - here.left}px`, top: `${s.top + b.top - here.top}px`, width: `${s.width}px`, height: `${s.height}px` });
      return;
    }
    const right = dx / page.scale;
    const down = dy / page.scale;
    const snapped = dir
      ? snapResized(page, resizeRect(page.box, page.rotate, rect0, dir, right, down, MIN_SIZE), dir, target, ev.altKey)
      : snapMoved(page, moveRect(page.box, page.rotate, rect0, right, down), target, ev.altKey);
    rect = snapped.rect;
    showGuides(ed, page, snapped.guides);
    page.placeTag(tag, rect);
  };
  const move = (ev) => {
    track(ev);
    if (dir || !rect) return;
    const v = scroller.getBoundingClientRect();
    const edge = ev.clientY < v.top + 32 ? -1 : ev.clientY > v.bottom - 32 ? 1 : 0;
    if (edge) {
      scroller.scrollTop += 24 * edge;
      track(ev);
    }
  };
  const end = () => {
    tag.removeEventListener("pointermove", move);
    tag.removeEventListener("pointerup", end);
    tag.removeEventListener("pointercancel", end);
    tag.classList.remove("tag--dragging");
    showGuides(ed, page);
    if (!rect) return;
    if (over !== page) {
      ed.run(ed.carry(tag.dataset.tagId, page, over, rect).catch((err) => {
        ed.revert(tag.dataset.tagId);
        throw err;
      }));
      return;
    }
    ed.run(ed.change(tag.dataset.tagId, { ...ed.current(tag), ...rect }));
  };
  tag.addEventListener("pointermove", move);
  tag.addEventListener("pointerup", end);
  tag.addEventListener("pointercancel", end);
}

/**
 * Drags a selected group by one of its members: every member moves by the
 * same amount on its own page, the group stopping as a whole at a page
 * edge; the grabbed tag snaps (Alt: not) and the others follow it. One
 * request, one undo step. A click without a drag selects the member alone.
 */
function startGroupDrag(ed, e, tag, page) {
  const start = { x: e.clientX, y: e.clientY };
  const members = ed.selectedEls.map((el) => member(ed, el));
  const grabbed = members.find((m) => m.el === tag);
  const target = snapTarget(ed, page, new Set(ed.ids));
  let delta = null; // [right, down] in points on screen
  follow(e, tag, (ev) => {
    const dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    if (!delta && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    members.forEach((m) => m.el.classList.add("tag--dragging"));
    let [r, d] = clampGroupMove(members, dx / page.scale, dy / page.scale);
    const moved = moveRect(grabbed.box, grabbed.rotate, grabbed.rect, r, d);
    const snapped = snapMoved(page, moved, target, ev.altKey);
    if (snapped.guides.length) {
      const a = pdfRectToScreen(page.box, page.rotate, 1, grabbed.rect);
      const b = pdfRectToScreen(page.box, page.rotate, 1, snapped.rect);
      [r, d] = clampGroupMove(members, b.left - a.left, b.top - a.top);
    }
    delta = [r, d];
    showGuides(ed, page, snapped.guides);
    for (const m of members) m.page.placeTag(m.el, moveRect(m.box, m.rotate, m.rect, r, d));
  }, (ev) => {
    members.forEach((m) => m.el.classList.remove("tag--dragging"));
    showGuides(ed, page);
    if (!delta) {
      if (ev) ed.select(tag.dataset.tagId);
      return;
    }
    if (!ev || (!delta[0] && !delta[1])) {
      members.forEach((m) => m.page.placeTag(m.el, m.rect));
      return;
    }
    const entries = members.map((m) => ({ id: m.el.dataset.tagId, before: ed.saved(m.el), after: { ...ed.current(m.el), ...moveRect(m.box, m.rotate, m.rect, delta[0], delta[1]) } }));
    ed.run(changeGroup(ed, entries, { label: t("editor.undo.move_tags") }));
  });
}
