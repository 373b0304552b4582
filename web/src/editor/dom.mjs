// Small DOM helpers shared by the editor's modules: building the panels the
// editor makes itself (the field list, the suggested fields) and finding a
// tag by its id.

/** A new element: its tag name, class and, when given, its text. */
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

/** The tag element with this id. */
export function findTag(id) {
  return id ? document.querySelector(`.tag[data-tag-id="${CSS.escape(id)}"]`) : null;
}

/**
 * Calls render once a frame after the tags under root were added, removed,
 * moved or resized (a MutationObserver on their places), until signal aborts.
 */
export function onTagsChanged(root, render, signal) {
  let frame = 0;
  const observer = new MutationObserver((records) => {
    const relevant = records.some((r) =>
      r.type === "attributes" ? r.target.classList?.contains("tag") : [...r.addedNodes, ...r.removedNodes].some((n) => n instanceof Element && (n.classList.contains("tag") || n.querySelector?.(".tag"))),
    );
    if (relevant) frame ||= requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-x", "data-y", "data-w", "data-h", "data-tag-page"] });
  signal?.addEventListener("abort", () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
  });
}
