// A text tag ("{{signature|1}}") printed in the PDF becomes a tag over its
// own words, and the words showed through the tag as if typed into it
// (issue 40). In the page view only — never in the PDF, which keeps its
// words — a cover hides the words of each text tag while a tag lies over
// them; moved away, the tag uncovers them, so what the PDF still prints is
// seen. The boxes come from the server's detection of each document
// (data-text-tags, handlers' textTagsJSON). parseTextTags is pure and
// node-tested; covers is suggestions.mjs's rule.
import { el as h, onTagsChanged } from "./dom.mjs";
import { covers } from "./suggestions.mjs";
import { tagRect } from "./viewer.mjs";

/** The text tags' boxes of one document from its data-text-tags JSON: [{page, x, y, width, height}] (anything unreadable: none). */
export function parseTextTags(text) {
  let list;
  try {
    list = JSON.parse(text || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.filter((b) => b && Number.isInteger(b.page) && [b.x, b.y, b.width, b.height].every(Number.isFinite) && b.width > 0 && b.height > 0);
}

/**
 * Draws a cover (.text-cover, data-text-cover) over each text tag's words
 * under viewerRoot that a tag on its page lies over, and keeps the covers in
 * step as tags come, move and go. The viewer places them with the tags.
 */
export function watchTextCovers({ viewerRoot, viewer, signal }) {
  const all = [];
  for (const doc of viewerRoot.querySelectorAll(".viewer-doc[data-text-tags]")) {
    for (const b of parseTextTags(doc.dataset.textTags)) {
      const page = doc.querySelector(`.viewer-page[data-page="${b.page}"]`);
      if (page) all.push({ ...b, page, el: null });
    }
  }
  if (!all.length) return;

  const draw = (b) => {
    if (!b.el) {
      b.el = h("div", "text-cover");
      b.el.dataset.textCover = "";
      Object.assign(b.el.dataset, { x: b.x, y: b.y, w: b.width, h: b.height });
      b.el.setAttribute("aria-hidden", "true");
    }
    // First in the page's tag layer: under every tag and suggestion.
    const layer = b.page.querySelector(".viewer-page__tags");
    if (layer && b.el.parentNode !== layer) layer.prepend(b.el);
    const view = viewer.pageOf(b.page);
    if (view?.scale) view.placeTag(b.el);
  };

  const render = () => {
    const rects = new Map();
    for (const b of all) {
      if (!rects.has(b.page)) rects.set(b.page, [...b.page.querySelectorAll(".tag[data-tag-id]")].map(tagRect));
      const under = rects.get(b.page).some((r) => covers(r, b));
      if (under) draw(b);
      if (b.el) b.el.hidden = !under;
    }
  };


  onTagsChanged(viewerRoot, render, signal);
  render();
}
