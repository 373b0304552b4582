// Page edits in the documents sidebar (documents.advancedEdit): the buttons
// under each thumbnail are htmx posts; this words their confirmation, a
// context menu with the same actions (right-click, the context-menu key,
// Shift+F10) and reordering by dragging a thumbnail. Each edit answers with
// the room, which htmx swaps in; main.mjs then starts the editor again.
// Every edit is one step of the room's undo history (session.mjs records it
// from the answer's HX-Trigger). Listeners go with signal (a rebuild).
import { listenUntil } from "./bus.mjs";
import { t } from "./i18n.mjs";

/** Wires the sidebar's page edits and signing order; net (server.mjs connect) sends a drag's move. */
export function createPageEdits(bus, net, signal) {
  const on = listenUntil(signal);
  for (const list of document.querySelectorAll("[data-page-edits]")) {
    const menu = list.parentElement.querySelector("[data-control='thumbnail-context-menu']");
    wireMenu(list, menu, on);
    wireDrag(list, bus, net, ".room-thumb", (li) => li.dataset.page, t("editor.pages.moving"), on);
  }
  // Participants in a signing order reorder the same way.
  const people = document.querySelector("[data-participant-order]");
  if (people) wireDrag(people, bus, net, ".room-participant", (li) => li.dataset.position, t("editor.participants.reordering"), on);
}

/**
 * Words the confirmation of a page delete or a document removal (app.js's
 * [data-confirm-dialog], opened on htmx:confirm): the question names the tags
 * that go with it and the note says that Undo brings it back. Added in the
 * capture phase, so the words are in place before the dialog reads them.
 */
export function describeRoomEdit(e) {
  const el = e.detail.elt;
  if (!(el instanceof Element)) return;
  if (el.dataset.pageAction === "delete") {
    const li = el.closest(".room-thumb");
    const count = li.querySelector("[data-tag-count-page]")?.textContent.trim();
    const page = li.dataset.page;
    // The document by name: the pages in view may be another document's (issue 40).
    const title = isolate(el.closest(".room-doc")?.querySelector(".room-doc__title")?.textContent.trim() || "");
    el.dataset.confirm = count ? t("editor.pages.delete_question_tags", { page, title, tags: count }) : t("editor.pages.delete_question", { page, title });
    el.dataset.confirmNote = t("editor.pages.delete_note");
    el.dataset.confirmAction = t("editor.pages.delete_action");
  } else if ("documentRemove" in el.dataset) {
    const doc = el.closest(".room-doc");
    const count = doc.querySelector("[data-tag-count-doc]")?.textContent.trim() || t("editor.count.tags", { count: 0 });
    el.dataset.confirm = t("editor.documents.remove_question", { title: el.dataset.documentRemove, tags: count });
    el.dataset.confirmNote = t("editor.documents.remove_note");
    el.dataset.confirmAction = t("editor.documents.remove_action");
  }
}

/** Data (a title) set apart from the sentence around it (U+2068 … U+2069, as <bdi>): in Arabic a Latin title keeps its own order. */
export const isolate = (text) => `\u2068${text}\u2069`;

/** Whether the page reads right to left (<html dir="rtl">). */
const rtl = () => document.documentElement.dir === "rtl";

/** Where a menu opened from the keyboard starts: 24 px in from the thumbnail's starting edge. */
const inside = (r) => (rtl() ? r.right - 24 : r.left + 24);

/**
 * The thumbnail context menu, after the WAI-ARIA menu pattern: opening it
 * (right-click, the context-menu key, Shift+F10) moves focus to its first
 * item, arrows, Home and End move between items, Escape (or Tab) closes it
 * and gives focus back to the thumbnail it was opened on.
 */
function wireMenu(list, menu, on) {
  if (!menu) return;
  let target = null; // the thumbnail the menu acts on
  let opener = null; // what gets focus back when the menu closes
  const items = () => [...menu.querySelectorAll("[role=menuitem]")];
  const enabled = () => items().filter((i) => !i.disabled);
  const close = (refocus) => {
    if (menu.hidden) return;
    menu.hidden = true;
    if (refocus && opener?.isConnected) opener.focus();
    target = null;
    opener = null;
  };
  const open = (li, x, y) => {
    target = li;
    opener = li.querySelector(".room-thumb__link");
    for (const item of items()) {
      const twin = li.querySelector(`[data-page-action="${item.dataset.pageAction}"]`);
      item.disabled = !twin || twin.disabled;
      item.tabIndex = -1;
    }
    menu.hidden = false;
    // Fixed at the pointer (the sidebar's scroll box would clip it), inside the window;
    // right to left it opens towards the left of the pointer (docs/i18n.md).
    const w = menu.offsetWidth;
    const h = menu.offsetHeight;
    const from = rtl() ? x - w : x;
    menu.style.left = `${Math.max(4, Math.min(from, window.innerWidth - w - 4))}px`;
    menu.style.top = `${Math.max(4, Math.min(y, window.innerHeight - h - 4))}px`;
    enabled()[0]?.focus();
  };
  on(list, "contextmenu", (e) => {
    const li = e.target.closest(".room-thumb");
    if (!li) return;
    e.preventDefault();
    const viaKeyboard = e.button !== 2 && e.clientX === 0 && e.clientY === 0;
    const r = li.getBoundingClientRect();
    open(li, viaKeyboard ? inside(r) : e.clientX, viaKeyboard ? r.bottom : e.clientY);
  });
  on(list, "keydown", (e) => {
    const li = e.target.closest(".room-thumb");
    if (!li || !((e.shiftKey && e.key === "F10") || e.key === "ContextMenu")) return;
    e.preventDefault();
    const r = li.getBoundingClientRect();
    open(li, inside(r), r.bottom);
  });
  on(menu, "click", (e) => {
    const item = e.target.closest("[role=menuitem]");
    if (!item || item.disabled || !target) return;
    const twin = target.querySelector(`[data-page-action="${item.dataset.pageAction}"]`);
    close(true);
    twin?.click();
  });
  on(menu, "keydown", (e) => {
    const all = enabled();
    const i = all.indexOf(document.activeElement);
    const go = (n) => all[(n + all.length) % all.length]?.focus();
    if (e.key === "Escape" || e.key === "Tab") {
      e.preventDefault();
      close(true);
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      go(i + 1);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      go(i < 0 ? -1 : i - 1);
    } else if (e.key === "Home") {
      e.preventDefault();
      go(0);
    } else if (e.key === "End") {
      e.preventDefault();
      go(-1);
    }
  });
  on(document, "pointerdown", (e) => {
    if (!menu.hidden && !menu.contains(e.target)) close(false);
  });
}

/** Drag an item of list onto another to move it there (one request to its data-move-url). */
function wireDrag(list, bus, net, selector, positionOf, message, on) {
  let dragged = null;
  const clear = () => list.querySelectorAll(".drop-target").forEach((el) => el.classList.remove("drop-target"));
  on(list, "dragstart", (e) => {
    dragged = e.target.closest?.(selector);
    if (!dragged) return;
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", positionOf(dragged));
    dragged.classList.add("dragging");
  });
  on(list, "dragover", (e) => {
    const over = e.target.closest?.(selector);
    if (!dragged || !over) return;
    e.preventDefault();
    clear();
    if (over !== dragged) over.classList.add("drop-target");
  });
  on(list, "dragend", () => {
    dragged?.classList.remove("dragging");
    clear();
    dragged = null;
  });
  on(list, "drop", (e) => {
    const over = e.target.closest?.(selector);
    if (!dragged || !over || over === dragged) return;
    e.preventDefault();
    bus.emit("status", { message });
    net.moveInRoom(dragged, dragged.dataset.moveUrl, { to: positionOf(over) });
  });
}
