// The changes of a group of tags (a multi-selection's move, delete,
// align, paste; accepted suggestions; copies to other pages): each is one
// batch request (server.mjs, batch.mjs) and one undoable step, and a
// refusal puts every tag of it back. Functions of the editor (editor.mjs).
import { align, distribute, keepInside, sameSize } from "./align.mjs";
import { clampRect, moveRect, pdfRectToScreen, screenRectToPdf } from "./coords.mjs";
import { findTag } from "./dom.mjs";
import { clampGroupMove } from "./selection.mjs";
import { t } from "./i18n.mjs";

/**
 * Sends a group's changes in one request and puts the server's answer in
 * the page: updated tags replace theirs, created ones their placeholders
 * (in order), deleted ones go. Resolves with the created elements.
 */
export async function applyBatch(ed, changes, placeholders = []) {
  const { created, updated } = await ed.server.batch(changes);
  for (const el of updated) {
    const old = findTag(el.dataset.tagId);
    if (old) old.replaceWith(el);
  }
  created.forEach((el, i) => placeholders[i]?.replaceWith(el));
  for (const id of changes.delete || []) {
    ed.guesses.delete(id);
    findTag(id)?.remove();
  }
  if ((changes.delete || []).some((id) => ed.ids.includes(id))) ed.setSelection(ed.ids.filter((id) => !changes.delete.includes(id)));
  return created;
}

/** Creates tags ([{page, fields}]) in one request; resolves with the server's elements, in order. */
export async function createTags(ed, list) {
  const phs = list.map(({ page, fields }) => ed.placeholder(page, fields));
  try {
    const created = await applyBatch(ed, { create: list.map(({ page, fields }) => ({ documentPosition: page.doc.position, ...fields, page: page.number })) }, phs);
    if (created.length !== list.length) throw new Error(t("editor.error.answer_missing_tags"));
    return created;
  } catch (err) {
    phs.forEach((ph) => ph.isConnected && ph.remove());
    throw err;
  }
}

/** Creates tags again for an undo or redo (items [{handle, loc, fields}]); the handles move to the new ids. */
export async function recreate(ed, items) {
  const created = await createTags(ed, items.map((i) => ({ page: ed.pageFor(i.loc), fields: i.fields })));
  created.forEach((el, k) => ed.rebind(items[k].handle, el.dataset.tagId));
}

/** Saves fields of tags for an undo or redo (pairs [handle, fields]), one request. */
export function resaveGroup(ed, pairs) {
  return applyBatch(ed, { update: pairs.map(([h, f]) => ({ id: h.id, ...f })) });
}

/**
 * Creates tags ([{page, fields}]) as one request and one undoable step, and
 * selects them (select: false leaves the selection alone: copies to other pages).
 */
export async function createGroup(ed, list, label = t("editor.undo.add_tags"), { select = true } = {}) {
  if (!list.length) return [];
  const items = list.map(({ page, fields }) => ({ handle: { id: "" }, loc: ed.locate(page), fields: { ...fields, page: page.number } }));
  const created = await createTags(ed, list);
  created.forEach((el, k) => ed.rebind(items[k].handle, el.dataset.tagId));
  if (select) ed.setSelection(items.map((i) => i.handle.id), items[0].handle.id);
  ed.history.push({
    label,
    undo: () => applyBatch(ed.live, { delete: items.map((i) => i.handle.id) }),
    redo: () => recreate(ed.live, items),
  });
  return created;
}

/**
 * Saves new fields of several tags ([{id, after, before?}]) as one request
 * and one undoable step; a refusal puts every one of them back.
 */
export async function changeGroup(ed, entries, { mergeKey, label = t("editor.undo.change_tags") } = {}) {
  entries = entries.filter((e) => findTag(e.id));
  if (!entries.length) return;
  const items = entries.map((e) => ({ handle: ed.handle(e.id), before: e.before || ed.saved(findTag(e.id)), after: e.after }));
  const seq = ++ed.seq;
  for (const e of entries) ed.preview(findTag(e.id), e.after, seq);
  try {
    await applyBatch(ed, { update: items.map((i) => ({ id: i.handle.id, ...i.after })) });
  } catch (err) {
    for (const i of items) {
      ed.guesses.delete(i.handle.id);
      ed.revert(i.handle.id);
    }
    throw err;
  }
  for (const i of items) {
    if (ed.guesses.get(i.handle.id)?.seq !== seq) continue;
    ed.guesses.delete(i.handle.id);
    findTag(i.handle.id)?.classList.remove("tag--pending");
  }
  ed.history.push({
    label,
    mergeKey,
    undo: () => resaveGroup(ed.live, items.map((i) => [i.handle, i.before])),
    redo: () => resaveGroup(ed.live, items.map((i) => [i.handle, i.after])),
  });
}

/** Removes tags as one request and one undoable step. */
export async function removeGroup(ed, ids) {
  const els = ids.map(findTag).filter(Boolean);
  if (!els.length) return;
  const items = els.map((el) => ({ handle: ed.handle(el.dataset.tagId), loc: ed.locate(ed.viewer.pageOf(el)), fields: ed.saved(el) }));
  ed.clearSelection();
  els.forEach((el) => el.classList.add("tag--pending"));
  try {
    await applyBatch(ed, { delete: items.map((i) => i.handle.id) });
  } catch (err) {
    items.forEach((i) => findTag(i.handle.id)?.classList.remove("tag--pending"));
    throw err;
  }
  ed.history.push({
    label: t("editor.undo.delete_tags"),
    undo: () => recreate(ed.live, items),
    redo: () => applyBatch(ed.live, { delete: items.map((i) => i.handle.id) }),
  });
}

/** A selected tag with its page and PDF rectangle as shown now. */
export function member(ed, el) {
  const page = ed.viewer.pageOf(el);
  const f = ed.current(el);
  return { el, page, box: page.box, rotate: page.rotate, rect: { x: f.x, y: f.y, width: f.width, height: f.height } };
}

/** Moves every selected tag by (right, down) points on screen, as one group kept on its pages. */
export function nudgeGroup(ed, right, down) {
  const members = ed.selectedEls.map((el) => member(ed, el));
  const [r, d] = clampGroupMove(members, right, down);
  if (!r && !d) return;
  const entries = members.map((m) => ({ id: m.el.dataset.tagId, before: ed.saved(m.el), after: { ...ed.current(m.el), ...moveRect(m.box, m.rotate, m.rect, r, d) } }));
  return changeGroup(ed, entries, { label: t("editor.undo.move_tags"), mergeKey: `nudge:${members.map((m) => ed.handle(m.el.dataset.tagId).id).join(",")}` });
}

/** The undo labels of arrange, by kind and how (one literal catalog id each). */
const ARRANGE_LABELS = {
  "align left": "editor.undo.align_left",
  "align center": "editor.undo.align_center",
  "align right": "editor.undo.align_right",
  "align top": "editor.undo.align_top",
  "align middle": "editor.undo.align_middle",
  "align bottom": "editor.undo.align_bottom",
  "distribute horizontal": "editor.undo.distribute_horizontal",
  "distribute vertical": "editor.undo.distribute_vertical",
  "same width": "editor.undo.same_width",
  "same height": "editor.undo.same_height",
  "same size": "editor.undo.same_size",
};

/**
 * Aligns (kind "align": left, center, right, top, middle, bottom),
 * distributes ("distribute": horizontal, vertical) or sizes ("same":
 * width, height, size — to the first selected tag) the selection, as one
 * step. Geometry is done as each page shows its tags (align.mjs), page by
 * page for align and distribute, in points; each result is kept on its page.
 */
export function arrange(ed, kind, how) {
  const members = ed.selectedEls.map((el) => member(ed, el));
  if (members.length < 2) return false;
  const shown = (m) => pdfRectToScreen(m.box, m.rotate, 1, m.rect);
  const out = new Map(); // member → shown rectangle
  if (kind === "same") {
    const ref = shown(members[0]);
    sameSize(members.map(shown), how, ref).forEach((r, i) => out.set(members[i], r));
  } else {
    const byPage = new Map();
    for (const m of members) byPage.set(m.page, [...(byPage.get(m.page) || []), m]);
    for (const group of byPage.values()) {
      const rects = group.map(shown);
      const done = kind === "align" ? align(rects, how) : distribute(rects, how);
      done.forEach((r, i) => out.set(group[i], r));
    }
  }
  const entries = [];
  for (const [m, r] of out) {
    const kept = keepInside(r, m.page.size.width, m.page.size.height);
    const rect = clampRect(m.box, screenRectToPdf(m.box, m.rotate, 1, kept));
    if (kind !== "same") Object.assign(rect, { width: m.rect.width, height: m.rect.height }); // a move never resizes
    entries.push({ id: m.el.dataset.tagId, before: ed.saved(m.el), after: { ...ed.current(m.el), ...rect } });
  }
  ed.run(changeGroup(ed, entries, { label: t(ARRANGE_LABELS[`${kind} ${how}`] || "editor.undo.change_tags") }));
  return true;
}
