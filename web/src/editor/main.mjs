// Boots the page viewer on [data-viewer] and, when the page allows editing
// ([data-editable]), the tag editor with its palette, properties panel,
// toolbar and keyboard shortcuts. A room change that answers with the whole
// room (a page edit) swaps it in through htmx; the editor then starts again
// on the new markup, keeping the zoom and the scroll position, and the
// room's undo history (session.mjs), which outlives every start. Each start
// has its own AbortController: every listener it adds (on document and
// window too) and every observer goes when the room is rebuilt. Loaded as a
// deferred classic script; pdf.js (an ES module) is imported on demand.
import { createArrangeToolbar } from "./arrange.mjs";
import { createBus, listenUntil } from "./bus.mjs";
import { createEmbed } from "./embed.mjs";
import { wireChecklistLinks } from "./checklistlinks.mjs";
import { createCopyToPages } from "./copypages.mjs";
import { findTag } from "./dom.mjs";
import { watchCounts } from "./counts.mjs";
import { TagEditor } from "./editor.mjs";
import { createFieldList } from "./fieldlist.mjs";
import { rememberPlace, restorePlace, successMessage } from "./keepplace.mjs";
import { wirePageNumbers } from "./pagenav.mjs";
import { describeRoomEdit, createPageEdits } from "./pages.mjs";
import { readProblem } from "./problem.mjs";
import { watchStuck } from "./reveal.mjs";
import { createPalette, createSignerPicker } from "./palette.mjs";
import { createProperties } from "./properties.mjs";
import { connect } from "./server.mjs";
import { followRoom } from "./live.mjs";
import { createPresence } from "./presence.mjs";
import { showRevision } from "./revision.mjs";
import { createSession, PAGE_EDIT_EVENT, REMOVAL_EVENT, TAGS_PLACED_EVENT } from "./session.mjs";
import { createSheets } from "./sheets.mjs";
import { createSuggestions } from "./suggestions.mjs";
import { createTemplates } from "./templates.mjs";
import { watchTextCovers } from "./textcovers.mjs";
import { commandFor } from "./shortcuts.mjs";
import { readTagTypes, watchTagLabels } from "./taglabel.mjs";
import { createThumbnails } from "./thumbs.mjs";
import { createUpload } from "./upload.mjs";
import { Viewer } from "./viewer.mjs";
import { t } from "./i18n.mjs";

let pdfjsReady = null; // pdf.js, imported once, its worker started once
let current = null; // the running editor
let session = null; // the room's undo history and handles: outlives every start
let net = null; // the page's connection to the server (server.mjs): made once, at boot
let embed = null; // the events an embedded room posts to its host (embed.mjs): made once, at boot
let presence = null; // who else has the room open (presence.mjs): made once, at boot

function loadPDFJS(root) {
  if (!pdfjsReady) {
    performance.mark("markuproom:boot");
    // Start pdf.js's worker first: it parses in its own thread while this one
    // evaluates the pdf.js module (both gate the first page).
    const worker = new Worker(root.dataset.pdfjsWorker, { type: "module" });
    pdfjsReady = import(root.dataset.pdfjs).then((pdfjs) => {
      // One PDFWorker on that port, handed to every getDocument: a document
      // destroyed when the room is rebuilt then leaves the shared worker alone
      // (with GlobalWorkerOptions.workerPort the first destroy tears it down
      // and the next room's documents fail with "the worker is being destroyed").
      const pdfWorker = new pdfjs.PDFWorker({ port: worker });
      pdfjs.GlobalWorkerOptions.workerSrc = root.dataset.pdfjsWorker; // for anyone else's getDocument
      performance.mark("markuproom:pdfjs");
      return { pdfjs, pdfWorker };
    });
  }
  return pdfjsReady;
}

/** Starts the viewer (and editor) on the page's [data-viewer]; prev restores zoom and scroll. */
async function start(prev) {
  const root = document.querySelector("[data-viewer]");
  if (!root) return null;
  const { pdfjs, pdfWorker } = await loadPDFJS(root);
  const bus = createBus();
  const lifetime = new AbortController(); // every listener of this start, dropped on a restart
  const signal = lifetime.signal;
  const viewer = new Viewer(root, root, bus, pdfjs, pdfWorker);
  window.markupRoomViewer = viewer; // for the browser tests and the console
  watchTagLabels(root, { signal }); // icon, name or date preview, initials, required marker: as much as fits
  watchTextCovers({ viewerRoot: root, viewer, signal }); // a text tag's words hidden under its tag (never in the PDF)
  createFieldList(document.querySelector("[data-field-list]"), root, { signal });
  if (prev) {
    if (!prev.fit) viewer.setZoom(prev.zoom);
    root.scrollTop = prev.scrollTop;
    root.scrollLeft = prev.scrollLeft;
  }
  // An upload's answer: the pages show the document it added, not the one shown before (issue 40).
  const uploaded = document.querySelector("[data-uploaded-document]")?.dataset.uploadedDocument;
  const first = uploaded ? viewer.pages.findIndex((p) => p.el.dataset.documentId === uploaded) : -1;
  if (first >= 0) viewer.goToPage(first + 1);
  bus.on("rendered", () => {
    if (!performance.getEntriesByName("markuproom:first-page").length) performance.mark("markuproom:first-page");
  });
  wireToolbar(viewer, bus, signal);
  createThumbnails(viewer, bus, signal);
  createPageEdits(bus, net, signal);
  createUpload(signal);
  watchStuck(document.querySelector("#room-panel"), signal); // what comes into view there clears the signer picker
  showRevision(root, { signal });
  const status = document.querySelector("[data-save-status]");
  const setStatus = (text, kind = "") => {
    if (!status) return;
    status.textContent = text;
    status.title = text; // the whole of it where the toolbar cuts it
    status.dataset.kind = kind;
    if (kind === "error") embed?.post("error", { message: text }); // what the user saw, for the host too
  };
  bus.on("status", ({ message }) => setStatus(message));
  bus.on("error", ({ message, fields }) => {
    // Another window changed the tag: the room is read again (the undo history stays), and says why.
    if (fields?.some((f) => f.code === "tag_changed")) {
      Object.assign(session, { notice: message, noticeKind: "error" });
      return net.reloadRoom(location.href);
    }
    setStatus(t("editor.status.not_saved", { message }), "error");
  });
  createTemplates({ net, setStatus, signal });
  const state = { root, viewer, bus, setStatus, editor: null, palette: null, history: null };
  state.destroy = () => {
    lifetime.abort();
    viewer.destroy();
  };
  wireChecklistLinks(signal, state);
  state.snapshot = () => ({
    zoom: viewer.zoom, fit: viewer.fit, scrollTop: root.scrollTop, scrollLeft: root.scrollLeft, sheet: state.sheets?.open,
    armed: state.palette?.armed || "", selected: state.editor ? [...state.editor.ids] : [], primary: state.editor?.selectedId || "",
    focused: document.activeElement?.closest?.(".tag[data-tag-id]")?.dataset.tagId || "",
  });
  if (!("editable" in root.dataset)) {
    state.sheets = createSheets({ editor: null, palette: null, bus, viewer, signal });
    state.sheets?.reopen(prev?.sheet);
    return state;
  }

  const typeInfo = typeCatalog(root);
  session ||= createSession({ net, onChange: syncUndoButtons });
  const history = session.history;
  const server = net.tags({ tagURL: root.dataset.tagUrl, batchURL: root.dataset.tagBatchUrl }, bus);
  const signers = createSignerPicker(document.querySelector("[data-signer-picker]"), { signal });
  let palette = null;
  const editor = new TagEditor({ root, viewer, server, session, bus, signers, typeInfo, armed: () => palette?.armed || "", signal });
  palette = createPalette({ root: document.querySelector("[data-palette]"), viewer, editor, signers, bus, typeInfo, signal });
  createProperties({ root: document.querySelector("[data-tag-props]"), editor, viewer, bus, typeInfo, palette, signal });
  createArrangeToolbar({ root: document.querySelector("[data-arrange-toolbar]"), editor, bus, signal });
  createCopyToPages({ dialog: document.querySelector("[data-copy-pages-dialog]"), editor, viewer, bus, signal });
  createSuggestions({ viewerRoot: root, listRoot: document.querySelector("[data-suggestions]"), editor, viewer, history, net, bus, signal });
  watchCounts(root, signal);
  state.sheets = createSheets({ editor, palette, bus, viewer, signal });
  state.sheets?.reopen(prev?.sheet); // the sheet in use stays open when a page edit rebuilds the room
  window.markupRoomEditor = editor;
  window.markupRoomHistory = history; // for the browser tests and the console

  bus.on("select", ({ els }) => presence?.selected(els.map((el) => el.dataset.tagId))); // others see it outlined
  bus.on("saving", () => setStatus(t("editor.status.saving"), "busy"));
  bus.on("saved", ({ inFlight }) => {
    if (inFlight > 0) return;
    setStatus(t("editor.status.saved"), "ok");
    embed?.changed();
  });
  // A refused undo or redo (the document changed since, the server said no) says why, plainly.
  const undoRedo = (which) => history[which]().catch((err) => (current || state).setStatus(err.message, "error"));
  const on = listenUntil(signal);
  on(document.querySelector('[data-action="undo"]'), "click", () => undoRedo("undo"));
  on(document.querySelector('[data-action="redo"]'), "click", () => undoRedo("redo"));
  Object.assign(state, { editor, palette, history, undoRedo });
  if (prev?.keepHands) keepHands(prev, editor, palette);
  return state;
}

/**
 * After another window's change read the room again (live.mjs): what the
 * user held stays held — the tag type picked in the palette, the selected
 * tags that are still there, the focused tag.
 */
function keepHands(prev, editor, palette) {
  if (prev.armed) palette.arm(prev.armed);
  const there = prev.selected.filter((id) => findTag(id));
  if (there.length) editor.setSelection(there, there.includes(prev.primary) ? prev.primary : there[there.length - 1]);
  if (prev.focused) findTag(prev.focused)?.focus({ preventScroll: true });
}

/** The toolbar's Undo and Redo buttons follow the history (they are new elements after each rebuild). */
function syncUndoButtons(history) {
  const undo = document.querySelector('[data-action="undo"]');
  const redo = document.querySelector('[data-action="redo"]');
  if (undo) undo.disabled = !history.canUndo;
  if (redo) redo.disabled = !history.canRedo;
}

/** The keyboard shortcuts, for whichever editor runs now. */
function onKeydown(e) {
  const s = current;
  const cmd = commandFor(e);
  if (!s || !cmd) return;
  const typing = e.target.closest?.("input, select, textarea, [contenteditable]");
  if ((typing && cmd.name !== "escape") || e.target.closest?.("dialog, [role=menu]")) return;
  let handled = false;
  if (cmd.name === "zoom") {
    s.viewer.stepZoom(cmd.arg);
    handled = true;
  } else if (!s.editor) {
    return;
  } else if (cmd.name === "undo" || cmd.name === "redo") {
    s.undoRedo(cmd.name);
    handled = true;
  } else if (cmd.name === "escape" && s.palette.armed) {
    s.palette.arm("");
    handled = true;
  } else {
    handled = s.editor.command(cmd.name, cmd.arg);
  }
  if (handled) e.preventDefault();
}

/** Label, default size and options of each tag type, read from the viewer's data-tag-types (readTagTypes). */
function typeCatalog(root) {
  const types = readTagTypes(root.dataset.tagTypes);
  return (type) => types.get(type) || { label: type, width: 120, height: 24, date: false, state: false };
}

/** Zoom and page navigation controls. */
function wireToolbar(viewer, bus, signal) {
  const bar = document.querySelector("[data-viewer-toolbar]");
  if (!bar) return;
  const on = listenUntil(signal);
  const zoomSelect = bar.querySelector("[data-zoom-select]");
  on(bar, "click", (e) => {
    const action = e.target.closest("[data-action]")?.dataset.action;
    if (action === "zoom-in") viewer.stepZoom(1);
    if (action === "zoom-out") viewer.stepZoom(-1);
    const cur = viewer.currentPage();
    if (action === "page-prev" && cur) viewer.goToPage(cur.index);
    if (action === "page-next" && cur) viewer.goToPage(cur.index + 2);
  });
  on(zoomSelect, "change", () => viewer.setZoom(zoomSelect.value));
  const sync = ({ zoom, fit }) => {
    if (!zoomSelect) return;
    const match = [...zoomSelect.options].find((o) => o.value !== "fit" && Math.abs(Number(o.value) - zoom) < 0.001);
    let custom = zoomSelect.querySelector("option[data-custom]");
    if (fit) {
      zoomSelect.value = "fit";
    } else if (match) {
      zoomSelect.value = match.value;
    } else {
      if (!custom) {
        custom = new Option("", "");
        custom.dataset.custom = "";
        zoomSelect.append(custom);
      }
      custom.value = String(zoom);
      custom.textContent = `${Math.round(zoom * 100)} %`;
      zoomSelect.value = custom.value;
    }
    if (custom && (fit || match)) custom.remove();
  };
  bus.on("zoom", sync);
  sync({ zoom: viewer.zoom, fit: viewer.fit });
  wirePageNumbers(viewer, bus, bar, signal);
}

/** Where the user is, taken before a room change's answer replaces the markup (after it, the old parts read 0). */
let before = null;
/** The next restart is a read of the room another window's change caused: it keeps what the user held (keepHands). */
let keepHandsOnce = false;
function onBeforeSwap(e) {
  if (!current) return;
  const said = document.querySelector("[data-save-status]");
  before = {
    snapshot: current.snapshot(), place: rememberPlace(), notice: successMessage(e.detail.requestConfig?.elt || e.detail.elt, e.detail.xhr?.status || 0),
    refusal: said?.dataset.kind === "error" ? said.textContent : "",
  };
}

/**
 * The room another window's change caused is in: a refusal the user has yet to read stays on its status line
 * from the first frame (the server draws "All changes saved"; the editor starts on the markup at settle).
 */
function keepRefusalOnSwap() {
  const said = keepHandsOnce && before?.refusal && document.querySelector("[data-save-status]");
  if (!said || said.dataset.kind === "error") return;
  said.textContent = said.title = before.refusal;
  said.dataset.kind = "error";
}

/** A room change answered with the room: start again on the new markup, where the user was, and say what was saved. */
async function restartIfSwapped() {
  const root = document.querySelector("[data-viewer]");
  if (!current || root === current.root) return;
  const kept = before;
  before = null;
  const prev = { ...(kept?.snapshot || current.snapshot()), keepHands: keepHandsOnce };
  keepHandsOnce = false;
  current.destroy();
  current = null;
  current = await start(prev);
  restorePlace(kept?.place); // once the field list is built again: the column is as tall as it was
  if (prev.keepHands && kept?.refusal) {
    current?.setStatus(kept.refusal, "error"); // a read another window caused keeps the refusal the user has yet to read
  } else {
    current?.setStatus(kept?.notice || session?.notice || t("editor.status.saved"), (!kept?.notice && session?.noticeKind) || "ok");
  }
  if (session) session.notice = session.noticeKind = "";
  session?.started(current);
}

/**
 * Another window moved, resized or removed tags (live.mjs): drawn here at
 * once, whatever the user is doing — the read of the whole room that
 * follows may wait for them. A tag this page is dragging or saving is left
 * to its save (a stale one is refused, and the room read).
 */
function tagsElsewhere(type, tags) {
  const s = current;
  if (!s?.editor) return;
  for (const tag of tags) {
    const el = findTag(tag.id);
    if (!el || el.matches(".tag--dragging, .tag--pending")) continue;
    if (type === "tag_deleted") {
      s.editor.removedElsewhere(tag.id);
      continue;
    }
    if (tag.version && Number(el.dataset.tagVersion) >= tag.version) continue; // shown already
    Object.assign(el.dataset, { x: String(tag.x), y: String(tag.y), w: String(tag.width), h: String(tag.height), tagVersion: String(tag.version), tagPage: String(tag.page) });
    s.editor.relocate(el);
    s.viewer.pageOf(el)?.placeTag(el);
  }
}

/** Another window changed the room (live.mjs): read it again, and say why it changed. */
function readRoomAgain() {
  if (session) Object.assign(session, { notice: t("editor.live.updated"), noticeKind: "ok" });
  keepHandsOnce = true;
  return net.reloadRoom(location.href);
}

/** A page edit the user made (its answer's HX-Trigger): one step of the undo history. */
function onPageEdit(e) {
  if (!session || net.isUndoRoomChange(e.target)) return; // an undo or redo records itself
  session.pageEdited(e.detail);
}

/** An upload placed the PDF's own tags (its answer's HX-Trigger): one step of the undo history. */
function onTagsPlaced(e) {
  session?.tagsPlaced(e.detail);
}

/** A document or participant the user removed (its answer's HX-Trigger): one step of the undo history. */
function onRemoval(e) {
  if (!session || net.isUndoRoomChange(e.target)) return;
  session.removed(e.detail);
}

/** A room change (not a tag save: those answer with the tag) is on its way: hold new fetches. */
function onBeforeRequest(e) {
  if (!current || e.detail.requestConfig?.verb === "get" || e.detail.elt?.closest?.(".tag")) return;
  current.viewer.pauseLoads();
}

/** Shows why a room change (not a tag save, an upload or a dialog form: those report themselves) was refused. */
function onAfterRequest(e) {
  // The room markup was not replaced (refused, or answered in part): fetch on.
  if (current && document.querySelector("[data-viewer]") === current.root) current.viewer.resumeLoads();
  const status = e.detail.xhr?.status || 0;
  if (status >= 200 && status < 400 && e.detail.requestConfig?.verb !== "get") embed?.changed(); // a room change was saved
  if (!current || (status >= 200 && status < 400) || e.detail.elt?.closest?.(".tag, [data-room-upload], [data-swap-errors]")) return;
  const message = readProblem(e.detail.xhr?.responseText)?.detail || (status ? t("editor.error.server_answered", { status: String(status) }) : t("editor.error.unreachable"));
  current.setStatus(t("editor.status.not_saved", { message }), "error");
}

async function boot() {
  net = connect(document);
  embed = createEmbed(window, document);
  document.addEventListener("keydown", onKeydown);
  document.addEventListener("htmx:confirm", describeRoomEdit, true);
  document.addEventListener("htmx:beforeSwap", onBeforeSwap);
  document.addEventListener("htmx:afterSwap", keepRefusalOnSwap);
  document.addEventListener("htmx:afterSettle", restartIfSwapped);
  document.addEventListener("htmx:beforeRequest", onBeforeRequest);
  document.addEventListener("htmx:afterRequest", onAfterRequest);
  document.addEventListener(PAGE_EDIT_EVENT, onPageEdit);
  document.addEventListener(TAGS_PLACED_EVENT, onTagsPlaced);
  document.addEventListener(REMOVAL_EVENT, onRemoval);
  // "Preview as…": a bundle of its own (preview.mjs), imported on the first click; the button holds its URL.
  document.addEventListener("click", (e) => {
    const b = e.target.closest?.("[data-preview]");
    if (b) import(b.dataset.preview).then((m) => m.open(b, current));
  });
  current = await start(null);
  session?.started(current);
  embed.ready();
  presence = createPresence(document, { net });
  window.markupRoomLive = followRoom(document, { net, reload: readRoomAgain, reloaded: () => embed.changed(), onPresence: presence.show, onTags: tagsElsewhere }); // for the browser tests
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", boot);
} else {
  boot();
}
