// The page viewer: one PageView per page element, a rendering queue that
// draws only the visible pages and their neighbours (and frees far ones),
// zoom (fit width, 50–200 %, Ctrl+wheel), and page navigation. Modelled on
// pdf.js's own viewer (pdf_viewer.js, pdf_page_view.js, pdf_rendering_queue.js).
import { CSS_PER_POINT, displaySize, parseBox, pdfRectToScreen } from "./coords.mjs";
import { renderOrder } from "./queue.mjs";
import { t as tr } from "./i18n.mjs";

const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];
const MIN_ZOOM = 0.5;
const MAX_ZOOM = 2;
/** Pages rendered beyond the visible ones, in each direction. */
const NEIGHBOURS = 1;
/** Pages further than this from the visible ones give their canvas back. */
const KEEP = 6;

/** One page element: its geometry, its canvas, its render state. */
export class PageView {
  constructor(el, index, doc) {
    this.el = el;
    this.index = index; // 0-based across every document
    this.doc = doc; // {position, url, load()}
    this.number = Number(el.dataset.page);
    this.box = parseBox(el.dataset.box);
    this.rotate = Number(el.dataset.rotate) || 0;
    this.size = displaySize(this.box, this.rotate);
    this.canvas = el.querySelector("canvas");
    this.renderedScale = 0;
    this.task = null;
  }

  /** Sizes the page element for scale (CSS pixels per point) and places its tags, suggested fields and text tags' covers. */
  layout(scale) {
    this.scale = scale;
    this.el.style.width = `${this.size.width * scale}px`;
    this.el.style.height = `${this.size.height * scale}px`;
    for (const tag of this.el.querySelectorAll(".tag, .suggestion, .text-cover")) this.placeTag(tag);
  }

  /** Positions one tag element from its PDF rectangle (data-x/y/w/h). */
  placeTag(tag, rect = tagRect(tag)) {
    const s = pdfRectToScreen(this.box, this.rotate, this.scale, rect);
    tag.style.left = `${s.left}px`;
    tag.style.top = `${s.top}px`;
    tag.style.width = `${s.width}px`;
    tag.style.height = `${s.height}px`;
    tag.dataset.placed = "";
  }

  /** Renders the page with pdf.js at the current scale (crisp: device pixels). */
  async render() {
    if (this.renderedScale === this.scale) return;
    const scale = this.scale;
    const pdf = await this.doc.load();
    const page = await pdf.getPage(this.number);
    if (!performance.getEntriesByName("markuproom:page-loaded").length) performance.mark("markuproom:page-loaded");
    if (scale !== this.scale) return; // zoom changed while loading
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const viewport = page.getViewport({ scale });
    const canvas = document.createElement("canvas");
    canvas.className = this.canvas.className;
    canvas.setAttribute("aria-hidden", "true");
    canvas.width = Math.floor(viewport.width * dpr);
    canvas.height = Math.floor(viewport.height * dpr);
    this.task?.cancel();
    this.task = page.render({
      canvasContext: canvas.getContext("2d", { alpha: false }),
      viewport,
      transform: dpr === 1 ? null : [dpr, 0, 0, dpr, 0, 0],
    });
    try {
      await this.task.promise;
    } catch (err) {
      if (err?.name === "RenderingCancelledException") return;
      throw err;
    } finally {
      this.task = null;
    }
    if (scale !== this.scale) return;
    // Swap the finished canvas in at once: no blank frame while zooming.
    this.canvas.replaceWith(canvas);
    this.canvas = canvas;
    this.renderedScale = scale;
    this.el.classList.add("viewer-page--rendered");
  }

  /** Shows or hides the page's own "could not be shown" note. */
  showProblem(on) {
    let note = this.el.querySelector(".viewer-page__problem");
    if (!on) {
      if (note) note.hidden = true;
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.className = "viewer-page__problem";
      note.setAttribute("role", "status");
      note.textContent = tr("editor.viewer.page_failed");
      this.el.append(note);
    }
    note.hidden = false;
  }

  /** Frees the canvas memory of a page far from view. */
  release() {
    this.task?.cancel();
    if (this.renderedScale) {
      this.canvas.width = 0;
      this.canvas.height = 0;
      this.renderedScale = 0;
      this.el.classList.remove("viewer-page--rendered");
    }
  }
}

/** Whether a pdf.js failure only says the work was called off (cancelled, or its document or worker closed). */
export function isCancellation(err) {
  const name = err?.name || "";
  if (name === "RenderingCancelledException" || name === "AbortException") return true;
  return /destroyed|cancelled|canceled|Transport destroyed|viewer was closed/i.test(String(err?.message || ""));
}

/** The PDF rectangle a tag element holds in its data attributes. */
export function tagRect(tag) {
  return { x: Number(tag.dataset.x), y: Number(tag.dataset.y), width: Number(tag.dataset.w), height: Number(tag.dataset.h) };
}

/** The viewer over every page element inside root. */
export class Viewer {
  constructor(root, scroller, bus, pdfjs, pdfWorker) {
    this.root = root;
    this.scroller = scroller;
    this.bus = bus;
    this.pdfjs = pdfjs;
    this.pdfWorker = pdfWorker; // shared by every viewer the page starts: never destroyed with a document
    this.zoom = 1;
    this.fit = true;
    this.visible = new Set();
    this.pages = [];
    this.views = new WeakMap(); // page element → its PageView
    this.docs = [];
    this.wanted = new Set(); // pages waiting to render (renderOrder picks the next)
    this.tasks = []; // other drawing, after the pages (thumbnails): {fn, resolve, reject}
    this.rendering = false;
    this.pending = false;
    for (const section of root.querySelectorAll(".viewer-doc")) {
      const doc = this.documentLoader(section.dataset.contentUrl, Number(section.dataset.docPosition));
      for (const el of section.querySelectorAll(".viewer-page")) {
        const view = new PageView(el, this.pages.length, doc);
        this.views.set(el, view);
        this.pages.push(view);
      }
    }
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), { root: scroller, threshold: [0, 0.25, 0.5, 0.75, 1] });
    this.ratios = new Map();
    for (const p of this.pages) this.observer.observe(p.el);
    this.applyZoom();
    this.lifetime = new AbortController();
    scroller.addEventListener("wheel", (e) => this.onWheel(e), { passive: false, signal: this.lifetime.signal });
    this.resizer = new ResizeObserver(() => this.fit && this.applyZoom());
    this.resizer.observe(scroller);
  }

  /**
   * Holds back new document fetches while a room change is on its way: its
   * answer may remove a document this viewer has not fetched yet. resumeLoads
   * lets them go on (the change was refused); destroy drops them.
   */
  pauseLoads() {
    this.paused ||= Promise.withResolvers();
  }

  resumeLoads() {
    this.paused?.resolve();
    this.paused = null;
  }

  /** Stops observing and closes the pdf.js documents (the markup was replaced). */
  destroy() {
    this.destroyed = true;
    this.resumeLoads();
    this.lifetime.abort();
    this.observer.disconnect();
    this.resizer.disconnect();
    this.wanted.clear();
    for (const t of this.tasks.splice(0)) t.resolve(); // dropped: the room they drew is gone
    for (const p of this.pages) p.task?.cancel();
    for (const d of this.docs) d.close();
  }

  /** A lazy pdf.js document per room document: fetched when a page first needs it. */
  documentLoader(url, position) {
    let task = null; // pdf.js's loading task: destroying it cancels a fetch under way and closes the document
    const loader = {
      position,
      close: () => task?.destroy().catch(() => {}),
      load: async () => {
        if (!task) await this.paused?.promise;
        // A viewer whose markup was replaced fetches nothing more (its URLs may be gone).
        if (this.destroyed) throw new Error("the viewer was closed");
        task ||= this.pdfjs.getDocument({
          url,
          worker: this.pdfWorker,
          isEvalSupported: false,
          standardFontDataUrl: this.root.dataset.pdfjsFonts,
          enableXfa: false,
          withCredentials: true,
        });
        return task.promise;
      },
    };
    this.docs.push(loader);
    return loader;
  }

  /** CSS pixels per PDF point at the current zoom. */
  get scale() {
    return this.zoom * CSS_PER_POINT;
  }

  /**
   * Fit width, per document: the widest page of each document fills the
   * viewer's width, so adding a landscape document leaves the portrait pages
   * of the others as they were; pages of one document keep their sizes
   * relative to each other.
   */
  fitZoom(pages = this.pages) {
    const widest = Math.max(...pages.map((p) => p.size.width), 1);
    const cs = getComputedStyle(this.scroller);
    const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
    // A little air beside the page, except on a phone, where the page takes the whole width.
    const avail = this.scroller.clientWidth - pad - (pad < 32 ? 0 : 16);
    return Math.min(Math.max(avail / (widest * CSS_PER_POINT), 0.25), 4);
  }

  /** Sets the zoom ("fit" or a factor), keeping the current page in view. */
  setZoom(value) {
    const anchor = this.currentPage();
    const offset = anchor ? (this.scroller.scrollTop - anchor.el.offsetTop) / (anchor.el.offsetHeight || 1) : 0;
    if (value === "fit") {
      this.fit = true;
    } else {
      this.fit = false;
      this.zoom = Math.min(Math.max(Number(value), MIN_ZOOM), MAX_ZOOM);
    }
    this.applyZoom();
    if (anchor) this.scroller.scrollTop = anchor.el.offsetTop + offset * anchor.el.offsetHeight;
  }

  /** One step in or out along the zoom steps. */
  stepZoom(dir) {
    const z = this.zoom;
    const next = dir > 0 ? ZOOM_STEPS.find((s) => s > z + 0.001) ?? MAX_ZOOM : [...ZOOM_STEPS].reverse().find((s) => s < z - 0.001) ?? MIN_ZOOM;
    this.setZoom(next);
  }

  applyZoom() {
    if (this.fit) {
      const zooms = new Map(this.docs.map((d) => [d, this.fitZoom(this.pages.filter((p) => p.doc === d))]));
      for (const p of this.pages) p.layout(zooms.get(p.doc) * CSS_PER_POINT);
      // The zoom shown (and stepped from) is the one of the document in view.
      const cur = this.currentPage();
      this.zoom = cur ? zooms.get(cur.doc) : this.fitZoom();
    } else {
      const scale = this.scale;
      for (const p of this.pages) p.layout(scale);
    }
    this.bus.emit("zoom", { zoom: this.zoom, fit: this.fit });
    this.schedule();
  }

  onWheel(e) {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    this.setZoom(this.zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1));
  }

  onIntersect(entries) {
    for (const e of entries) {
      const view = this.views.get(e.target);
      if (e.isIntersecting) {
        this.visible.add(view);
        this.ratios.set(view, e.intersectionRatio);
      } else {
        this.visible.delete(view);
        this.ratios.delete(view);
      }
    }
    const cur = this.currentPage();
    if (this.fit && cur?.scale && Math.abs(cur.scale / CSS_PER_POINT - this.zoom) > 1e-9) {
      this.zoom = cur.scale / CSS_PER_POINT;
      this.bus.emit("zoom", { zoom: this.zoom, fit: true });
    }
    this.bus.emit("page", { page: cur });
    this.schedule();
  }

  /** The page most in view (the first one when nothing is yet). */
  currentPage() {
    let best = null;
    let bestRatio = -1;
    for (const [view, ratio] of this.ratios) {
      if (ratio > bestRatio || (ratio === bestRatio && view.index < best.index)) {
        best = view;
        bestRatio = ratio;
      }
    }
    return best || this.pages[0] || null;
  }

  /** Scrolls page n (1-based across every document) into view. */
  goToPage(n) {
    const view = this.pages[Math.min(Math.max(n, 1), this.pages.length) - 1];
    if (view) this.scroller.scrollTop = view.el.offsetTop - 16;
  }

  /** Queues rendering of the visible pages, then their neighbours; frees far pages. */
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      const visible = [...this.visible].sort((a, b) => a.index - b.index);
      if (visible.length === 0 && this.pages.length) visible.push(this.pages[0]);
      const wanted = [...visible];
      for (const v of visible) {
        for (let d = 1; d <= NEIGHBOURS; d++) {
          for (const i of [v.index + d, v.index - d]) {
            if (this.pages[i] && !wanted.includes(this.pages[i])) wanted.push(this.pages[i]);
          }
        }
      }
      const lo = Math.min(...visible.map((v) => v.index)) - KEEP;
      const hi = Math.max(...visible.map((v) => v.index)) + KEEP;
      for (const p of this.pages) {
        if (p.index < lo || p.index > hi) {
          this.wanted.delete(p);
          p.release();
        }
      }
      // Every wanted page waits before the first render starts, so that the
      // page most in view goes first, not the first one listed.
      for (const p of wanted) this.want(p);
      this.pump();
    });
  }

  /** Adds a page to those waiting to render (pump renders them one at a time, the one most in view first: renderOrder). */
  want(view) {
    if (!this.destroyed && view.renderedScale !== view.scale) this.wanted.add(view);
  }

  /** Runs fn (other drawing: a thumbnail) once no page waits to render; resolves with its result. */
  afterPages(fn) {
    return new Promise((resolve, reject) => {
      if (this.destroyed) return resolve();
      this.tasks.push({ fn, resolve, reject });
      this.pump();
    });
  }

  /** Renders the waiting pages, the one most in view first at each step, then the other drawing. */
  async pump() {
    if (this.rendering) return;
    this.rendering = true;
    try {
      while (!this.destroyed) {
        if (this.wanted.size) {
          const [view] = renderOrder([...this.wanted], (p) => this.ratios.get(p) || 0);
          this.wanted.delete(view);
          await this.renderPage(view);
        } else if (this.tasks.length) {
          const t = this.tasks.shift();
          await Promise.resolve().then(t.fn).then(t.resolve, t.reject);
        } else {
          break;
        }
      }
    } finally {
      this.rendering = false;
    }
  }

  async renderPage(view) {
    try {
      await view.render();
      if (this.destroyed) return;
      view.showProblem(false);
      this.bus.emit("rendered", { page: view });
    } catch (err) {
      // A render cancelled or superseded (zoom, a far page freed, the room
      // rebuilt after a page edit) is not a failure; a real one is said
      // quietly on the page itself, never in the save status, and never in
      // pdf.js's own words.
      if (this.destroyed || !view.el.isConnected || isCancellation(err)) return;
      view.showProblem(true);
    }
  }

  /** The PageView of a page element, or of the element a node lies in. */
  pageOf(node) {
    const el = node?.closest?.(".viewer-page");
    return (el && this.views.get(el)) || null;
  }
}
