// The tag editor: one manager that owns selection, clipboard, keyboard and
// the drag/resize of placed tags, and turns every change into one save and
// one undoable step. Talks to the viewer for geometry and to the server
// module for saves; to the panels only through the bus.
import { clampRect, clampScreenRect, moveRect, pdfRectToScreen, resizeRect, screenDeltaToPdf, screenRectToPdf, screenSizeToPdf } from "./coords.mjs";
import { findTag } from "./server.mjs";
import { tagRect } from "./viewer.mjs";

const DRAG_THRESHOLD = 3; // pixels before a press becomes a drag
const MIN_SIZE = 4; // points
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
    this.selectedId = "";
    this.clipboard = null;
    this.handles = session.tags; // tag id → handle {id}: undo steps follow a tag across re-creation
    this.guesses = new Map(); // tag id → {fields, seq}: shown while its saves are under way
    this.seq = 0;
    this.spot = null; // {page, left, top}: the last spot clicked on a page, in pixels inside it
    this.pointer = null; // {x, y}: where the pointer is over the pages (client pixels), null once it leaves
    this.drag = null;
    const opts = { signal };
    root.addEventListener("pointerdown", (e) => this.onPointerDown(e), opts);
    root.addEventListener("pointermove", (e) => {
      this.pointer = { x: e.clientX, y: e.clientY };
    }, { passive: true, signal });
    root.addEventListener("pointerleave", () => {
      this.pointer = null;
    }, opts);
    root.addEventListener("focusin", (e) => {
      const tag = e.target.closest?.(".tag");
      if (tag?.dataset.tagId) this.select(tag.dataset.tagId);
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
    if (!page) throw new Error("That page is no longer in the room (its document was removed), so this step cannot be undone or redone.");
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

  get selected() {
    return findTag(this.selectedId);
  }

  select(id) {
    if (this.selectedId === id && this.selected?.getAttribute("aria-selected") === "true") return;
    this.clearMarks();
    this.selectedId = id || "";
    const el = this.selected;
    if (el) this.mark(el);
    this.bus.emit("select", { el });
  }

  clearSelection() {
    this.select("");
  }

  mark(el) {
    el.setAttribute("aria-selected", "true");
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
    for (const el of this.root.querySelectorAll('.tag[aria-selected="true"]')) {
      el.setAttribute("aria-selected", "false");
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
        if (node.dataset.tagId && node.dataset.tagId === this.selectedId) {
          this.mark(node);
          if (!document.activeElement || document.activeElement === document.body) node.focus({ preventScroll: true });
          this.bus.emit("select", { el: node });
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

  /** The page under a point of the window (a tag being dragged does not hide it). */
  pageAt(x, y) {
    for (const el of document.elementsFromPoint(x, y)) {
      if (el.classList?.contains("viewer-page")) return this.viewer.pageOf(el);
    }
    return null;
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
      label: "move tag",
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
    const fields = { type, signerId: this.signers.current(), page: page.number, ...rect, required: true };
    if (type === "DATETEMPLATE" || type === "COMMISSIONEXPIRATIONTEMPLATE") fields.dateFormat = "MM/DD/YYYY";
    return this.create(page, fields);
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
      label: "add tag",
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
    const ph = document.createElement("div");
    ph.className = `tag tag--pending ${this.signers.colorClass(fields.signerId)}`;
    ph.dataset.tagType = fields.type;
    ph.setAttribute("aria-label", `${this.typeInfo(fields.type).label} (saving)`);
    ph.innerHTML = `<span class="tag__type"></span>`;
    ph.firstChild.textContent = this.typeInfo(fields.type).label;
    page.el.querySelector(".viewer-page__tags").append(ph);
    page.placeTag(ph, fields);
    try {
      const el = await this.server.create(ph, page.doc.position, fields);
      if (!el) throw new Error("The server's answer held no tag.");
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
      label: "change tag",
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
      label: "delete tag",
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
    if (this.selectedId === id) this.clearSelection();
    this.guesses.delete(id);
    findTag(id)?.remove();
    this.bus.emit("status", { message: "This tag was removed in another window." });
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

  copy() {
    const el = this.selected;
    if (!el) return false;
    const page = this.viewer.pageOf(el);
    this.clipboard = { fields: this.current(el), page };
    this.bus.emit("status", { message: `${this.typeInfo(el.dataset.tagType).label} copied. Point at a spot on a page (or click it), then paste (Ctrl V).` });
    return true;
  }

  /** Notes a spot on a page (clicked, or where a palette drag ended): the next paste goes there. */
  noteSpot(page, left, top) {
    this.spot = { page, left, top };
  }

  /** Where a paste goes: the page under the pointer and its position, else the spot last clicked. */
  pasteTarget() {
    if (this.pointer) {
      const page = this.viewer.pageOf(document.elementFromPoint(this.pointer.x, this.pointer.y));
      if (page) {
        const box = page.el.getBoundingClientRect();
        return { page, left: this.pointer.x - box.left, top: this.pointer.y - box.top };
      }
    }
    if (this.spot?.page.el.isConnected) return this.spot;
    return null;
  }

  /**
   * Pastes the copied tag with its top-left corner at the pointer (or the
   * spot last clicked), kept inside that page; with offset (a duplicate), or
   * with no such spot, a little below and right of the original on its own
   * page, or at the same place on the page in view.
   */
  async paste({ offset = false } = {}) {
    if (!this.clipboard) return;
    const at = offset ? null : this.pasteTarget();
    const page = at?.page || (offset ? this.clipboard.page : null) || this.lastClickedPage() || this.viewer.currentPage();
    if (!page) return;
    const f = { ...this.clipboard.fields, page: page.number };
    const size = { width: f.width, height: f.height };
    let rect;
    if (at) {
      rect = this.rectAt(page, size, at.left, at.top);
    } else {
      rect = { x: f.x, y: f.y, ...size };
      if (page === this.clipboard.page) {
        const [dx, dy] = screenDeltaToPdf(page.rotate, 12, 12);
        rect = { ...rect, x: rect.x + dx, y: rect.y + dy };
      }
      rect = clampRect(page.box, rect);
    }
    Object.assign(f, rect);
    await this.create(page, f);
    this.clipboard = { fields: f, page };
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
    if (this.selectedId === id) this.bus.emit("select", { el });
  }

  // ---- pointer -----------------------------------------------------------

  onPointerDown(e) {
    if (e.button !== 0) return;
    const page = this.viewer.pageOf(e.target);
    if (page) {
      const box = page.el.getBoundingClientRect();
      this.noteSpot(page, e.clientX - box.left, e.clientY - box.top);
    }
    const tag = e.target.closest(".tag");
    if (tag && tag.dataset.tagId) {
      e.preventDefault();
      tag.focus({ preventScroll: true });
      this.select(tag.dataset.tagId);
      this.startDrag(e, tag, page, e.target.dataset.handle || "");
      return;
    }
    const armed = page && this.armed();
    if (armed) {
      e.preventDefault();
      const box = page.el.getBoundingClientRect();
      this.bus.emit("placed");
      this.run(this.place(page, armed, e.clientX - box.left, e.clientY - box.top));
      return;
    }
    if (page) this.clearSelection();
  }

  /**
   * Follows a move (dir "") or a resize (dir a handle: "n", "se", …) in PDF
   * points: a move keeps the width and height exactly, a resize keeps the
   * edges not dragged exactly, whatever the zoom (no round trip through
   * rounded pixel sizes). A move that ends over another page (of this or
   * another document) carries the tag there; near the viewer's top or bottom
   * edge the pages scroll.
   */
  startDrag(e, tag, page, dir) {
    const start = { x: e.clientX, y: e.clientY };
    const box0 = tag.getBoundingClientRect();
    const grab = { x: e.clientX - box0.left, y: e.clientY - box0.top };
    const from = this.current(tag);
    const rect0 = { x: from.x, y: from.y, width: from.width, height: from.height };
    const scroller = this.viewer.scroller;
    let rect = null;
    let over = page; // the page under the pointer
    let last = null;
    tag.setPointerCapture(e.pointerId);
    const follow = (ev) => {
      const dx = ev.clientX - start.x;
      const dy = ev.clientY - start.y;
      if (!rect && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      tag.classList.add("tag--dragging");
      over = (!dir && this.pageAt(ev.clientX, ev.clientY)) || page;
      if (over !== page) {
        // Over another page: the tag follows the pointer there; its place is worked out on that page.
        const b = over.el.getBoundingClientRect();
        rect = this.rectAt(over, rect0, ev.clientX - grab.x - b.left, ev.clientY - grab.y - b.top);
        const s = pdfRectToScreen(over.box, over.rotate, over.scale, rect);
        const here = page.el.getBoundingClientRect();
        Object.assign(tag.style, { left: `${s.left + b.left - here.left}px`, top: `${s.top + b.top - here.top}px`, width: `${s.width}px`, height: `${s.height}px` });
        return;
      }
      const right = dx / page.scale;
      const down = dy / page.scale;
      rect = dir ? resizeRect(page.box, page.rotate, rect0, dir, right, down, MIN_SIZE) : moveRect(page.box, page.rotate, rect0, right, down);
      page.placeTag(tag, rect);
    };
    const move = (ev) => {
      last = ev;
      follow(ev);
      if (dir || !rect) return;
      const v = scroller.getBoundingClientRect();
      const edge = ev.clientY < v.top + 32 ? -1 : ev.clientY > v.bottom - 32 ? 1 : 0;
      if (edge) {
        scroller.scrollTop += 24 * edge;
        follow(ev);
      }
    };
    const end = () => {
      tag.removeEventListener("pointermove", move);
      tag.removeEventListener("pointerup", end);
      tag.removeEventListener("pointercancel", end);
      tag.classList.remove("tag--dragging");
      if (!rect) return;
      if (over !== page) {
        this.run(this.carry(tag.dataset.tagId, page, over, rect).catch((err) => {
          this.revert(tag.dataset.tagId);
          throw err;
        }));
        return;
      }
      this.run(this.change(tag.dataset.tagId, { ...this.current(tag), ...rect }));
    };
    tag.addEventListener("pointermove", move);
    tag.addEventListener("pointerup", end);
    tag.addEventListener("pointercancel", end);
  }

  // ---- keyboard ----------------------------------------------------------

  /** Runs a command of the shortcut table; true when it was handled. */
  command(name, arg) {
    switch (name) {
      case "delete":
        if (!this.selectedId) return false;
        this.run(this.remove(this.selectedId));
        return true;
      case "nudge":
        if (!this.selectedId) return false;
        this.run(this.nudge(arg[0], arg[1]));
        return true;
      case "copy":
        return this.copy();
      case "paste":
        if (!this.clipboard) return false;
        this.run(this.paste());
        return true;
      case "duplicate":
        if (!this.copy()) return false;
        this.run(this.paste({ offset: true }));
        return true;
      case "escape":
        if (!this.selectedId) return false;
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
