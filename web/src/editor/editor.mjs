// The tag editor: one manager that owns selection, clipboard, keyboard and
// the drag/resize of placed tags, and turns every change into one save and
// one undoable step. Talks to the viewer for geometry and to the server
// module for saves; to the panels only through the bus.
import { clampRect, clampScreenRect, screenDeltaToPdf, screenRectToPdf, screenSizeToPdf } from "./coords.mjs";
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
  constructor({ root, viewer, server, history, bus, signers, typeInfo }) {
    Object.assign(this, { root, viewer, server, history, bus, signers, typeInfo });
    this.selectedId = "";
    this.clipboard = null;
    this.handles = new Map(); // tag id → handle {id}: undo steps follow a tag across re-creation
    this.guesses = new Map(); // tag id → {fields, seq}: shown while its saves are under way
    this.seq = 0;
    this.lastPage = null;
    this.drag = null;
    root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    root.addEventListener("focusin", (e) => {
      const tag = e.target.closest?.(".tag");
      if (tag?.dataset.tagId) this.select(tag.dataset.tagId);
    });
    new MutationObserver((records) => this.onSwap(records)).observe(root, { childList: true, subtree: true });
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
    this.history.push({
      label: "add tag",
      undo: () => this.server.remove(handle.id),
      redo: async () => this.rebind(handle, (await this.createTag(page, fields)).dataset.tagId),
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
      undo: () => this.server.update(handle.id, before),
      redo: () => this.server.update(handle.id, after),
    });
  }

  /** Removes a tag as an undoable step. */
  async remove(id) {
    const el = findTag(id);
    if (!el) return;
    const handle = this.handle(id);
    const page = this.viewer.pageOf(el);
    const fields = this.saved(el);
    if (this.selectedId === id) this.clearSelection();
    el.classList.add("tag--pending");
    try {
      await this.server.remove(handle.id);
    } catch (err) {
      findTag(handle.id)?.classList.remove("tag--pending");
      throw err;
    }
    this.history.push({
      label: "delete tag",
      undo: async () => this.rebind(handle, (await this.createTag(page, fields)).dataset.tagId),
      redo: () => this.server.remove(handle.id),
    });
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
    this.bus.emit("status", { message: `${this.typeInfo(el.dataset.tagType).label} copied. Click a page, then paste (Ctrl V).` });
    return true;
  }

  /** Pastes the copied tag on the page last clicked (or the one in view): offset on its own page, same spot elsewhere. */
  async paste() {
    if (!this.clipboard) return;
    const page = this.lastPage || this.viewer.currentPage();
    if (!page) return;
    const f = { ...this.clipboard.fields, page: page.number };
    let rect = tagRect({ dataset: { x: f.x, y: f.y, w: f.width, h: f.height } });
    if (page === this.clipboard.page) {
      const [dx, dy] = screenDeltaToPdf(page.rotate, 12, 12);
      rect = { ...rect, x: rect.x + dx, y: rect.y + dy };
    }
    Object.assign(f, clampRect(page.box, rect));
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
    el.classList.remove("tag--pending");
    this.viewer.pageOf(el)?.placeTag(el, this.saved(el));
    if (this.selectedId === id) this.bus.emit("select", { el });
  }

  // ---- pointer -----------------------------------------------------------

  onPointerDown(e) {
    if (e.button !== 0) return;
    const page = this.viewer.pageOf(e.target);
    if (page) this.lastPage = page;
    const tag = e.target.closest(".tag");
    if (tag && tag.dataset.tagId) {
      e.preventDefault();
      tag.focus({ preventScroll: true });
      this.select(tag.dataset.tagId);
      this.startDrag(e, tag, page, e.target.dataset.handle || "");
      return;
    }
    const armed = page && this.bus.placing?.();
    if (armed) {
      e.preventDefault();
      const box = page.el.getBoundingClientRect();
      this.bus.emit("placed");
      this.run(this.place(page, armed, e.clientX - box.left, e.clientY - box.top));
      return;
    }
    if (page) this.clearSelection();
  }

  startDrag(e, tag, page, dir) {
    const start = { x: e.clientX, y: e.clientY, left: tag.offsetLeft, top: tag.offsetTop, width: tag.offsetWidth, height: tag.offsetHeight };
    const pw = page.el.clientWidth;
    const ph = page.el.clientHeight;
    const min = MIN_SIZE * page.scale;
    let moved = false;
    tag.setPointerCapture(e.pointerId);
    const move = (ev) => {
      const dx = ev.clientX - start.x;
      const dy = ev.clientY - start.y;
      if (!moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      moved = true;
      tag.classList.add("tag--dragging");
      let r = { left: start.left, top: start.top, width: start.width, height: start.height };
      if (!dir) {
        r = clampScreenRect({ ...r, left: start.left + dx, top: start.top + dy }, pw, ph);
      } else {
        if (dir.includes("e")) r.width = Math.min(Math.max(start.width + dx, min), pw - start.left);
        if (dir.includes("s")) r.height = Math.min(Math.max(start.height + dy, min), ph - start.top);
        if (dir.includes("w")) {
          const left = Math.min(Math.max(start.left + dx, 0), start.left + start.width - min);
          r.width = start.width + (start.left - left);
          r.left = left;
        }
        if (dir.includes("n")) {
          const top = Math.min(Math.max(start.top + dy, 0), start.top + start.height - min);
          r.height = start.height + (start.top - top);
          r.top = top;
        }
      }
      Object.assign(tag.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
      tag.screenGuess = r;
    };
    const end = () => {
      tag.removeEventListener("pointermove", move);
      tag.removeEventListener("pointerup", end);
      tag.removeEventListener("pointercancel", end);
      tag.classList.remove("tag--dragging");
      if (!moved || !tag.screenGuess) return;
      const rect = clampRect(page.box, screenRectToPdf(page.box, page.rotate, page.scale, tag.screenGuess));
      tag.screenGuess = null;
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
        this.run(this.paste());
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
