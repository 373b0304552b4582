// A room change that answers with the whole room (a participant saved, a
// document renamed, a page edit) keeps the user where they were: the side
// columns keep their scroll (the viewer's is kept by main.mjs's restart), and
// a form that names its success (data-success, with {field} filled in from
// the form) has it said in the status line, which is aria-live.

/** The scroll of the side columns, to put back once the room is swapped. */
export function rememberPlace() {
  const at = (sel) => document.querySelector(sel)?.scrollTop || 0;
  return { sidebar: at("#room-sidebar"), panel: at("#room-panel"), pageY: window.scrollY };
}

/** Puts the side columns' scroll back (the new markup starts at the top). */
export function restorePlace(place) {
  if (!place) return;
  const set = (sel, top) => {
    const el = document.querySelector(sel);
    if (el && top) el.scrollTop = top;
  };
  set("#room-sidebar", place.sidebar);
  set("#room-panel", place.panel);
  if (place.pageY) window.scrollTo({ top: place.pageY, behavior: "instant" });
}

/** The confirmation of a form that succeeded ("Saved Pat Buyer."), or "" (no data-success, or refused). */
export function successMessage(elt, status) {
  const form = elt?.closest?.("form[data-success]");
  if (!form || status < 200 || status >= 300) return "";
  const data = new FormData(form);
  return fillSuccess(form.dataset.success, (name) => String(data.get(name) || ""));
}

/** Fills {name} placeholders of template from value(name), with runs of spaces collapsed. Pure. */
export function fillSuccess(template, value) {
  return template.replace(/\{(\w+)\}/g, (_, name) => value(name).trim()).replace(/\s+/g, " ").trim();
}
