// The toolbar's page numbers count within a document, as the thumbnails and
// the page badges do: "Purchase agreement · page 2 of 3". The input jumps to
// a page of the document in view.

/** Where a page sits in its document: {title, number, total}. */
export function pageInDocument(pageEl) {
  const doc = pageEl.closest(".viewer-doc");
  return {
    title: doc?.querySelector(".viewer-doc__title")?.textContent.trim() || "",
    number: Number(pageEl.dataset.page),
    total: doc ? doc.querySelectorAll(".viewer-page").length : 1,
  };
}

/** Keeps the toolbar's document title, page input and total in step with the page in view. */
export function wirePageNumbers(viewer, bus, bar, signal) {
  const input = bar.querySelector("[data-page-input]");
  const title = bar.querySelector("[data-page-doc]");
  const total = bar.querySelector("[data-page-total]");
  input?.addEventListener("change", () => {
    const cur = viewer.currentPage();
    const n = Number(input.value) || 1;
    const same = viewer.pages.filter((p) => p.el.closest(".viewer-doc") === cur?.el.closest(".viewer-doc"));
    const target = same[Math.min(Math.max(n, 1), same.length) - 1];
    if (target) viewer.goToPage(target.index + 1);
  }, { signal });
  bus.on("page", ({ page }) => {
    if (!page) return;
    const where = pageInDocument(page.el);
    if (title) {
      title.textContent = where.title;
      title.title = where.title;
    }
    if (total) total.textContent = String(where.total);
    if (input) {
      input.max = String(where.total);
      if (document.activeElement !== input) input.value = String(where.number);
    }
  });
}
