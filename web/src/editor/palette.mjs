// The palette: drag a tag type onto a page, or pick it (click, Enter) and
// click the page; picking it again from the keyboard places it on the page
// in view. The signer picker says whom new tags belong to. The editor asks
// which type is picked through the palette's armed (main.mjs hands it over),
// and says a tag was placed on the bus ("placed"). used is the item last
// pressed, which the properties panel keeps in view (issue 40).
import { listenUntil } from "./bus.mjs";
import { t } from "./i18n.mjs";

const DRAG_THRESHOLD = 4;

export function createPalette({ root, viewer, editor, signers, bus, typeInfo, signal }) {
  const on = listenUntil(signal);
  let armed = "";
  let used = null; // the item last pressed or dragged from
  const hint = document.querySelector("[data-palette-hint]");
  const defaultHint = hint?.textContent || "";
  // A touch screen, or a phone's width: taps, no dragging or keys (issue 40).
  const touch = matchMedia("(pointer: coarse), (width < 48rem)");
  const say = () => {
    if (!hint) return;
    const name = armed && typeInfo(armed).label;
    if (touch.matches) hint.textContent = armed ? t("editor.palette.tap_hint", { name }) : hint.dataset.touchHint || defaultHint;
    else hint.textContent = armed ? t("editor.palette.armed_hint", { name }) : defaultHint;
  };
  say();
  on(touch, "change", say);

  const arm = (type) => {
    armed = type;
    for (const b of root.querySelectorAll("[data-tag-type]")) b.setAttribute("aria-pressed", String(b.dataset.tagType === type));
    viewer.root.classList.toggle("viewer--placing", !!type);
    bus.emit("armed", { type });
    say();
  };
  bus.on("placed", () => arm(""));

  let dragEnd = { item: null, at: 0 }; // the item last dragged from and when (the click ending it is not a pick)

  // Pointer drag from the palette, with a ghost of the tag's size at the current zoom.
  on(root, "pointerdown", (e) => {
    const item = e.target.closest("[data-tag-type]");
    if (!item || e.button !== 0) return;
    used = item;
    const type = item.dataset.tagType;
    const start = { x: e.clientX, y: e.clientY };
    let ghost = null;
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < DRAG_THRESHOLD) return;
      if (!ghost) {
        ghost = document.createElement("div");
        ghost.className = `tag tag--ghost ${signers.colorClass(signers.current())}`;
        ghost.textContent = typeInfo(type).label;
        const scale = viewer.scale;
        ghost.style.width = `${typeInfo(type).width * scale}px`;
        ghost.style.height = `${typeInfo(type).height * scale}px`;
        document.body.append(ghost);
      }
      ghost.style.left = `${ev.clientX}px`;
      ghost.style.top = `${ev.clientY}px`;
    };
    const up = (ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
      if (!ghost) return; // a click: handled below
      ghost.remove();
      dragEnd = { item, at: Date.now() };
      const page = viewer.pageOf(document.elementFromPoint(ev.clientX, ev.clientY));
      if (!page) return;
      const box = page.el.getBoundingClientRect();
      editor.noteSpot(page, ev.clientX - box.left, ev.clientY - box.top);
      editor.run(editor.place(page, type, ev.clientX - box.left, ev.clientY - box.top));
    };
    const cancel = () => {
      ghost?.remove();
      ghost = null;
      up({});
    };
    // The gesture is followed on the window: the pointer leaves the item at once.
    on(window, "pointermove", move);
    on(window, "pointerup", up);
    on(window, "pointercancel", cancel);
  });

  on(root, "click", (e) => {
    const item = e.target.closest("[data-tag-type]");
    if (!item) return;
    if (dragEnd.item === item && Date.now() - dragEnd.at < 400) return; // the click that ends a drag
    used = item;
    const type = item.dataset.tagType;
    const fromKeyboard = e.detail === 0;
    if (armed === type && fromKeyboard) {
      // Enter again: place it near the top-left of the part of the page in view.
      const page = editor.lastClickedPage() || viewer.currentPage();
      if (!page) return;
      const scroller = viewer.scroller.getBoundingClientRect();
      const box = page.el.getBoundingClientRect();
      const left = Math.max(24, scroller.left - box.left + 24);
      const top = Math.max(24, scroller.top - box.top + 24);
      arm("");
      editor.run(editor.place(page, type, left, top));
      return;
    }
    arm(armed === type ? "" : type);
  });

  return { arm, get armed() { return armed; }, get used() { return used; } };
}

/** Where the picked signer is kept for the room's browser session (a reload, a rebuilt room keep it). */
const pickKey = () => `markuproom:new-tag-signer:${document.querySelector("[data-room-id]")?.dataset.roomId || location.pathname}`;

/** sessionStorage, or nothing where the browser refuses it (storage off): the pick is then not kept. */
function sessionStore() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The signer picker: current() is the participant id new tags get ("" when
 * nobody). The pick is remembered per room for the browser session.
 */
export function createSignerPicker(root, { signal } = {}) {
  const store = sessionStore();
  const kept = store?.getItem(pickKey());
  const input = kept && [...(root?.querySelectorAll('input[name="new-tag-signer"]') || [])].find((i) => i.value === kept);
  if (input) input.checked = true;
  root?.addEventListener("change", (e) => {
    if (e.target.name !== "new-tag-signer" || !e.target.checked) return;
    try {
      store?.setItem(pickKey(), e.target.value);
    } catch {
      // full or refused: the pick lasts until the next reload
    }
  }, { signal });
  const classes = new Map();
  for (const label of root?.querySelectorAll("label") || []) {
    const input = label.querySelector("input");
    const cls = [...label.classList].find((c) => c.startsWith("signer-c"));
    if (input && cls) classes.set(input.value, cls);
  }
  return {
    current: () => root?.querySelector("input:checked")?.value || "",
    colorClass: (id) => classes.get(id) || "signer-none",
  };
}
