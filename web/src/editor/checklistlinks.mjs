// The session check's links ("Go to “Mixed pages”", "Open the suggested
// fields", "Place tags") and its fixes ("Show", "Assign to…", "Add initials
// to pages 4–6": data-fix, data-fix-tag, data-fix-pages, docs/review.md):
// the dialog closes (app.js) and the target is shown by scrolling only the
// box that holds it. The browser's own jump to a #fragment scrolls every
// scrollable ancestor, the document root too, which pushed the room's
// header and toolbar out of the window. A target inside a sheet (narrow
// screens) is shown once sheets.mjs has opened that sheet. A fix's tag is
// brought into view and focused, which selects it (editor.mjs); "Assign
// to…" then puts the focus on its signer, the initials are copied as
// the copy-to-pages dialog does (one undo step), and "Keep here" saves a
// tag a revision flagged where it is (the save is the look it asked for).
import { listenUntil } from "./bus.mjs";
import { copyToPages } from "./copypages.mjs";
import { tagFields } from "./editor.mjs";
import { reveal } from "./reveal.mjs";

/** Scrolls the nearest scrolling box that holds el so that el's top is margin pixels below the box's top. */
export function revealInBox(el, margin = 8) {
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    if (!/(auto|scroll)/.test(getComputedStyle(box).overflowY) || box.scrollHeight <= box.clientHeight) continue;
    box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top - margin;
    return;
  }
}

/** Handles the session check's links and fixes for this start of the editor (state: main.mjs's, its editor once made). */
export function wireChecklistLinks(signal, state) {
  listenUntil(signal)(document, "click", (e) => {
    const link = e.target.closest?.('.checklist__fix[href^="#"]');
    if (!link) return;
    const { fix, fixTag, fixPages } = link.dataset;
    const tag = fix && state.root.querySelector(`.tag[data-tag-id="${CSS.escape(fixTag)}"]`);
    const target = tag || document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) return;
    e.preventDefault();
    // After the dialog has closed (its opener refocused) and a sheet holding the target has opened (sheets.mjs waits a task too).
    setTimeout(() =>
      requestAnimationFrame(() => {
        if (!tag) return revealInBox(target);
        reveal(tag, { block: "center" }); // the pages only: never the room around them
        tag.focus({ preventScroll: true });
        if (fix === "assign") document.getElementById("tag-prop-signer")?.focus();
        if (fix === "copy_to_pages" && state.editor) copyToPages(state, [tag], () => ({ pages: fixPages.split(",").map(Number) }));
        if (fix === "keep" && state.editor) state.editor.run(state.editor.change(fixTag, tagFields(tag)));
      }),
    );
  });
}
