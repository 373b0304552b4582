// "What changed" after a revision (docs/revise.md): the answer of "Replace
// with revised version…" carries the mapping's report as JSON
// ([data-revision-report]); on each page of the revised document this draws the
// words the new version added, highlighted, how many words it lost (the
// words of the old page whose text it took), and for each tag that moved a
// faint arrow from where it was (its old box, when its old page became this
// one) or a "from page N" mark (when it came from another page). Drawn in
// shares of the page (zoom leaves them in place), never selectable; "Hide
// changes" removes them with the summary. The next room change, which
// renders the room without a report, clears them too.
import { displaySize, parseBox, pdfRectToScreen } from "./coords.mjs";
import { t } from "./i18n.mjs";

const SVG = "http://www.w3.org/2000/svg";

/** Draws the report of the room's revision, if the room holds one; wires "Hide changes". */
export function showRevision(root, { signal } = {}) {
  const summary = document.querySelector("[data-revision-report]");
  if (!summary) return;
  let data;
  try {
    data = JSON.parse(summary.dataset.revisionReport);
  } catch {
    return;
  }
  const report = data.report || {};
  const doc = root.querySelector(`.viewer-doc[data-doc-position="${CSS.escape(String(data.document))}"]`);
  if (!doc) return;
  // A new page whose text came from old page n: n's counterpart; the words
  // an old page lost are counted on the new page that took its text.
  const cameFrom = new Map((report.removed || []).map((p) => [p.page, p.counterpart]));
  const lost = new Map();
  for (const p of report.removed || []) if (p.counterpart) lost.set(p.counterpart, (lost.get(p.counterpart) || 0) + (p.words?.length || 0));
  for (const pageEl of doc.querySelectorAll(".viewer-page[data-page]")) {
    const n = Number(pageEl.dataset.page);
    const added = (report.added || []).find((p) => p.page === n)?.words || [];
    const moved = (report.tags || []).filter((p) => p.newPage === n && p.outcome === "moved");
    if (added.length || moved.length || lost.get(n)) drawPage(pageEl, added, moved, cameFrom, lost.get(n) || 0);
  }
  document.querySelector("[data-action='revision-hide']")?.addEventListener("click", () => {
    for (const el of root.querySelectorAll(".revision-layer")) el.remove();
    document.querySelector("[data-revision-summary]")?.remove();
  }, { signal });
}

/** One page's layer: the added words, the moved tags' arrows and marks, how many words it lost. */
function drawPage(pageEl, added, moved, cameFrom, removed) {
  const box = parseBox(pageEl.dataset.box);
  const rotate = Number(pageEl.dataset.rotate) || 0;
  const at = (b) => pdfRectToScreen(box, rotate, 1, { x: b.x, y: b.y, width: b.width, height: b.height });
  const { width: w, height: h } = displaySize(box, rotate);
  const layer = document.createElement("div");
  layer.className = "revision-layer";
  layer.setAttribute("aria-hidden", "true");
  layer.dataset.revisionPage = pageEl.dataset.page;
  const share = (el, r) => {
    el.style.left = `${(100 * r.left) / w}%`;
    el.style.top = `${(100 * r.top) / h}%`;
    el.style.width = `${(100 * r.width) / w}%`;
    el.style.height = `${(100 * r.height) / h}%`;
  };
  for (const word of added) {
    const el = document.createElement("span");
    el.className = "revision-word";
    share(el, at(word.box));
    layer.append(el);
  }
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "revision-arrows");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const head = `revision-head-${pageEl.id}`;
  const marker = document.createElementNS(SVG, "marker");
  marker.id = head;
  for (const [k, v] of Object.entries({ viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "6", markerHeight: "6", orient: "auto-start-reverse" })) marker.setAttribute(k, v);
  const tip = document.createElementNS(SVG, "path");
  tip.setAttribute("d", "M0 0L10 5L0 10z");
  marker.append(tip);
  const defs = document.createElementNS(SVG, "defs");
  defs.append(marker);
  svg.append(defs);
  for (const tag of moved) {
    const to = at(tag.new);
    if (cameFrom.get(tag.oldPage) === tag.newPage) {
      const from = at(tag.old);
      const ghost = document.createElement("span");
      ghost.className = "revision-ghost";
      share(ghost, from);
      layer.append(ghost);
      const line = document.createElementNS(SVG, "line");
      line.setAttribute("x1", String(from.left + from.width / 2));
      line.setAttribute("y1", String(from.top + from.height / 2));
      line.setAttribute("x2", String(to.left + to.width / 2));
      line.setAttribute("y2", String(to.top + to.height / 2));
      line.setAttribute("vector-effect", "non-scaling-stroke");
      line.setAttribute("marker-end", `url(#${head})`);
      line.dataset.revisionArrow = tag.id;
      svg.append(line);
    } else {
      const mark = document.createElement("span");
      mark.className = "revision-from";
      mark.dataset.revisionFrom = tag.id;
      mark.textContent = t("editor.revision.from_page", { page: String(tag.oldPage) });
      // Beside the tag, on its line (under it lie the words it belongs to).
      mark.style.left = `${(100 * (to.left + to.width)) / w}%`;
      mark.style.top = `${(100 * to.top) / h}%`;
      layer.append(mark);
    }
  }
  if (removed) {
    const note = document.createElement("span");
    note.className = "revision-removed";
    note.dataset.revisionRemoved = String(removed);
    note.textContent = t("editor.revision.removed", { count: removed });
    layer.append(note);
  }
  layer.prepend(svg);
  const canvas = pageEl.querySelector(".viewer-page__canvas");
  if (canvas) canvas.after(layer); // under the tags, which come after it
  else pageEl.prepend(layer);
}
