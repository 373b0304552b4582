// The tag editor: one manager (as pdf.js's AnnotationEditorUIManager) that
// owns the selection and the keyboard's commands, and turns every change of
// one tag into one save and one undoable step. Its parts live beside it:
// pointer gestures in pointer.mjs, the clipboard in clipboard.mjs, the
// changes of a group (one batch request, one step each) in groups.mjs.
// Talks to the viewer for geometry and to the server module for saves; to
// the panels only through the bus.
import { copy, paste } from "./clipboard.mjs";
import { clampRect, clampScreenRect, moveRect, pdfRectToScreen, screenDeltaToPdf, screenRectToPdf, screenSizeToPdf } from "./coords.mjs";
import { findTag } from "./dom.mjs";
import { arrange, nudgeGroup, removeGroup } from "./groups.mjs";
import { wirePointer } from "./pointer.mjs";
import { selectionMessage, toggleId, unionIds } from "./selection.mjs";
import { tagRect } from "./viewer.mjs";
import { t } from "./i18n.mjs";

const HANDLES = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];

/** The fields of a tag element, as a save sends them. */
export function tagFields(el) {
  const d = el.dataset;
  return {
    type: d.tagType,
    signerId: d.signerId || "",
    page: Number(el.closest(".viewer-page").dataset.page),
    ...tagRect(el),
    required: "required" in d,
    dateFormat: d.dateFormat || "",
    stateFormat: d.stateFormat || "",
    fontSize: d.fontSize || "",
  };
}

export class TagEditor {
  /**
   * session: what outlives this start (session.mjs): the history, the tag
   * handles, the document handles; its steps reach the editor running when
   * they run (session.editor), never this one. armed() tells the tag type
   * picked in the palette ("" when none). signal ends this editor's listeners.
   */
  constructor({ root, viewer, server, session, bus, signers, typeInfo, armed = () => "", signal }) {
    Object.assign(this, { root, viewer, server, session, bus, signers, typeInfo, armed });
    this.history = session.history;
    this.selectedId = ""; // the tag focused or picked last (the properties panel's when alone)
    this.ids = []; // every selected tag, in the order picked (same size sizes to the first)
    this.beforeFocus = null; // the selection a Tab replaced: Space on the newly focused tag adds it to that
    this.pointerFocus = false; // a press is focusing a tag: it picks the selection itself
    this.clipboard = null; // what copy (clipboard.mjs) took: {fields, page} or {group: [{fields, page}]}
    this.handles = session.tags; // tag id → handle {id}: undo steps follow a tag across re-creation
    this.guesses = new Map(); // tag id → {fields, seq}: shown while its saves are under way
    this.seq = 0;
    this.spot = null; // {page, left, top}: the last spot clicked on a page, in pixels inside it
    this.pointer = null; // {x, y}: where the pointer is over the pages (client pixels), null once it leaves
    const opts = { signal };
    wirePointer(this, signal);
    root.addEventListener("focusin", (e) => {
      const id = e.target.closest?.(".tag")?.dataset.tagId;
      if (!id || this.pointerFocus) return;
      if (this.ids.length > 1 && !e.relatedTarget?.closest?.("[data-field-list]")) {
        // Tab moves among tags and keeps a group; Space adds or removes the focused one.
        // (A pick in the field list selects its tag alone.)
        if (this.ids.includes(id)) this.selectedId = id;
        return;
      }
      const prev = this.ids;
      this.select(id);
      if (prev.length && !prev.includes(id)) this.beforeFocus = prev;
    }, opts);
    const observer = new MutationObserver((records) => this.onSwap(records));
    observer.observe(root, { childList: true, subtree: true });
    signal?.addEventListener("abort", () => observer.disconnect());
  }

  /** The editor running now (after a page edit rebuilt the room, another one): undo steps work on it. */
  get live() {
    return this.session.editor || this;
  }

  /** Where a page is, as a step keeps it: its document's handle and its number. */
  locate(page) {
    return { doc: this.session.doc(page.el.dataset.documentId), page: page.number };
  }

  /** The page a step kept with locate, in the room as it is now. */
  pageFor(loc) {
    const el = this.root.querySelector(`.viewer-page[data-document-id="${CSS.escape(loc.doc.id)}"][data-page="${loc.page}"]`);
    const page = this.viewer.pageOf(el);
    if (!page) throw new Error(t("editor.undo.page_gone"));
    return page;
  }

  /** The last page clicked on, if it is still in the room. */
  lastClickedPage() {
    return this.spot?.page.el.isConnected ? this.spot.page : null;
  }

  handle(id) {
    if (!this.handles.has(id)) this.handles.set(id, { id });
    return this.handles.get(id);
  }

  rebind(handle, id) {
    this.handles.delete(handle.id);
    handle.id = id;
    this.handles.set(id, handle);
  }

  // ---- selection -------------------------------------------------------

  /** The tag focused or picked last. */
  get selected() {
    return findTag(this.selectedId);
  }

  /** Every selected tag element, in the order picked. */
  get selectedEls() {
    return this.ids.map(findTag).filter(Boolean);
  }

  select(id) {
    this.setSelection(id ? [id] : [], id);
  }

  /**
   * Makes ids the selection (primary: the tag the panel and the keyboard act
   * on first); marks them (aria-selected, data-selected; resize handles on a
   * lone tag), tells the panels, and says the size of a group in the status line.
   */
  setSelection(ids, primary = ids[ids.length - 1] || "") {
    ids = ids.filter((id, i) => id && ids.indexOf(id) === i);
    if (!ids.includes(primary)) primary = ids[ids.length - 1] || "";
    const same = ids.length === this.ids.length && ids.every((id, i) => id === this.ids[i]) && primary === this.selectedId;
    if (same && this.selectedEls.every((el) => el.getAttribute("aria-selected") === "true")) return;
    const was = this.ids.length;
    this.clearMarks();
    this.ids = ids;
    this.selectedId = primary;
    this.beforeFocus = null;
    const els = this.selectedEls;
    for (const el of els) this.mark(el, els.length === 1);
    this.bus.emit("select", { el: this.selected, els });
    if (els.length > 1 || was > 1) this.bus.emit("status", { message: selectionMessage(els.length) });
  }

  /** Adds a tag to the selection, or takes it out (Shift/Ctrl/Cmd+click, Space). */
  toggle(id) {
    const base = this.beforeFocus && this.ids.length === 1 && this.ids[0] === id ? this.beforeFocus : this.ids;
    const next = base === this.beforeFocus ? unionIds(base, [id]) : toggleId(this.ids, id);
    this.setSelection(next, next.includes(id) ? id : next[next.length - 1]);
  }

  clearSelection() {
    this.select("");
  }

  mark(el, handles = true) {
    el.setAttribute("aria-selected", "true");
    el.dataset.selected = "";
    if (!handles) {
      el.querySelectorAll(".tag__handle").forEach((h) => h.remove());
      return;
    }
    if (!el.querySelector(".tag__handle")) {
      for (const h of HANDLES) {
        const s = document.createElement("span");
        s.className = `tag__handle tag__handle--${h}`;
        s.dataset.handle = h;
        s.setAttribute("aria-hidden", "true");
        el.append(s);
      }
    }
  }

  clearMarks() {
    for (const el of this.root.querySelectorAll('.tag[aria-selected="true"], .tag[data-selected]')) {
      el.setAttribute("aria-selected", "false");
      delete el.dataset.selected;
      el.querySelectorAll(".tag__handle").forEach((h) => h.remove());
    }
  }

  /** A swapped-in tag (the server's answer) is placed, and selected again if it was. */
  onSwap(records) {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (!(node instanceof Element) || !node.classList.contains("tag")) continue;
        if (this.relocate(node)) continue; // placed when it lands on its page
        const guess = this.guesses.get(node.dataset.tagId);
        if (guess) node.classList.add("tag--pending");
        this.viewer.pageOf(node)?.placeTag(node, guess ? guess.fields : undefined);
        if (node.dataset.tagId && this.ids.includes(node.dataset.tagId)) {
          this.mark(node, this.ids.length === 1);
          if (node.dataset.tagId === this.selectedId && (!document.activeElement || document.activeElement === document.body)) node.focus({ preventScroll: true });
          this.bus.emit("select", { el: this.selected, els: this.selectedEls });
        }
      }
    }
  }

  /**
   * Moves a tag element to the layer of the page the server says it is on
   * (data-tag-page, same document): a save that moved it to another page, or
   * the undo of one. True when it was moved.
   */
  relocate(el) {
    const want = el.dataset.tagPage;
    const here = el.closest(".viewer-page");
    if (!want || !here || here.dataset.page === want) return false;
    const layer = here.closest(".viewer-doc")?.querySelector(`.viewer-page[data-page="${CSS.escape(want)}"] .viewer-page__tags`);
    if (!layer) return false;
    layer.append(el);
    return true;
  }

  /** The PDF rectangle of the given size whose top-left corner shows at (left, top) pixels in page, kept inside it. */
  rectAt(page, size, left, top) {
    const origin = { x: page.box.llx, y: page.box.lly, width: size.width, height: size.height };
    const s = pdfRectToScreen(page.box, page.rotate, page.scale, origin);
    return moveRect(page.box, page.rotate, origin, (left - s.left) / page.scale, (top - s.top) / page.scale);
  }

  /**
   * Carries a tag to another page: of the same document, one save of its new
   * page and place; of another document (a tag belongs to its document), a
   * new tag there and this one removed, as one undoable step.
   */
  async carry(id, from, to, rect) {
    const el = findTag(id);
    if (!el) return;
    const fields = { ...this.current(el), ...rect, page: to.number };
    if (from.doc === to.doc) {
      const before = this.saved(el);
      const was = el.dataset.tagPage;
      el.dataset.tagPage = String(to.number); // shown there while the save is under way
      to.el.querySelector(".viewer-page__tags").append(el);
      try {
        return await this.change(id, fields, { before });
      } catch (err) {
        const back = findTag(id);
        if (back) {
          back.dataset.tagPage = was;
          this.relocate(back);
        }
        throw err;
      }
    }
    const oldHandle = this.handle(id);
    const before = this.saved(el);
    const newHandle = { id: "" };
    const created = await this.createTag(to, fields);
    this.rebind(newHandle, created.dataset.tagId);
    await this.server.remove(oldHandle.id);
    this.select(newHandle.id);
    created.focus({ preventScroll: true });
    const fromLoc = this.locate(from);
    const toLoc = this.locate(to);
    this.history.push({
      label: t("editor.undo.move_tag"),
      undo: async () => {
        const ed = this.live;
        this.rebind(oldHandle, (await ed.createTag(ed.pageFor(fromLoc), before)).dataset.tagId);
        await ed.server.remove(newHandle.id);
      },
      redo: async () => {
        const ed = this.live;
        this.rebind(newHandle, (await ed.createTag(ed.pageFor(toLoc), fields)).dataset.tagId);
        await ed.server.remove(oldHandle.id);
      },
    });
  }

  // ---- commands ----------------------------------------------------------

  /** Places a new tag of type with its top-left corner at (left, top) pixels in page. */
  place(page, type, left, top) {
    const info = this.typeInfo(type);
    const size = screenSizeToPdf(page.rotate, info.width, info.height);
    const w = (page.rotate % 180 === 0 ? size.width : size.height) * page.scale;
    const h = (page.rotate % 180 === 0 ? size.height : size.width) * page.scale;
    const screen = clampScreenRect({ left, top, width: w, height: h }, page.el.clientWidth, page.el.clientHeight);
    const rect = clampRect(page.box, screenRectToPdf(page.box, page.rotate, page.scale, screen));
    return this.create(page, this.newFields(page, type, rect));
  }

  /** The fields of a new tag of type at rect on page (the picked signer, required, a date's default format). */
  newFields(page, type, rect) {
    const fields = { type, signerId: this.signers.current(), page: page.number, ...rect, required: true };
    const { date, format } = this.typeInfo(type);
    if (date) fields.dateFormat = format;
    return fields;
  }

  /** Creates a tag (an undoable step) and selects it. */
  async create(page, fields) {
    const handle = { id: "" };
    const el = await this.createTag(page, fields);
    this.rebind(handle, el.dataset.tagId);
    this.select(el.dataset.tagId);
    el.focus({ preventScroll: true });
    const loc = this.locate(page);
    this.history.push({
      label: t("editor.undo.add_tag"),
      undo: () => this.live.unsave(handle),
      redo: async () => {
        const ed = this.live;
        this.rebind(handle, (await ed.createTag(ed.pageFor(loc), fields)).dataset.tagId);
      },
    });
    return el;
  }

  /** Draws a placeholder at once, then asks the server; the answer replaces it. */
  async createTag(page, fields) {
    const ph = this.placeholder(page, fields);
    try {
      const el = await this.server.create(ph, page.doc.position, fields);
      if (!el) throw new Error(t("editor.error.answer_no_tag"));
      return el;
    } catch (err) {
      ph.remove();
      throw err;
    }
  }

  /** Saves new fields of a tag as an undoable step; before defaults to what is saved now. */
  async change(id, after, { before, mergeKey } = {}) {
    const handle = this.handle(id);
    const el = findTag(id);
    if (!el) return;
    before ||= this.saved(el);
    const seq = ++this.seq;
    this.preview(el, after, seq);
    try {
      await this.server.update(handle.id, after);
    } catch (err) {
      this.guesses.delete(handle.id);
      if (err.status === 404) return this.removedElsewhere(handle.id);
      this.revert(handle.id);
      throw err;
    }
    if (this.guesses.get(handle.id)?.seq === seq) {
      this.guesses.delete(handle.id);
      findTag(handle.id)?.classList.remove("tag--pending");
    }
    this.history.push({
      label: t("editor.undo.change_tag"),
      mergeKey,
      undo: () => this.live.resave(handle, before),
      redo: () => this.live.resave(handle, after),
    });
  }

  /** Removes a tag as an undoable step. */
  async remove(id) {
    const el = findTag(id);
    if (!el) return;
    const handle = this.handle(id);
    const loc = this.locate(this.viewer.pageOf(el));
    const fields = this.saved(el);
    if (this.selectedId === id) this.clearSelection();
    el.classList.add("tag--pending");
    try {
      await this.server.remove(handle.id);
    } catch (err) {
      if (err.status === 404) return this.removedElsewhere(handle.id);
      findTag(handle.id)?.classList.remove("tag--pending");
      throw err;
    }
    this.history.push({
      label: t("editor.undo.delete_tag"),
      undo: async () => {
        const ed = this.live;
        this.rebind(handle, (await ed.createTag(ed.pageFor(loc), fields)).dataset.tagId);
      },
      redo: () => this.live.unsave(handle),
    });
  }

  /** Saves fields of a tag for an undo or redo; a tag removed in another window is dropped here. */
  async resave(handle, fields) {
    try {
      await this.server.update(handle.id, fields);
    } catch (err) {
      if (err.status === 404) return this.removedElsewhere(handle.id);
      throw err;
    }
  }

  /** Removes a tag for an undo or redo; one already removed in another window is dropped here. */
  async unsave(handle) {
    try {
      await this.server.remove(handle.id);
    } catch (err) {
      if (err.status === 404) return this.removedElsewhere(handle.id);
      throw err;
    }
  }

  /** The server no longer has this tag (removed in another window): drop it here too, and say so. */
  removedElsewhere(id) {
    if (this.ids.includes(id)) this.setSelection(this.ids.filter((x) => x !== id));
    this.guesses.delete(id);
    findTag(id)?.remove();
    this.bus.emit("status", { message: t("editor.status.tag_removed_elsewhere") });
  }

  /** A placeholder of a new tag on its page, shown while the server is asked. */
  placeholder(page, fields) {
    const ph = document.createElement("div");
    ph.className = `tag tag--pending ${this.signers.colorClass(fields.signerId)}`;
    ph.dataset.tagType = fields.type;
    ph.setAttribute("aria-label", t("editor.tag.saving", { name: this.typeInfo(fields.type).label }));
    ph.innerHTML = `<span class="tag__type"></span>`;
    ph.firstChild.textContent = this.typeInfo(fields.type).label;
    page.el.querySelector(".viewer-page__tags").append(ph);
    page.placeTag(ph, fields);
    return ph;
  }

  /** Selects every tag of the page worked on (the selected tag's, else the last clicked, else the one in view). */
  selectAll() {
    const page = (this.selected && this.viewer.pageOf(this.selected)) || this.lastClickedPage() || this.viewer.currentPage();
    if (!page) return false;
    const ids = [...page.el.querySelectorAll(".tag[data-tag-id]")].map((el) => el.dataset.tagId);
    this.setSelection(ids, ids[0]);
    return true;
  }

  /** Moves the selected tag by (right, down) points on screen, kept on its page. */
  nudge(right, down) {
    const el = this.selected;
    if (!el) return;
    const page = this.viewer.pageOf(el);
    const [dx, dy] = screenDeltaToPdf(page.rotate, right, down);
    const cur = this.current(el);
    const rect = clampRect(page.box, { ...tagRect(el), x: cur.x + dx, y: cur.y + dy });
    return this.change(el.dataset.tagId, { ...cur, ...rect }, { before: this.saved(el), mergeKey: `nudge:${this.handle(el.dataset.tagId).id}` });
  }

  /** Notes a spot on a page (clicked, or where a palette drag ended): the next paste goes there. */
  noteSpot(page, left, top) {
    this.spot = { page, left, top };
  }

  /** The fields the server last confirmed for a tag (its element's data attributes). */
  saved(el) {
    return tagFields(el);
  }

  /** The fields as shown now: the newest guess while saves are under way. */
  current(el) {
    return this.guesses.get(el.dataset.tagId)?.fields || this.saved(el);
  }

  /** Shows a change before the server confirms it. */
  preview(el, fields, seq) {
    this.guesses.set(el.dataset.tagId, { fields, seq });
    el.classList.add("tag--pending");
    this.viewer.pageOf(el)?.placeTag(el, fields);
  }

  /** Puts a tag back where the server last had it (a refused save). */
  revert(id) {
    const el = findTag(id);
    if (!el) return;
    this.relocate(el);
    el.classList.remove("tag--pending");
    this.viewer.pageOf(el)?.placeTag(el, this.saved(el));
    if (this.ids.includes(id)) this.bus.emit("select", { el: this.selected, els: this.selectedEls });
  }

  // ---- keyboard ----------------------------------------------------------

  /** Runs a command of the shortcut table; true when it was handled. */
  command(name, arg) {
    const group = this.ids.length > 1;
    switch (name) {
      case "delete":
        if (!this.ids.length) return false;
        this.run(group ? removeGroup(this, this.ids) : this.remove(this.selectedId));
        return true;
      case "nudge":
        if (!this.ids.length) return false;
        this.run(group ? nudgeGroup(this, arg[0], arg[1]) : this.nudge(arg[0], arg[1]));
        return true;
      case "copy":
        return copy(this);
      case "paste":
        if (!this.clipboard) return false;
        this.run(paste(this));
        return true;
      case "duplicate":
        if (!copy(this)) return false;
        this.run(paste(this, { offset: true }));
        return true;
      case "select-all":
        return this.selectAll();
      case "toggle": {
        const tag = document.activeElement?.closest?.(".tag");
        if (!tag?.dataset.tagId || !this.root.contains(tag)) return false;
        this.toggle(tag.dataset.tagId);
        return true;
      }
      case "align":
      case "distribute":
      case "same":
        return arrange(this, name, arg);
      case "escape":
        if (!this.ids.length) return false;
        this.selected?.blur();
        this.clearSelection();
        return true;
      default:
        return false;
    }
  }

  /** Runs an async change, reporting a failure on the bus (the tag is already back). */
  run(promise) {
    return Promise.resolve(promise).catch((err) => this.bus.emit("error", { message: err.message, fields: err.fields }));
  }
}
