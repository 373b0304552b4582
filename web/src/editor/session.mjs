// What outlives one start of the editor: the room's undo history (tag edits
// and page edits mixed), the handles its steps hold, and the page edits'
// own steps. A page edit or an upload swaps the room in and starts the
// editor again; the history stays.
//
// Steps never hold a PageView, an editor or a document id of their time:
// a tag is a handle {id} (its id changes when an undo creates it again),
// a document a handle {id} too (every page edit gives it a new id: the
// steps of that edit move the handle along), a page {doc, page}, looked up
// in the room as it is when the step runs. Undo and redo run in order, so a
// step finds the room as it was right after (undo) or before (redo) it.
import { findTag } from "./dom.mjs";
import { applyBatch, recreate } from "./groups.mjs";
import { createHistory } from "./history.mjs";
import { t } from "./i18n.mjs";

/** The event (HX-Trigger) a page edit's answer fires, with what the edit did. */
export const PAGE_EDIT_EVENT = "markuproom:page-edit";
/** The event (HX-Trigger) an upload's answer fires when the PDF's own tags were placed: {documentId, title, tagIds, problems}. */
export const TAGS_PLACED_EVENT = "markuproom:tags-placed";
/** The event (HX-Trigger) a document's or participant's removal (or its undo) fires, with what was done. */
export const REMOVAL_EVENT = "markuproom:removal";

/**
 * net: the page's connection to the server (server.mjs connect), which
 * sends the steps' room changes; onChange(history) follows the history.
 */
export function createSession({ net, onChange = () => {} } = {}) {
  const docs = new Map(); // document id → handle {id}
  let next = null; // resolvers of the next start
  const session = {
    history: createHistory({ limit: 100, onChange: () => onChange(session.history) }),
    tags: new Map(), // tag id → handle {id}
    editor: null, // the editor of the room as it is now
    notice: "", // what the next start says in the status line (an upload's placed tags)
    noticeKind: "", // how it says it ("error" for a change another window refused; else "ok")

    /** The handle of a document, by its id now. */
    doc(id) {
      if (!docs.has(id)) docs.set(id, { id });
      return docs.get(id);
    },

    rebindDoc(handle, id) {
      docs.delete(handle.id);
      handle.id = id;
      docs.set(id, handle);
    },

    /** The editor started again on a swapped-in room (main.mjs calls this after every start). */
    started(state) {
      session.editor = state?.editor || null;
      next?.resolve();
      next = null;
      onChange(session.history);
    },

    /** Resolves when the editor has started on the next room swapped in. */
    nextStart() {
      next ||= Promise.withResolvers();
      return next.promise;
    },

    /** A page edit the user made (its HX-Trigger): recorded as an undoable step. */
    pageEdited(edit) {
      if (edit?.kind !== "page_deleted" && edit?.kind !== "page_moved" && edit?.kind !== "revised") return;
      session.history.push(pageStep(session, edit));
    },

    /** Tags an upload placed (its HX-Trigger): one step; undo deletes them in one batch request, redo places them again. */
    tagsPlaced(placed) {
      const ids = placed?.tagIds || [];
      if (!ids.length) return;
      const handles = ids.map((id) => session.tags.get(id) || session.tags.set(id, { id }).get(id));
      let items = []; // what the undo removed, as a redo creates it again
      session.history.push({
        label: t("editor.undo.place_template", { count: ids.length, title: placed.title }),
        undo: async () => {
          const ed = session.editor;
          const els = handles.map((h) => findTag(h.id)).filter(Boolean);
          items = els.map((el) => ({ handle: ed.handle(el.dataset.tagId), loc: ed.locate(ed.viewer.pageOf(el)), fields: ed.saved(el) }));
          if (items.length) await applyBatch(ed, { delete: items.map((i) => i.handle.id) });
        },
        redo: () => items.length && recreate(session.editor, items),
      });
      const n = placed.problems || 0;
      session.notice = n ? t("editor.templates.placed_unread", { placed: t("editor.templates.placed", { count: ids.length, title: placed.title }), unread: t("editor.templates.unread_text_tags", { count: n }) }) : t("editor.templates.placed_done", { placed: t("editor.templates.placed", { count: ids.length, title: placed.title }) });
    },

    /** A document or participant the user removed (its HX-Trigger): recorded as an undoable step. */
    removed(done) {
      if (done?.kind !== "document_removed" && done?.kind !== "participant_removed") return;
      session.history.push(removalStep(session, done));
    },

    /** Sends a room change of an undo or redo; resolves with what it did once the editor runs on its answer. */
    async roomChange(url, values, eventName = PAGE_EDIT_EVENT) {
      const started = session.nextStart();
      const edit = await net.roomChange(url, values, eventName);
      await started;
      return edit;
    },
  };
  return session;
}

/**
 * The URL the server rendered as attribute name on el (the document, page
 * or participant a step acts on); throws when the room no longer holds it.
 */
function urlOf(el, name, gone) {
  const url = el?.getAttribute(name);
  // gone: the history drops this step, so the older ones can still be undone.
  if (!url) throw Object.assign(new Error(gone ?? t("editor.undo.document_gone")), { gone: true });
  return url;
}

/** Page n of the document whose id is now id (n omitted: its first page). */
function pageEl(id, n) {
  const page = `.viewer-page[data-document-id="${CSS.escape(id)}"]`;
  return document.querySelector(n === undefined ? page : `${page}[data-page="${CSS.escape(String(n))}"]`);
}

/** The viewer's section of the document whose id is now id. */
function documentEl(id) {
  return pageEl(id)?.closest(".viewer-doc");
}

/** The undo label of a page edit or a revision. */
function pageStepLabel(edit, docId) {
  if (edit.kind === "revised") return t("editor.undo.revise", { title: documentEl(docId)?.querySelector(".viewer-doc__title")?.textContent || "" });
  if (edit.kind === "page_deleted") return t("editor.undo.delete_page", { page: String(edit.page) });
  return t("editor.undo.move_page", { from: String(edit.from), to: String(edit.to) });
}

/** The route and values that make a page edit or a revision again. */
function redoOf(edit, step, doc) {
  if (edit.kind === "revised") return [urlOf(documentEl(doc.id), "data-revise-url"), { documentId: step.after, current: doc.id }];
  if (edit.kind === "page_deleted") return [urlOf(pageEl(doc.id, edit.page), "data-delete-url"), { current: doc.id }];
  return [urlOf(pageEl(doc.id, edit.from), "data-move-url"), { current: doc.id, to: String(edit.to) }];
}

/**
 * The undoable step of a page edit or a revision: undo restores the version
 * before it (the restore route, which brings a deleted page's tags back and
 * a revision's tags to where they were), redo makes the edit again (a
 * revision by the revised version's id); both name the version they expect,
 * so a document changed since (another window) is refused by the server.
 */
function pageStep(session, edit) {
  const doc = session.doc(edit.fromDocumentId);
  session.rebindDoc(doc, edit.toDocumentId);
  const step = {
    label: pageStepLabel(edit, edit.fromDocumentId),
    before: edit.fromDocumentId,
    after: edit.toDocumentId,
    undo: async () => {
      const done = await session.roomChange(urlOf(documentEl(doc.id), "data-restore-url"), { version: step.before, current: doc.id });
      session.rebindDoc(doc, done?.toDocumentId || step.before);
    },
    redo: async () => {
      const done = await session.roomChange(...redoOf(edit, step, doc));
      if (!done) throw new Error(t("editor.error.page_change_unknown"));
      step.before = done.fromDocumentId;
      step.after = done.toDocumentId;
      session.rebindDoc(doc, done.toDocumentId);
    },
  };
  return step;
}

/** The room's document ids and participant ids in order, as an undo of a removal names them (the server refuses it when its own differ). */
function roomIDs() {
  const ids = (sel, attr) => [...document.querySelectorAll(sel)].map((el) => el.getAttribute(attr)).join(",");
  return {
    documents: [...document.querySelectorAll(".viewer-doc")].map((d) => d.querySelector(".viewer-page")?.dataset.documentId || "").join(","),
    participants: ids(".room-participant[data-participant-id]", "data-participant-id"),
  };
}

/**
 * The undoable step of a document's or a participant's removal: undo brings
 * back what the server kept (the restore route, ids and all), redo removes
 * it again (a document named by its id, so a document changed since is
 * refused). Both name the room as this window sees it.
 */
function removalStep(session, done) {
  const isDoc = done.kind === "document_removed";
  const doc = isDoc ? session.doc(done.documentId) : null;
  const step = {
    label: t("editor.undo.remove", { name: done.title }),
    restoreUrl: done.restoreUrl, // the server's URL of the undo (HX-Trigger)
    undo: async () => {
      await session.roomChange(step.restoreUrl, roomIDs(), REMOVAL_EVENT);
    },
    redo: async () => {
      const url = isDoc ? urlOf(documentEl(doc.id), "data-remove-url")
        : urlOf(document.querySelector(`.room-participant[data-participant-id="${CSS.escape(done.participantId)}"]`), "data-remove-url", t("editor.undo.participant_gone"));
      const again = await session.roomChange(url, isDoc ? { current: doc.id } : {}, REMOVAL_EVENT);
      if (!again?.restoreUrl) throw new Error(t("editor.error.removal_unknown"));
      step.restoreUrl = again.restoreUrl;
    },
  };
  return step;
}
