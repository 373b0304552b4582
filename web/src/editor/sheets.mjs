// Narrow screens (see "Every screen" in web/src/css/editor.css): the dock
// under the pages opens the documents, the people, the palette and the
// selected tag's properties as sheets, and moves the selected tag with
// arrow buttons. A sheet is a modal while open: focus moves into it, the
// rest of the page is inert, Escape, its Close button or a tap beside it
// close it and focus goes back to the button that opened it. On wide screens
// the same panels are columns and nothing here shows.
import { reveal } from "./reveal.mjs";
import { t } from "./i18n.mjs";

/** Which panel each sheet name shows (the CSS hides the other half of it). */
const PANELS = { documents: "#room-sidebar", fields: "#room-sidebar", people: "#room-panel", tools: "#room-panel", props: "#room-panel" };

/**
 * Wires the dock and the sheets of the room; editor and palette are null in
 * a read-only room. Every listener outside the room's markup goes with signal.
 */
export function createSheets({ editor, palette, bus, viewer, signal }) {
  const layout = document.querySelector("[data-room-layout]");
  const dock = document.querySelector("[data-room-dock]");
  if (!layout || !dock) return null;
  let open = "";
  let opener = null;

  const isSheet = (panel) => getComputedStyle(panel).position === "fixed";

  const setInert = (panel, on) => {
    const keep = new Set([panel, layout.querySelector(".room-sheet-backdrop")]);
    const others = [document.querySelector(".site-header"), ...layout.parentElement.children, ...layout.children];
    for (const el of others) {
      if (el && el !== layout && !keep.has(el)) el.inert = on;
    }
  };

  const close = ({ restoreFocus = true } = {}) => {
    if (!open) return;
    const panel = layout.querySelector(PANELS[open]);
    delete layout.dataset.openSheet;
    panel.setAttribute("role", "complementary");
    panel.removeAttribute("aria-modal");
    if (panel.dataset.label) panel.setAttribute("aria-label", panel.dataset.label);
    setInert(panel, false);
    for (const b of dock.querySelectorAll("[data-sheet-open]")) b.setAttribute("aria-expanded", "false");
    open = "";
    if (restoreFocus && opener?.isConnected && opener.offsetParent) opener.focus();
    opener = null;
  };

  const show = (name, from) => {
    if (open) close({ restoreFocus: false });
    const panel = layout.querySelector(PANELS[name]);
    if (!panel) return;
    layout.dataset.openSheet = name;
    if (!isSheet(panel)) {
      // A column on this screen: no sheet, just bring the panel into view.
      delete layout.dataset.openSheet;
      reveal(panel);
      return;
    }
    open = name;
    opener = from || null;
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-modal", "true");
    // The sheet is named for what it shows ("People", "Add tags"), not for the whole column.
    panel.dataset.label ||= panel.getAttribute("aria-label") || "";
    if (from) panel.setAttribute("aria-label", from.textContent.trim());
    setInert(panel, true);
    from?.setAttribute("aria-expanded", "true");
    panel.scrollTop = 0;
    panel.focus({ preventScroll: true });
  };

  /** The sheet that shows el on this screen, or "" (el is in no sheet, or panels are columns here). */
  const sheetFor = (el) => {
    const panel = el?.closest?.("#room-sidebar, #room-panel");
    if (!panel || !isSheet(panel)) return "";
    if (panel.id === "room-panel") return el.closest(".room-participants") ? "people" : el.closest(".tag-props") ? "props" : "tools";
    return el.closest("[data-field-list]") ? "fields" : "documents";
  };

  document.addEventListener(
    "click",
    (e) => {
      // A link to something inside a sheet (the session checklist's "Place tags",
      // "Go to the participants"): open that sheet once the dialog has closed.
      const link = e.target.closest?.('a[href^="#"]');
      const name = link && sheetFor(document.getElementById(decodeURIComponent(link.hash.slice(1))));
      if (name) {
        setTimeout(() => open !== name && show(name, dock.querySelector(`[data-sheet-open="${name}"]`)));
        return;
      }
      const openBtn = e.target.closest?.("[data-sheet-open]");
      if (openBtn && dock.contains(openBtn)) {
        const name = openBtn.dataset.sheetOpen;
        if (open === name) close();
        else show(name, openBtn);
        return;
      }
      if (e.target.closest?.("[data-sheet-close]") && layout.contains(e.target)) close();
      // A page chosen among the thumbnails, or a tag in the field list: show it (the link or the list scrolls the viewer).
      else if (open && e.target.closest?.(".room-thumb__link, [data-field-tag]")) close({ restoreFocus: false });
    },
    { signal },
  );
  // Escape closes the open sheet first (before the editor's own Escape).
  window.addEventListener(
    "keydown",
    (e) => {
      if (e.key !== "Escape" || !open || e.target.closest?.("dialog")) return;
      e.preventDefault();
      e.stopPropagation();
      close();
    },
    { capture: true, signal },
  );
  // The room is rebuilt (a page edit): the header outside it must not stay inert.
  signal.addEventListener("abort", () => {
    const header = document.querySelector(".site-header");
    if (header) header.inert = false;
  });
  // Widening the window past the breakpoint turns a sheet back into a column.
  window.addEventListener("resize", () => open && !isSheet(layout.querySelector(PANELS[open])) && close({ restoreFocus: false }), { signal });

  /** Opens a sheet by name as if its dock button was pressed (after a rebuild). */
  const reopen = (name) => name && show(name, dock.querySelector(`[data-sheet-open="${name}"]`));
  const api = { reopen, get open() { return open; } };
  if (!editor) return api;

  // The selected tag: arrow buttons in the dock (the keyboard's arrows work as before).
  const nudgeBar = dock.querySelector("[data-nudge-bar]");
  bus.on("select", ({ el }) => {
    if (nudgeBar) nudgeBar.hidden = !el;
  });
  nudgeBar?.addEventListener("click", (e) => {
    const step = e.target.closest("[data-nudge]")?.dataset.nudge;
    if (!step) return;
    const [right, down] = step.split(",").map(Number);
    editor.command("nudge", [right, down]);
  }, { signal });

  // Copied to pages: the properties sheet closes, so the page (its originals still selected) and the status show.
  bus.on("copied", () => open === "props" && close());

  // Place by tap: picking a type in the palette sheet closes it so the page can
  // be tapped; the dock says what happens next and offers to cancel.
  const hint = dock.querySelector("[data-placing-hint]");
  const hintText = dock.querySelector("[data-placing-text]");
  const pressed = () => layout.querySelector('[data-palette] [data-tag-type][aria-pressed="true"]');
  layout.querySelector("[data-palette]")?.addEventListener("click", () => {
    // The palette's own click handler (registered first) has armed or disarmed the type.
    if (pressed() && open === "tools") close({ restoreFocus: false });
  }, { signal });
  const syncHint = () => {
    const item = pressed();
    if (!hint) return;
    hint.hidden = !item;
    if (item) hintText.textContent = t("editor.palette.tap_hint", { name: item.textContent.trim() });
  };
  bus.on("armed", syncHint); // the palette says when a type is picked or put down
  hint?.querySelector("[data-placing-cancel]")?.addEventListener("click", () => palette?.arm(""), { signal });
  return api;
}
