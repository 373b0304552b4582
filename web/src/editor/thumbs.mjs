// Page thumbnails in the documents sidebar: drawn with pdf.js through the
// viewer's own documents, only when they scroll into view, after the pages
// the viewer is drawing (viewer.afterPages); the thumbnail of the page in
// view is marked. A click on a thumbnail scrolls the pages alone (a fragment
// link would scroll the room around them too).
import { reveal } from "./reveal.mjs";

const WIDTH = 48; // CSS pixels
const HEIGHT = 56;

export function createThumbnails(viewer, bus, signal) {
  document.addEventListener("click", (e) => {
    const link = e.target.closest?.(".room-thumb__link");
    const target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    history.replaceState(history.state, "", link.hash); // the address still names the page
    reveal(target, { block: "start", margin: 16 });
  }, { signal });
  const items = [];
  for (const doc of document.querySelectorAll(".room-doc[data-document]")) {
    for (const li of doc.querySelectorAll(".room-thumb[data-page]")) {
      const page = viewer.pageOf(document.getElementById(`doc-${doc.dataset.document}-page-${li.dataset.page}`));
      const canvas = li.querySelector(".room-thumb__canvas");
      if (page && canvas) items.push({ li, page, canvas, done: false });
    }
  }
  if (items.length === 0) return;
  const byCanvas = new Map(items.map((it) => [it.canvas, it]));
  const scroller = items[0].li.closest(".app-sidebar") || null;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        const it = byCanvas.get(e.target);
        if (e.isIntersecting && it && !it.done) {
          it.done = true;
          observer.unobserve(e.target);
          viewer.afterPages(() => draw(it)).catch(() => {
            if (signal?.aborted) return; // the room was rebuilt
            it.done = false; // drawn again when it next scrolls into view
            observer.observe(it.canvas);
          });
        }
      }
    },
    { root: scroller, rootMargin: "200px 0px" },
  );
  for (const it of items) {
    sizeCanvas(it);
    observer.observe(it.canvas);
  }
  signal?.addEventListener("abort", () => observer.disconnect());

  // The page current when the room was (re)built: its thumbnail is where the user left the sidebar.
  let shown = null;
  bus.on("page", ({ page }) => {
    const changed = shown !== null && shown !== page;
    shown = page;
    for (const it of items) {
      if (it.page === page) {
        it.li.setAttribute("aria-current", "true");
        // Keep the current page's thumbnail in sight once the pages scroll, unless the sidebar is in use.
        if (changed && !scroller?.matches(":hover, :focus-within")) reveal(it.li);
      } else {
        it.li.removeAttribute("aria-current");
      }
    }
  });
}

function scaleOf(it) {
  return Math.min(WIDTH / it.page.size.width, HEIGHT / it.page.size.height);
}

function sizeCanvas(it) {
  const s = scaleOf(it);
  it.canvas.style.width = `${Math.round(it.page.size.width * s)}px`;
  it.canvas.style.height = `${Math.round(it.page.size.height * s)}px`;
}

async function draw(it) {
  const pdf = await it.page.doc.load();
  const page = await pdf.getPage(it.page.number);
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const viewport = page.getViewport({ scale: scaleOf(it) * dpr });
  it.canvas.width = Math.floor(viewport.width);
  it.canvas.height = Math.floor(viewport.height);
  await page.render({ canvasContext: it.canvas.getContext("2d", { alpha: false }), viewport }).promise;
  it.li.classList.add("room-thumb--drawn");
}
