// "Preview as…" a participant (issue 40, docs/review.md): the pages as that
// participant will meet them and a guided walk through their fields in
// filling order (fillorder.mjs). A bundle of its own, static/js/preview.js,
// which the room imports on the first click of [data-preview] (main.mjs):
// the button's value is this module's URL, its data-preview-css the
// stylesheet's (static/css/preview.css), so the room's own bundle pays only
// for the loader.
//
// While it is open the room is read only: the side columns, the dock, the
// header's action and undo/redo are inert, so are the tag layers of every
// page (no tag can be focused, selected, dragged or deleted), presses and
// keys meant for the editor are stopped before they reach it, and the pages
// still scroll and zoom. The participant's tags are drawn as they will fill
// them ([data-preview-mine]: type, required mark, date format), everyone
// else's faded. Keys: N or → next, P or ← previous (mirrored right to left),
// Esc leaves. "Edit this field" leaves with that tag selected.
import { fillOrder, step } from "./fillorder.mjs";
import { parseBox, pdfRectToScreen } from "./coords.mjs";
import { el } from "./dom.mjs";
import { t } from "./i18n.mjs";
import { reveal } from "./reveal.mjs";
import { readTagTypes } from "./taglabel.mjs";

let active = null; // the open preview
let styled = null; // the stylesheet, loaded once

/** open starts the preview from the toolbar's [data-preview] button; state is main.mjs's running start. */
export async function open(button, state) {
  if (active) return active.focus();
  styled ||= loadStyle(button.dataset.previewCss);
  await styled;
  if (!active) active = createPreview(button, state);
}

/** loadStyle adds the preview's stylesheet and waits for it (a failed load leaves the room's own styles). */
function loadStyle(href) {
  return new Promise((done) => {
    if (!href) return done();
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
    link.onload = link.onerror = done;
    document.head.append(link);
  });
}

/** readFields is every tag of the viewer with its place as the page shows it (points, top-left origin). */
function readFields(viewerRoot) {
  return [...viewerRoot.querySelectorAll(".tag[data-tag-id]")].map((tag) => {
    const page = tag.closest(".viewer-page");
    const d = tag.dataset;
    const rect = pdfRectToScreen(parseBox(page.dataset.box), Number(page.dataset.rotate) || 0, 1, { x: +d.x, y: +d.y, width: +d.w, height: +d.h });
    return { id: d.tagId, signer: d.signerId || "", doc: Number(tag.closest(".viewer-doc")?.dataset.docPosition) || 0, page: Number(page.dataset.page), rect, tag };
  });
}

/** readParticipants is the room's participants in the order of its list (the signing order when there is one). */
function readParticipants(room) {
  return [...room.querySelectorAll(".room-participant[data-participant-id]")].map((li) => ({
    id: li.dataset.participantId,
    name: li.querySelector(".room-participant__name")?.textContent.trim() || "",
    order: li.querySelector(".room-participant__order")?.textContent.trim() || "",
  }));
}

/** isolate keeps a name or title in its own direction inside a sentence of the other (FSI … PDI, as <bdi> does). */
const isolate = (s) => `\u2068${s}\u2069`;

function createPreview(button, state) {
  const room = button.closest(".room") || document;
  const viewerRoot = state?.root || document.querySelector("[data-viewer]");
  const ctl = new AbortController();
  const signal = ctl.signal;
  const people = readParticipants(room);
  let fields = readFields(viewerRoot);
  const docs = new Set(fields.map((f) => f.doc)).size;
  const types = readTagTypes(viewerRoot.dataset.tagTypes); // a date tag without a format of its own takes its type's
  let walk = [];
  let at = -1;

  state?.editor?.clearSelection();
  state?.palette?.arm("");

  // The bar: who, where in the walk, and the way out.
  const bar = el("div", "preview-bar");
  bar.dataset.previewBar = "";
  bar.setAttribute("role", "region");
  bar.setAttribute("aria-label", t("editor.preview.region"));
  const who = el("label", "preview-bar__who");
  who.append(el("span", "preview-bar__title", t("editor.preview.title")));
  const select = el("select", "select select--small");
  select.dataset.previewParticipant = "";
  for (const p of people) {
    const count = fields.filter((f) => f.signer === p.id).length;
    const name = isolate(p.order ? `${p.order}. ${p.name}` : p.name);
    select.append(new Option(t("editor.preview.option", { name, count }), p.id));
  }
  who.append(select);
  const where = el("div", "preview-bar__where");
  const caption = el("p", "preview-bar__caption");
  caption.dataset.previewCaption = "";
  caption.setAttribute("aria-live", "polite");
  const detail = el("p", "preview-bar__detail muted small");
  detail.dataset.previewDetail = "";
  where.append(caption, detail);
  const nav = el("div", "preview-bar__nav");
  const button_ = (hook, cls, text, title, keys) => {
    const b = el("button", `btn btn--small ${cls}`, text);
    b.type = "button";
    b.dataset[hook] = "";
    if (title) b.title = title;
    if (keys) b.setAttribute("aria-keyshortcuts", keys);
    nav.append(b);
    return b;
  };
  const prev = button_("previewPrev", "btn--secondary", t("editor.preview.previous"), t("editor.preview.previous_title"), "P");
  const next = button_("previewNext", "btn--primary", t("editor.preview.next"), t("editor.preview.next_title"), "N");
  const edit = state?.editor ? button_("previewEdit", "btn--secondary", t("editor.preview.edit")) : null;
  const leave = button_("previewClose", "btn--ghost", t("editor.preview.close"), t("editor.preview.close_title"), "Escape");
  bar.append(who, where, nav);
  viewerRoot.before(bar);

  // Read only: what could change something is inert while the preview is open.
  const made = [];
  const freeze = (node) => {
    if (node && !node.inert) {
      node.inert = true;
      made.push(node);
    }
  };
  for (const sel of ["#room-sidebar", "#room-panel", "[data-room-dock]", ".room-header__action", ".room-sheet-backdrop"]) freeze(room.querySelector(sel));
  freeze(room.querySelector('[data-action="undo"]')?.parentElement);
  for (const layer of viewerRoot.querySelectorAll(".viewer-page__tags")) freeze(layer);
  room.dataset.previewing = "";
  button.setAttribute("aria-pressed", "true");

  const mark = () => {
    const id = select.value;
    for (const f of fields) f.tag.removeAttribute("data-preview-current");
    at = -1;
    walk = fillOrder(fields.filter((f) => f.signer === id));
    for (const f of fields) f.tag.toggleAttribute("data-preview-mine", f.signer === id);
    go(walk.length ? 0 : -1);
  };
  const go = (i) => {
    walk[at]?.tag.removeAttribute("data-preview-current");
    at = i;
    const f = walk[at];
    prev.disabled = at <= 0;
    next.disabled = at < 0 || at >= walk.length - 1;
    if (edit) edit.disabled = !f;
    if (!f) {
      caption.textContent = t("editor.preview.none", { name: isolate(people.find((p) => p.id === select.value)?.name || "") });
      detail.textContent = "";
      return;
    }
    f.tag.setAttribute("data-preview-current", "");
    const type = f.tag.dataset.typeLabel || f.tag.dataset.tagType;
    const args = { n: at + 1, total: walk.length, type, page: f.page, title: isolate(f.tag.closest(".viewer-doc")?.querySelector(".viewer-doc__title")?.textContent.trim() || "") };
    caption.textContent = t(docs > 1 ? "editor.preview.field_in" : "editor.preview.field", args);
    const words = [t(f.tag.hasAttribute("data-required") ? "editor.preview.required" : "editor.preview.optional")];
    const type_ = types.get(f.tag.dataset.tagType);
    const format = f.tag.dataset.dateFormat || (type_?.date && type_.format);
    if (format) words.push(t("editor.preview.format", { format }));
    detail.textContent = words.join(" · ");
    reveal(f.tag, { block: "center", inline: "center" });
  };
  const move = (delta) => {
    const i = step(at, delta, walk.length);
    if (i !== at) go(i);
  };

  const close = ({ keepFocus = false } = {}) => {
    ctl.abort();
    for (const node of made) node.inert = false;
    for (const f of fields) {
      f.tag.removeAttribute("data-preview-mine");
      f.tag.removeAttribute("data-preview-current");
    }
    delete room.dataset.previewing;
    button.removeAttribute("aria-pressed");
    bar.remove();
    active = null;
    if (!keepFocus && button.isConnected) button.focus();
  };

  select.addEventListener("change", mark, { signal });
  prev.addEventListener("click", () => move(-1), { signal });
  next.addEventListener("click", () => move(1), { signal });
  leave.addEventListener("click", () => close(), { signal });
  edit?.addEventListener("click", () => {
    const tag = walk[at]?.tag;
    close({ keepFocus: true });
    if (!tag) return;
    reveal(tag, { block: "center" });
    tag.focus({ preventScroll: true }); // focus selects it (editor.mjs)
  }, { signal });

  // Keys: the walk's own, and none of the editor's (undo, delete, nudge, paste…) while the preview is open.
  const rtl = getComputedStyle(room).direction === "rtl";
  window.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      if (e.target.closest?.("dialog")) return;
      e.preventDefault();
      close();
    } else if (!e.ctrlKey && !e.metaKey && !e.altKey && !e.target.closest?.("input, select, textarea")) {
      const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      const d = k === "n" ? 1 : k === "p" ? -1 : k === "ArrowRight" ? (rtl ? -1 : 1) : k === "ArrowLeft" ? (rtl ? 1 : -1) : 0;
      if (d) {
        e.preventDefault();
        move(d);
      }
    }
    e.stopPropagation();
  }, { capture: true, signal });
  // Presses on the pages (draw, marquee, place a picked type) and clipboard keys never reach the editor.
  const stop = (e) => {
    if (viewerRoot.contains(e.target)) {
      e.stopPropagation();
      if (e.type !== "pointerdown" && e.type !== "mousedown") e.preventDefault();
    }
  };
  for (const type of ["pointerdown", "mousedown", "click", "dblclick", "contextmenu", "dragstart", "drop", "paste", "cut"]) window.addEventListener(type, stop, { capture: true, signal });
  // The room rebuilt (a change from another window): what the preview marked is gone with it. A tag
  // swapped in alone (its save's answer): read the pages again and walk from the participant's first field.
  document.addEventListener("htmx:afterSettle", () => {
    if (!viewerRoot.isConnected) return close({ keepFocus: true });
    if (fields.some((f) => !f.tag.isConnected)) {
      fields = readFields(viewerRoot);
      mark();
    }
  }, { signal });

  mark();
  const focus = () => (next.disabled ? select : next).focus(); // the keys walk at once; the picker is a Shift+Tab away
  focus();
  return { focus, close };
}
