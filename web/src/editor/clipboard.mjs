// The editor's clipboard (Ctrl C, Ctrl V, Ctrl D): copy keeps the selected
// tags' fields and pages on the editor (ed.clipboard); a paste creates them
// again at the pointer, at the spot last clicked, or beside the originals,
// as one request and one undoable step.
import { keepInside } from "./align.mjs";
import { clampRect, pdfRectToScreen, screenDeltaToPdf, screenRectToPdf } from "./coords.mjs";
import { createGroup } from "./groups.mjs";
import { t } from "./i18n.mjs";

/** Copies the selected tags (as shown now) and says so in the status line; false when nothing is selected. */
export function copy(ed) {
  const els = ed.selectedEls;
  if (!els.length) return false;
  if (els.length > 1) {
    ed.clipboard = { group: els.map((el) => ({ fields: ed.current(el), page: ed.viewer.pageOf(el) })) };
    ed.bus.emit("status", { message: t("editor.clipboard.copied_tags", { count: els.length }) });
    return true;
  }
  const el = els[0];
  const page = ed.viewer.pageOf(el);
  ed.clipboard = { fields: ed.current(el), page };
  ed.bus.emit("status", { message: t("editor.clipboard.copied_one", { name: ed.typeInfo(el.dataset.tagType).label }) });
  return true;
}

/**
 * Pastes a copied group as one request and one step: at the pointer (or
 * the spot last clicked) the group's top-left corner lands there on that
 * page, keeping the members' places relative to each other (as shown);
 * with offset (duplicate) or no such spot, each member 12 pt below and
 * right of its original, on its own page.
 */
async function pasteGroup(ed, { offset = false } = {}) {
  const group = ed.clipboard.group.filter((g) => g.page.el.isConnected);
  if (!group.length) return;
  const at = offset ? null : pasteTarget(ed);
  let list;
  if (at) {
    const shown = group.map((g) => pdfRectToScreen(g.page.box, g.page.rotate, 1, g.fields));
    const left = Math.min(...shown.map((r) => r.left));
    const top = Math.min(...shown.map((r) => r.top));
    const p = at.page;
    list = group.map((g, i) => {
      const r = shown[i];
      const kept = keepInside({ left: at.left / p.scale + r.left - left, top: at.top / p.scale + r.top - top, width: r.width, height: r.height }, p.size.width, p.size.height);
      const rect = clampRect(p.box, screenRectToPdf(p.box, p.rotate, 1, kept));
      return { page: p, fields: { ...g.fields, ...rect, page: p.number } };
    });
  } else {
    list = group.map((g) => {
      const [dx, dy] = screenDeltaToPdf(g.page.rotate, 12, 12);
      return { page: g.page, fields: { ...g.fields, ...clampRect(g.page.box, { x: g.fields.x + dx, y: g.fields.y + dy, width: g.fields.width, height: g.fields.height }) } };
    });
  }
  await createGroup(ed, list, t("editor.undo.paste_tags"));
  ed.clipboard = { group: list.map((l) => ({ fields: l.fields, page: l.page })) };
}

/** Where a paste goes: the page under the pointer and its position, else the spot last clicked. */
function pasteTarget(ed) {
  if (ed.pointer) {
    const page = ed.viewer.pageOf(document.elementFromPoint(ed.pointer.x, ed.pointer.y));
    if (page) {
      const box = page.el.getBoundingClientRect();
      return { page, left: ed.pointer.x - box.left, top: ed.pointer.y - box.top };
    }
  }
  if (ed.spot?.page.el.isConnected) return ed.spot;
  return null;
}

/**
 * Pastes the copied tag with its top-left corner at the pointer (or the
 * spot last clicked), kept inside that page; with offset (a duplicate), or
 * with no such spot, a little below and right of the original on its own
 * page, or at the same place on the page in view.
 */
export async function paste(ed, { offset = false } = {}) {
  if (!ed.clipboard) return;
  if (ed.clipboard.group) return pasteGroup(ed, { offset });
  const at = offset ? null : pasteTarget(ed);
  const page = at?.page || (offset ? ed.clipboard.page : null) || ed.lastClickedPage() || ed.viewer.currentPage();
  if (!page) return;
  const f = { ...ed.clipboard.fields, page: page.number };
  const size = { width: f.width, height: f.height };
  let rect;
  if (at) {
    rect = ed.rectAt(page, size, at.left, at.top);
  } else {
    rect = { x: f.x, y: f.y, ...size };
    if (page === ed.clipboard.page) {
      const [dx, dy] = screenDeltaToPdf(page.rotate, 12, 12);
      rect = { ...rect, x: rect.x + dx, y: rect.y + dy };
    }
    rect = clampRect(page.box, rect);
  }
  Object.assign(f, rect);
  await ed.create(page, f);
  ed.clipboard = { fields: f, page };
}
