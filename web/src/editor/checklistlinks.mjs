// The session checklist's links ("Go to “Mixed pages”", "Open the suggested
// fields", "Place tags"): the dialog closes (app.js) and the target is shown
// by scrolling only the box that holds it. The browser's own jump to a
// #fragment scrolls every scrollable ancestor, the document root too, which
// pushed the room's header and toolbar out of the window. A target inside a
// sheet (narrow screens) is shown once sheets.mjs has opened that sheet.
import { listenUntil } from "./bus.mjs";

/** Scrolls the nearest scrolling box that holds el so that el's top is margin pixels below the box's top. */
export function revealInBox(el, margin = 8) {
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    if (!/(auto|scroll)/.test(getComputedStyle(box).overflowY) || box.scrollHeight <= box.clientHeight) continue;
    box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top - margin;
    return;
  }
}

/** Handles the checklist's #fragment links for this start of the editor. */
export function wireChecklistLinks(signal) {
  listenUntil(signal)(document, "click", (e) => {
    const link = e.target.closest?.('.checklist__fix[href^="#"]');
    const target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) return;
    e.preventDefault();
    // After the dialog has closed and a sheet holding the target has opened (sheets.mjs waits a task too).
    setTimeout(() => requestAnimationFrame(() => revealInBox(target)));
  });
}
