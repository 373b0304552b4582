// Copy to pages: the dialog ([data-copy-pages-dialog], opened by
// [data-copy-pages-open] in the selected tags' panel) copies the selection
// to every page of its document, to the odd or even pages, or to a list of
// pages ("2-5, 8"), each copy at the same place relative to the target
// page's box (pagecopy.mjs: parsePages, copyToPage). Every copy goes in one
// request and one undo step; the field list shows the new tags. A tag is
// not copied onto its own page. The originals stay selected: the copies are
// on other pages, out of view, where a Delete would remove what is not seen.
import { listenUntil } from "./bus.mjs";
import { createGroup } from "./groups.mjs";
import { copyToPage, parsePages } from "./pagecopy.mjs";
import { t } from "./i18n.mjs";

/** A page as pagecopy.mjs takes it: its crop box as [x1, y1, x2, y2] and its /Rotate. */
const asPage = (p) => ({ box: [p.box.llx, p.box.lly, p.box.urx, p.box.ury], rotate: p.rotate });

export function createCopyToPages({ dialog, editor, viewer, bus, signal }) {
  if (!dialog) return null;
  const on = listenUntil(signal);
  const form = dialog.querySelector("form");
  const list = dialog.querySelector("[data-copy-pages-list]");
  const error = dialog.querySelector("[data-copy-pages-error]");
  const what = dialog.querySelector("[data-copy-pages-what]");
  const showError = (message) => {
    error.textContent = message || "";
    error.hidden = !message;
    list.toggleAttribute("aria-invalid", !!message);
  };

  on(document, "click", (e) => {
    if (!e.target.closest?.("[data-copy-pages-open]")) return;
    const els = editor.selectedEls;
    if (!els.length) return;
    showError("");
    what.textContent = t("editor.copy_pages.what", { count: els.length });
    dialog.showModal();
  });
  on(list, "focus", () => {
    form.elements.which.value = "list";
  });

  on(form, "submit", (e) => {
    e.preventDefault();
    const which = form.elements.which.value;
    const text = which === "list" ? list.value : which;
    const done = copyToPages({ editor, viewer, bus }, editor.selectedEls, (n) => parsePages(text, n));
    if (done.error) {
      showError(done.error);
      list.focus();
      return;
    }
    if (!done.copied) {
      showError(t("editor.copy_pages.nothing"));
      return;
    }
    showError("");
    dialog.close();
  });
  return dialog;
}

/**
 * Copies each of els to the pages pagesOf(pageCount) gives for its document
 * ({pages} or {error}), at the same place relative to each page's box, in
 * one request and one undo step (the session check's "Add initials to
 * pages 4–6" too). Answers {error}, or {copied}: how many copies went.
 */
export function copyToPages({ editor, viewer, bus }, els, pagesOf) {
  const out = [];
  const targets = new Set();
  for (const el of els) {
    const from = viewer.pageOf(el);
    const docPages = viewer.pages.filter((p) => p.el.dataset.documentId === from.el.dataset.documentId);
    const r = pagesOf(docPages.length);
    if (r.error) return r;
    const f = editor.current(el);
    for (const n of r.pages) {
      if (n === from.number) continue;
      const to = docPages.find((p) => p.number === n);
      if (!to) continue;
      targets.add(`${to.el.dataset.documentId}/${n}`);
      out.push({ page: to, fields: { ...f, ...copyToPage({ x: f.x, y: f.y, width: f.width, height: f.height }, asPage(from), asPage(to)), page: n } });
    }
  }
  if (out.length) {
    editor.run(createGroup(editor, out, t("editor.undo.copy_to_pages"), { select: false }).then(() => {
      bus.emit("copied", { tags: out.length, pages: targets.size });
      bus.emit("status", { message: t("editor.copy_pages.done", { tags: t("editor.count.tags", { count: out.length }), pages: t("editor.count.pages", { count: targets.size }) }) });
    }));
  }
  return { copied: out.length };
}
