// The tag editor: one manager that owns selection, clipboard, keyboard and
// the drag/resize of placed tags, and turns every change into one save and
// one undoable step. Talks to the viewer for geometry and to the server
// module for saves; to the panels only through the bus.
import { align, distribute, keepInside, sameSize } from "./align.mjs";
import { clampRect, clampScreenRect, moveRect, pdfRectToScreen, resizeRect, screenDeltaToPdf, screenRectToPdf, screenSizeToPdf } from "./coords.mjs";
import { clampGroupMove, hitByMarquee, rectFromPoints, selectionMessage, toggleId, unionIds } from "./selection.mjs";
import { findTag } from "./server.mjs";
import { SNAP_PIXELS, snapEdges, snapLines, snapMove } from "./snap.mjs";
import { tagRect } from "./viewer.mjs";

const DRAG_THRESHOLD = 3; // pixels before a press becomes a drag
const MIN_SIZE = 4; // points
const MIN_DRAWN = 8; // points: a drawn tag smaller than this either way gets the type's default size
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
    const ph = this.placeholder(page, fields);
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
    if (this.ids.includes(id)) this.setSelection(this.ids.filter((x) => x !== id));
    this.guesses.delete(id);
    findTag(id)?.remove();
    this.bus.emit("status", { message: "This tag was removed in another window." });
  }

  // ---- groups: one request (the batch route) and one undo step each -------

  /**
   * Sends a group's changes in one request and puts the server's answer in
   * the page: updated tags replace theirs, created ones their placeholders
   * (in order), deleted ones go. Resolves with the created elements.
   */
  async applyBatch(changes, placeholders = []) {
    const { created, updated } = await this.server.batch(changes);
    for (const el of updated) {
      const old = findTag(el.dataset.tagId);
      if (old) old.replaceWith(el);
    }
    created.forEach((el, i) => placeholders[i]?.replaceWith(el));
    for (const id of changes.delete || []) {
      this.guesses.delete(id);
      findTag(id)?.remove();
    }
    if ((changes.delete || []).some((id) => this.ids.includes(id))) this.setSelection(this.ids.filter((id) => !changes.delete.includes(id)));
    return created;
  }

  /** A placeholder of a new tag on its page, shown while the server is asked. */
  placeholder(page, fields) {
    const ph = document.createElement("div");
    ph.className = `tag tag--pending ${this.signers.colorClass(fields.signerId)}`;
    ph.dataset.tagType = fields.type;
    ph.setAttribute("aria-label", `${this.typeInfo(fields.type).label} (saving)`);
    ph.innerHTML = `<span class="tag__type"></span>`;
    ph.firstChild.textContent = this.typeInfo(fields.type).label;
    page.el.querySelector(".viewer-page__tags").append(ph);
    page.placeTag(ph, fields);
    return ph;
  }

  /** Creates tags ([{page, fields}]) in one request; resolves with the server's elements, in order. */
  async createTags(list) {
    const phs = list.map(({ page, fields }) => this.placeholder(page, fields));
    try {
      const created = await this.applyBatch({ create: list.map(({ page, fields }) => ({ documentPosition: page.doc.position, ...fields, page: page.number })) }, phs);
      if (created.length !== list.length) throw new Error("The server's answer did not hold every new tag.");
      return created;
    } catch (err) {
      phs.forEach((ph) => ph.isConnected && ph.remove());
      throw err;
    }
  }

  /** Creates tags again for an undo or redo (items [{handle, loc, fields}]); the handles move to the new ids. */
  async recreate(items) {
    const created = await this.createTags(items.map((i) => ({ page: this.pageFor(i.loc), fields: i.fields })));
    created.forEach((el, k) => this.rebind(items[k].handle, el.dataset.tagId));
  }

  /** Saves fields of tags for an undo or redo (pairs [handle, fields]), one request. */
  resaveGroup(pairs) {
    return this.applyBatch({ update: pairs.map(([h, f]) => ({ id: h.id, ...f })) });
  }

  /**
   * Creates tags ([{page, fields}]) as one request and one undoable step, and
   * selects them (select: false leaves the selection alone: copies to other pages).
   */
  async createGroup(list, label = "add tags", { select = true } = {}) {
    if (!list.length) return [];
    const items = list.map(({ page, fields }) => ({ handle: { id: "" }, loc: this.locate(page), fields: { ...fields, page: page.number } }));
    const created = await this.createTags(list);
    created.forEach((el, k) => this.rebind(items[k].handle, el.dataset.tagId));
    if (select) this.setSelection(items.map((i) => i.handle.id), items[0].handle.id);
    this.history.push({
      label,
      undo: () => this.live.applyBatch({ delete: items.map((i) => i.handle.id) }),
      redo: () => this.live.recreate(items),
    });
    return created;
  }

  /**
   * Saves new fields of several tags ([{id, after, before?}]) as one request
   * and one undoable step; a refusal puts every one of them back.
   */
  async changeGroup(entries, { mergeKey, label = "change tags" } = {}) {
    entries = entries.filter((e) => findTag(e.id));
    if (!entries.length) return;
    const items = entries.map((e) => ({ handle: this.handle(e.id), before: e.before || this.saved(findTag(e.id)), after: e.after }));
    const seq = ++this.seq;
    for (const e of entries) this.preview(findTag(e.id), e.after, seq);
    try {
      await this.applyBatch({ update: items.map((i) => ({ id: i.handle.id, ...i.after })) });
    } catch (err) {
      for (const i of items) {
        this.guesses.delete(i.handle.id);
        this.revert(i.handle.id);
      }
      throw err;
    }
    for (const i of items) {
      if (this.guesses.get(i.handle.id)?.seq !== seq) continue;
      this.guesses.delete(i.handle.id);
      findTag(i.handle.id)?.classList.remove("tag--pending");
    }
    this.history.push({
      label,
      mergeKey,
      undo: () => this.live.resaveGroup(items.map((i) => [i.handle, i.before])),
      redo: () => this.live.resaveGroup(items.map((i) => [i.handle, i.after])),
    });
  }

  /** Removes tags as one request and one undoable step. */
  async removeGroup(ids) {
    const els = ids.map(findTag).filter(Boolean);
    if (!els.length) return;
    const items = els.map((el) => ({ handle: this.handle(el.dataset.tagId), loc: this.locate(this.viewer.pageOf(el)), fields: this.saved(el) }));
    this.clearSelection();
    els.forEach((el) => el.classList.add("tag--pending"));
    try {
      await this.applyBatch({ delete: items.map((i) => i.handle.id) });
    } catch (err) {
      items.forEach((i) => findTag(i.handle.id)?.classList.remove("tag--pending"));
      throw err;
    }
    this.history.push({
      label: "delete tags",
      undo: () => this.live.recreate(items),
      redo: () => this.live.applyBatch({ delete: items.map((i) => i.handle.id) }),
    });
  }

  /** A selected tag with its page and PDF rectangle as shown now. */
  member(el) {
    const page = this.viewer.pageOf(el);
    const f = this.current(el);
    return { el, page, box: page.box, rotate: page.rotate, rect: { x: f.x, y: f.y, width: f.width, height: f.height } };
  }

  /** Moves every selected tag by (right, down) points on screen, as one group kept on its pages. */
  nudgeGroup(right, down) {
    const members = this.selectedEls.map((el) => this.member(el));
    const [r, d] = clampGroupMove(members, right, down);
    if (!r && !d) return;
    const entries = members.map((m) => ({ id: m.el.dataset.tagId, before: this.saved(m.el), after: { ...this.current(m.el), ...moveRect(m.box, m.rotate, m.rect, r, d) } }));
    return this.changeGroup(entries, { label: "move tags", mergeKey: `nudge:${members.map((m) => this.handle(m.el.dataset.tagId).id).join(",")}` });
  }

  /**
   * Aligns (kind "align": left, center, right, top, middle, bottom),
   * distributes ("distribute": horizontal, vertical) or sizes ("same":
   * width, height, size — to the first selected tag) the selection, as one
   * step. Geometry is done as each page shows its tags (align.mjs), page by
   * page for align and distribute, in points; each result is kept on its page.
   */
  arrange(kind, how) {
    const members = this.selectedEls.map((el) => this.member(el));
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
      entries.push({ id: m.el.dataset.tagId, before: this.saved(m.el), after: { ...this.current(m.el), ...rect } });
    }
    this.run(this.changeGroup(entries, { label: kind === "same" ? `same ${how}` : `${kind} ${how}` }));
    return true;
  }

  /** Selects every tag of the page worked on (the selected tag's, else the last clicked, else the one in view). */
  selectAll() {
    const page = (this.selected && this.viewer.pageOf(this.selected)) || this.lastClickedPage() || this.viewer.currentPage();
    if (!page) return false;
    const ids = [...page.el.querySelectorAll(".tag[data-tag-id]")].map((el) => el.dataset.tagId);
    this.setSelection(ids, ids[0]);
    return true;
  }

  // ---- snapping ------------------------------------------------------------

  /** What a rectangle on page snaps to: the other tags there (not those in skip), the page edges and margins. */
  snapTarget(page, skip) {
    const others = [...page.el.querySelectorAll(".tag[data-tag-id]")].filter((el) => !skip.has(el.dataset.tagId)).map((el) => pdfRectToScreen(page.box, page.rotate, 1, this.current(el)));
    return { lines: snapLines(others, page.size.width, page.size.height), w: page.size.width, h: page.size.height, threshold: SNAP_PIXELS / page.scale };
  }

  /** Shows the guide lines of a snap on page (none: removes them). */
  showGuides(page, guides = []) {
    for (const g of this.root.querySelectorAll("[data-snap-guide]")) g.remove();
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
  snapMoved(page, rect, target, off) {
    if (off) return { rect, guides: [] };
    const s = snapMove(pdfRectToScreen(page.box, page.rotate, 1, rect), target.lines, target.w, target.h, target.threshold);
    return { rect: s.dx || s.dy ? moveRect(page.box, page.rotate, rect, s.dx, s.dy) : rect, guides: s.guides };
  }

  /** A resized PDF rectangle (edges in dir), snapped (unless off): {rect, guides}. */
  snapResized(page, rect, dir, target, off) {
    if (off) return { rect, guides: [] };
    const s = snapEdges(pdfRectToScreen(page.box, page.rotate, 1, rect), dir, target.lines, target.w, target.h, target.threshold, MIN_SIZE);
    return { rect: s.guides.length ? clampRect(page.box, screenRectToPdf(page.box, page.rotate, 1, s.rect)) : rect, guides: s.guides };
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
    const els = this.selectedEls;
    if (!els.length) return false;
    if (els.length > 1) {
      this.clipboard = { group: els.map((el) => ({ fields: this.current(el), page: this.viewer.pageOf(el) })) };
      this.bus.emit("status", { message: `${els.length} tags copied. Point at a spot on a page (or click it), then paste (Ctrl V).` });
      return true;
    }
    const el = els[0];
    const page = this.viewer.pageOf(el);
    this.clipboard = { fields: this.current(el), page };
    this.bus.emit("status", { message: `${this.typeInfo(el.dataset.tagType).label} copied. Point at a spot on a page (or click it), then paste (Ctrl V).` });
    return true;
  }

  /**
   * Pastes a copied group as one request and one step: at the pointer (or
   * the spot last clicked) the group's top-left corner lands there on that
   * page, keeping the members' places relative to each other (as shown);
   * with offset (duplicate) or no such spot, each member 12 pt below and
   * right of its original, on its own page.
   */
  async pasteGroup({ offset = false } = {}) {
    const group = this.clipboard.group.filter((g) => g.page.el.isConnected);
    if (!group.length) return;
    const at = offset ? null : this.pasteTarget();
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
    await this.createGroup(list, "paste tags");
    this.clipboard = { group: list.map((l) => ({ fields: l.fields, page: l.page })) };
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
    if (this.clipboard.group) return this.pasteGroup({ offset });
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
    if (this.ids.includes(id)) this.bus.emit("select", { el: this.selected, els: this.selectedEls });
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
      this.pointerFocus = true;
      tag.focus({ preventScroll: true });
      this.pointerFocus = false;
      const id = tag.dataset.tagId;
      if (e.shiftKey || e.ctrlKey || e.metaKey) {
        this.toggle(id); // adds or removes it; no drag
        return;
      }
      if (this.ids.length > 1 && this.ids.includes(id) && !e.target.dataset.handle) {
        this.selectedId = id;
        this.startGroupDrag(e, tag, page);
        return;
      }
      this.select(id);
      this.startDrag(e, tag, page, e.target.dataset.handle || "");
      return;
    }
    const armed = page && this.armed();
    const drawing = e.pointerType === "mouse" || e.pointerType === "pen";
    if (armed) {
      e.preventDefault();
      const box = page.el.getBoundingClientRect();
      const at = { left: e.clientX - box.left, top: e.clientY - box.top };
      if (!drawing) {
        // Touch: a tap places the default size (a drag scrolls).
        this.bus.emit("placed");
        this.run(this.place(page, armed, at.left, at.top));
        return;
      }
      this.startDraw(e, page, armed, at);
      return;
    }
    if (!page) return;
    if (drawing) {
      e.preventDefault();
      this.startMarquee(e, page);
      return;
    }
    this.clearSelection();
  }

  /** Follows a pointer from a press on el until it is released: move(ev), end(ev or null when cancelled). */
  follow(e, el, move, end) {
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
  startMarquee(e, page) {
    const box = page.el.getBoundingClientRect();
    const x0 = e.clientX - box.left;
    const y0 = e.clientY - box.top;
    const add = e.shiftKey || e.ctrlKey || e.metaKey;
    let band = null;
    this.follow(e, page.el, (ev) => {
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
        if (ev && !add) this.clearSelection();
        return;
      }
      const r = { left: parseFloat(band.style.left), top: parseFloat(band.style.top), width: parseFloat(band.style.width), height: parseFloat(band.style.height) };
      band.remove();
      if (!ev) return;
      const tags = [...page.el.querySelectorAll(".tag[data-tag-id]")].map((el) => ({ id: el.dataset.tagId, rect: pdfRectToScreen(page.box, page.rotate, page.scale, this.current(el)) }));
      const hit = hitByMarquee(r, tags);
      const ids = add ? unionIds(this.ids, hit) : hit;
      this.setSelection(ids, ids[0]);
      if (this.selected) {
        this.pointerFocus = true;
        this.selected.focus({ preventScroll: true });
        this.pointerFocus = false;
      }
    });
  }

  /**
   * A press on a page with a type picked (mouse or pen): a drag draws the
   * new tag's rectangle (snapped, unless Alt is held); a click, or a
   * rectangle under MIN_DRAWN points either way, places the type's default size.
   */
  startDraw(e, page, type, at) {
    const box = page.el.getBoundingClientRect();
    const target = this.snapTarget(page, new Set());
    let ghost = null;
    let shown = null; // the drawn rectangle, as the page shows it, in points
    this.follow(e, page.el, (ev) => {
      const x = Math.min(Math.max(ev.clientX - box.left, 0), box.width);
      const y = Math.min(Math.max(ev.clientY - box.top, 0), box.height);
      if (!ghost && Math.hypot(x - at.left, y - at.top) < DRAG_THRESHOLD) return;
      if (!ghost) {
        ghost = document.createElement("div");
        ghost.className = `tag tag--drawing ${this.signers.colorClass(this.signers.current())}`;
        ghost.dataset.drawRect = "";
        ghost.setAttribute("aria-hidden", "true");
        page.el.append(ghost);
      }
      const r = rectFromPoints(at.left / page.scale, at.top / page.scale, x / page.scale, y / page.scale);
      const dir = (x >= at.left ? "e" : "w") + (y >= at.top ? "s" : "n");
      const snapped = ev.altKey ? { rect: r, guides: [] } : snapEdges(r, dir, target.lines, target.w, target.h, target.threshold, 0);
      shown = snapped.rect;
      this.showGuides(page, snapped.guides);
      Object.assign(ghost.style, { left: `${shown.left * page.scale}px`, top: `${shown.top * page.scale}px`, width: `${shown.width * page.scale}px`, height: `${shown.height * page.scale}px` });
    }, (ev) => {
      ghost?.remove();
      this.showGuides(page);
      if (!ev) return;
      this.bus.emit("placed");
      if (!shown || shown.width < MIN_DRAWN || shown.height < MIN_DRAWN) {
        this.run(this.place(page, type, at.left, at.top));
        return;
      }
      const rect = clampRect(page.box, screenRectToPdf(page.box, page.rotate, 1, keepInside(shown, page.size.width, page.size.height)));
      this.run(this.create(page, this.newFields(page, type, rect)));
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
  startDrag(e, tag, page, dir) {
    const start = { x: e.clientX, y: e.clientY };
    const box0 = tag.getBoundingClientRect();
    const grab = { x: e.clientX - box0.left, y: e.clientY - box0.top };
    const from = this.current(tag);
    const rect0 = { x: from.x, y: from.y, width: from.width, height: from.height };
    const scroller = this.viewer.scroller;
    const target = this.snapTarget(page, new Set([tag.dataset.tagId]));
    let rect = null;
    let over = page; // the page under the pointer
    tag.setPointerCapture(e.pointerId);
    const follow = (ev) => {
      const dx = ev.clientX - start.x;
      const dy = ev.clientY - start.y;
      if (!rect && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      tag.classList.add("tag--dragging");
      over = (!dir && this.pageAt(ev.clientX, ev.clientY)) || page;
      if (over !== page) {
        // Over another page: the tag follows the pointer there; its place is worked out on that page.
        this.showGuides(page);
        const b = over.el.getBoundingClientRect();
        rect = this.rectAt(over, rect0, ev.clientX - grab.x - b.left, ev.clientY - grab.y - b.top);
        const s = pdfRectToScreen(over.box, over.rotate, over.scale, rect);
        const here = page.el.getBoundingClientRect();
        Object.assign(tag.style, { left: `${s.left + b.left - here.left}px`, top: `${s.top + b.top - here.top}px`, width: `${s.width}px`, height: `${s.height}px` });
        return;
      }
      const right = dx / page.scale;
      const down = dy / page.scale;
      const snapped = dir
        ? this.snapResized(page, resizeRect(page.box, page.rotate, rect0, dir, right, down, MIN_SIZE), dir, target, ev.altKey)
        : this.snapMoved(page, moveRect(page.box, page.rotate, rect0, right, down), target, ev.altKey);
      rect = snapped.rect;
      this.showGuides(page, snapped.guides);
      page.placeTag(tag, rect);
    };
    const move = (ev) => {
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
      this.showGuides(page);
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

  /**
   * Drags a selected group by one of its members: every member moves by the
   * same amount on its own page, the group stopping as a whole at a page
   * edge; the grabbed tag snaps (Alt: not) and the others follow it. One
   * request, one undo step. A click without a drag selects the member alone.
   */
  startGroupDrag(e, tag, page) {
    const start = { x: e.clientX, y: e.clientY };
    const members = this.selectedEls.map((el) => this.member(el));
    const grabbed = members.find((m) => m.el === tag);
    const target = this.snapTarget(page, new Set(this.ids));
    let delta = null; // [right, down] in points on screen
    this.follow(e, tag, (ev) => {
      const dx = ev.clientX - start.x;
      const dy = ev.clientY - start.y;
      if (!delta && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      members.forEach((m) => m.el.classList.add("tag--dragging"));
      let [r, d] = clampGroupMove(members, dx / page.scale, dy / page.scale);
      const moved = moveRect(grabbed.box, grabbed.rotate, grabbed.rect, r, d);
      const snapped = this.snapMoved(page, moved, target, ev.altKey);
      if (snapped.guides.length) {
        const a = pdfRectToScreen(page.box, page.rotate, 1, grabbed.rect);
        const b = pdfRectToScreen(page.box, page.rotate, 1, snapped.rect);
        [r, d] = clampGroupMove(members, b.left - a.left, b.top - a.top);
      }
      delta = [r, d];
      this.showGuides(page, snapped.guides);
      for (const m of members) m.page.placeTag(m.el, moveRect(m.box, m.rotate, m.rect, r, d));
    }, (ev) => {
      members.forEach((m) => m.el.classList.remove("tag--dragging"));
      this.showGuides(page);
      if (!delta) {
        if (ev) this.select(tag.dataset.tagId);
        return;
      }
      if (!ev || (!delta[0] && !delta[1])) {
        members.forEach((m) => m.page.placeTag(m.el, m.rect));
        return;
      }
      const entries = members.map((m) => ({ id: m.el.dataset.tagId, before: this.saved(m.el), after: { ...this.current(m.el), ...moveRect(m.box, m.rotate, m.rect, delta[0], delta[1]) } }));
      this.run(this.changeGroup(entries, { label: "move tags" }));
    });
  }

  // ---- keyboard ----------------------------------------------------------

  /** Runs a command of the shortcut table; true when it was handled. */
  command(name, arg) {
    const group = this.ids.length > 1;
    switch (name) {
      case "delete":
        if (!this.ids.length) return false;
        this.run(group ? this.removeGroup(this.ids) : this.remove(this.selectedId));
        return true;
      case "nudge":
        if (!this.ids.length) return false;
        this.run(group ? this.nudgeGroup(arg[0], arg[1]) : this.nudge(arg[0], arg[1]));
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
        return this.arrange(name, arg);
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
