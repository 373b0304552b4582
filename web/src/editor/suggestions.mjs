// Suggested fields: blanks next to printed labels ("Signature", "Date",
// "Notary Public" …) the server found in the room's documents (issue 20).
// They are offered, not placed: each is drawn dashed on its page, and the
// field list starts with "N suggested fields" and accept one / accept all /
// dismiss. Accepting creates the tags (one batch request, one undo step: the
// editor's createGroup) for the signer picked for new tags; a tag covering a
// suggestion hides it, so an undone accept offers it again. Dismissing is
// stored for the room (POST data-suggestions-url) and is one undo step too.
// covers, parseSuggestions and suggestionName are pure and node-tested.
import { el as h, onTagsChanged } from "./dom.mjs";
import { createGroup } from "./groups.mjs";
import { reveal } from "./reveal.mjs";
import { readTagTypes, typeIcon } from "./taglabel.mjs";
import { tagRect } from "./viewer.mjs";
import { t } from "./i18n.mjs";

/** Whether rectangle a ({x, y, width, height}) covers b: their overlap is at least half the smaller one. */
export function covers(a, b) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return false;
  return w * h >= 0.5 * Math.min(a.width * a.height, b.width * b.height);
}

/** The suggestions of one document from its data-suggested-fields JSON (anything unreadable: none). */
export function parseSuggestions(text, position) {
  let list;
  try {
    list = JSON.parse(text || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list
    .filter((s) => s && typeof s.key === "string" && Number.isInteger(s.page) && [s.x, s.y, s.width, s.height].every(Number.isFinite))
    .map((s) => ({ ...s, doc: position, id: `${position}/${s.page}/${s.key}` }));
}

/**
 * What a suggestion is called in the list and in its buttons' names:
 * "Signature, page 2", and with its document's title "Signature, page 2 of Lease"
 * (two documents may each have a "Signature, page 2").
 */
export function suggestionName(s, title = "") {
  return title ? t("editor.suggestions.name_in_doc", { name: s.label || s.type, page: String(s.page), title }) : t("editor.suggestions.name", { name: s.label || s.type, page: String(s.page) });
}

const SVG = "http://www.w3.org/2000/svg";
const plural = (n) => t("editor.suggestions.count", { count: n });
const ICON = {
  accept: "M3.5 8.5l3 3 6-7",
  dismiss: "M4 4l8 8M12 4l-8 8",
};

/** The buttons whose focus survives a rebuild of the list (dataset names). */
const FOCUS_HOOKS = ["suggestionAcceptAll", "suggestionDismissAll", "suggestionShow", "suggestionAccept", "suggestionDismiss"];

let live = null; // the suggestions of the editor running now: undo steps act on it

/**
 * Draws the suggestions of every document under viewerRoot on their pages
 * and lists them in listRoot ([data-suggestions]); keeps both in step with
 * the tags. history is the room's undo history, editor the TagEditor, net
 * the page's connection (server.mjs), which posts the dismissals.
 */
export function createSuggestions({ viewerRoot, listRoot, editor, viewer, history, net, bus, signal }) {
  const url = viewerRoot.dataset.suggestionsUrl;
  const types = readTagTypes(viewerRoot.dataset.tagTypes);
  if (!url || !listRoot) return null;
  const all = new Map(); // id → suggestion
  const els = new Map(); // id → element on its page
  const dismissed = new Set();
  const accepting = new Set(); // ids whose tags are being saved
  for (const doc of viewerRoot.querySelectorAll(".viewer-doc[data-suggested-fields]")) {
    for (const s of parseSuggestions(doc.dataset.suggestedFields, Number(doc.dataset.docPosition))) all.set(s.id, s);
  }

  /** A button (type "button") carrying the data-* hook named by its dataset key. */
  const button = (className, hook, text) => {
    const b = h("button", className, text);
    b.type = "button";
    b.dataset[hook] = "";
    return b;
  };
  const icon = (name, className) => {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", className);
    svg.setAttribute("viewBox", "0 0 16 16");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", ICON[name]);
    svg.append(path);
    return svg;
  };
  /** Says who accepted fields go to: the participant picked for new tags. */
  const whoGets = () => {
    const picked = document.querySelector('[data-signer-picker] input[name="new-tag-signer"]:checked');
    const name = picked?.closest("[data-participant-id]")?.querySelector(".room-participant__name")?.textContent.trim();
    return name ? t("editor.suggestions.go_to", { name }) : t("editor.suggestions.go_unassigned");
  };
  /** A document's title as the viewer shows it. */
  const docTitle = (position) => viewerRoot.querySelector(`.viewer-doc[data-doc-position="${position}"] .viewer-doc__title`)?.textContent.trim() || t("editor.document_n", { n: position + 1 });
  const pageEl = (s) => viewerRoot.querySelector(`.viewer-doc[data-doc-position="${s.doc}"] .viewer-page[data-page="${s.page}"]`);

  /** The element of s on its page (made on first use), placed at the page's zoom. */
  const draw = (s) => {
    let el = els.get(s.id);
    const page = pageEl(s);
    if (!page) return null;
    if (!el) {
      el = h("div", "suggestion");
      Object.assign(el.dataset, { suggestionKey: s.key, suggestionId: s.id, suggestionType: s.type, x: s.x, y: s.y, w: s.width, h: s.height });
      el.setAttribute("aria-hidden", "true"); // the list says it all to assistive technology
      el.title = t("editor.suggestions.title", { name: s.label || s.type, text: s.text });
      const label = h("span", "suggestion__label", s.label || s.type);
      const actions = h("span", "suggestion__actions");
      for (const [name, hook, title] of [["accept", "suggestionAccept", t("editor.suggestions.add_this")], ["dismiss", "suggestionDismiss", t("editor.suggestions.dismiss_this")]]) {
        const b = button(`suggestion__btn suggestion__btn--${name}`, hook);
        b.tabIndex = -1;
        b.title = title;
        b.append(icon(name, "suggestion__icon"));
        actions.append(b);
      }
      el.append(label, actions);
      els.set(s.id, el);
    }
    // First in the page's tag layer: every tag paints above it and takes the pointer where they overlap.
    const layer = page.querySelector(".viewer-page__tags");
    if (layer && el.parentNode !== layer) layer.prepend(el);
    const view = viewer.pageOf(page);
    if (view?.scale) view.placeTag(el);
    return el;
  };

  /** The suggestions offered now: not dismissed, not covered by a tag on their page. */
  const offered = () => {
    const out = [];
    const tagsOf = new Map();
    for (const s of all.values()) {
      if (dismissed.has(s.id) || accepting.has(s.id)) continue;
      const page = pageEl(s);
      if (!page) continue;
      if (!tagsOf.has(page)) {
        tagsOf.set(page, [...page.querySelectorAll(".tag")].map(tagRect));
      }
      if (!tagsOf.get(page).some((r) => covers(r, s))) out.push(s);
    }
    return out.sort((a, b) => a.doc - b.doc || a.page - b.page || b.y - a.y || a.x - b.x);
  };

  const render = () => {
    const list = offered();
    const shown = new Set(list.map((s) => s.id));
    for (const s of all.values()) {
      const el = shown.has(s.id) ? draw(s) : els.get(s.id);
      if (el) el.hidden = !shown.has(s.id);
    }
    listRoot.hidden = list.length === 0;
    // The count on the Fields sheet's button (narrow screens, drawn by CSS); its name stays "Fields".
    const fields = document.querySelector('[data-room-dock] [data-sheet-open="fields"]');
    if (fields) {
      if (list.length) fields.dataset.suggestionsWaiting = String(list.length);
      else delete fields.dataset.suggestionsWaiting;
      fields.title = list.length ? plural(list.length) : "";
    }
    if (!list.length) {
      listRoot.replaceChildren();
      return;
    }
    const head = h("div", "suggestions__head");
    const title = h("h3", "suggestions__title", plural(list.length));
    title.dataset.suggestionCount = String(list.length);
    const buttons = h("div", "suggestions__all");
    const acceptAll = button("btn btn--primary btn--small", "suggestionAcceptAll", list.length === 1 ? t("editor.suggestions.accept") : t("editor.suggestions.accept_all"));
    const dismissAll = button("btn btn--secondary btn--small", "suggestionDismissAll", list.length === 1 ? t("editor.suggestions.dismiss") : t("editor.suggestions.dismiss_all"));
    buttons.append(acceptAll, dismissAll);
    head.append(title, buttons);
    const hint = h("p", "suggestions__hint", t("editor.suggestions.hint", { who: whoGets() }));
    // Grouped by document, like the field list: each document's title heads its suggestions.
    const ul = h("ul", "suggestions__list");
    let items = null;
    let doc = null;
    for (const s of list) {
      if (s.doc !== doc) {
        doc = s.doc;
        const n = list.filter((x) => x.doc === doc).length;
        const group = h("li", "suggestions__doc");
        group.dataset.suggestionDoc = String(doc);
        const head = h("h4", "suggestions__doc-head");
        const count = h("span", "field-list__count", String(n));
        count.setAttribute("aria-label", plural(n));
        const title = h("span", "suggestions__doc-title", docTitle(doc));
        title.dir = "auto";
        head.append(title, count);
        items = h("ul", "suggestions__items");
        group.append(head, items);
        ul.append(group);
      }
      const li = h("li", "suggestion-item");
      li.dataset.suggestionItem = s.id;
      const show = button("field-item suggestion-item__show", "suggestionShow");
      const ti = typeIcon(viewerRoot.dataset.tagIcons, types.get(s.type)?.icon, "field-item__icon");
      if (ti) show.append(ti);
      show.append(h("span", "suggestion-item__name", s.label || s.type), h("span", "suggestion-item__where", t("editor.suggestions.page_short", { page: String(s.page) })));
      show.title = t("editor.suggestions.show", { page: String(s.page), text: s.text });
      li.append(show);
      for (const [name, hook, verb] of [["accept", "suggestionAccept", t("editor.suggestions.accept")], ["dismiss", "suggestionDismiss", t("editor.suggestions.dismiss")]]) {
        const b = button("btn btn--ghost btn--icon suggestion-item__btn", hook);
        b.setAttribute("aria-label", t("editor.suggestions.action_label", { verb, name: suggestionName(s, docTitle(s.doc)) }));
        b.title = verb;
        b.append(icon(name, "suggestion__icon"));
        li.append(b);
      }
      items.append(li);
    }
    // Keep the focus where it was (the same button of the same row, else of the row now in its place).
    const focused = listRoot.contains(document.activeElement) ? document.activeElement : null;
    const hook = focused && FOCUS_HOOKS.find((k) => k in focused.dataset);
    const rows = [...listRoot.querySelectorAll("[data-suggestion-item]")].map((li) => li.dataset.suggestionItem);
    const row = focused?.closest("[data-suggestion-item]")?.dataset.suggestionItem;
    listRoot.replaceChildren(head, hint, ul);
    if (hook) {
      const now = ul.querySelectorAll("[data-suggestion-item]");
      const at = row ? ul.querySelector(`[data-suggestion-item="${CSS.escape(row)}"]`) || now[Math.min(rows.indexOf(row), now.length - 1)] : listRoot;
      const again = at?.querySelector(`[data-${hook.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`);
      (again || acceptAll).focus({ preventScroll: true });
    }
  };

  let frame = 0;
  const queue = () => {
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  };

  const post = (body) => net.decideSuggestions(url, body); // a refusal: a SaveError in the server's words
  const refs = (items) => items.map((s) => ({ documentPosition: s.doc, page: s.page, key: s.key }));
  const fail = (err) => bus.emit("error", { message: err.message || String(err) });

  const self = {
    /** Creates a tag at each suggestion: one request, one undo step. */
    async accept(items) {
      items = items.filter((s) => !accepting.has(s.id)); // a second click while the first is saved
      const list = [];
      for (const s of items) {
        const page = viewer.pageOf(pageEl(s));
        if (!page) continue;
        const fields = editor.newFields(page, s.type, { x: s.x, y: s.y, width: s.width, height: s.height });
        fields.required = s.required !== false;
        if (s.dateFormat) fields.dateFormat = s.dateFormat;
        if (s.fontSize) fields.fontSize = s.fontSize;
        fields.suggestion = s.key;
        list.push({ page, fields });
      }
      if (!list.length) return;
      for (const s of items) accepting.add(s.id);
      render(); // gone from the list at once; back if the server refuses
      try {
        await createGroup(editor, list, t("editor.undo.accept_suggestions", { count: list.length }));
      } finally {
        for (const s of items) accepting.delete(s.id);
        queue();
      }
      bus.emit("status", { message: t("editor.suggestions.added", { count: list.length }) });
    },
    /** Stops offering items (stored for the room): one undo step. */
    async dismiss(items) {
      if (!items.length) return;
      await self.setDismissed(items, true);
      history.push({
        label: t("editor.undo.dismiss_suggestions", { count: items.length }),
        undo: () => live.setDismissed(items, false),
        redo: () => live.setDismissed(items, true),
      });
      bus.emit("status", { message: t("editor.suggestions.dismissed", { count: items.length }) });
    },
    /** Dismisses items, or offers them again: shown at once, put back when the server refuses. */
    async setDismissed(items, on) {
      for (const s of items) {
        all.set(s.id, s); // a restore after the room was rebuilt: the page no longer listed it
        if (on) dismissed.add(s.id);
        else dismissed.delete(s.id);
      }
      render();
      try {
        await post({ [on ? "dismiss" : "restore"]: refs(items) });
      } catch (err) {
        for (const s of items) {
          if (on) dismissed.delete(s.id);
          else dismissed.add(s.id);
        }
        render();
        throw err;
      }
    },
    render,
  };
  live = self;

  const itemOf = (target) => {
    const id = target.closest("[data-suggestion-item]")?.dataset.suggestionItem || target.closest(".suggestion")?.dataset.suggestionId;
    return all.get(id);
  };
  const act = (target) => {
    if (target.closest("[data-suggestion-accept-all]")) return self.accept(offered());
    if (target.closest("[data-suggestion-dismiss-all]")) return self.dismiss(offered());
    const s = itemOf(target);
    if (!s) return null;
    if (target.closest("[data-suggestion-accept]")) return self.accept([s]);
    if (target.closest("[data-suggestion-dismiss]")) return self.dismiss([s]);
    if (target.closest("[data-suggestion-show]")) {
      // After the click has closed a sheet this list may sit in (the pages are inert while it is open).
      setTimeout(() => {
        const el = els.get(s.id);
        if (!el) return;
        reveal(el, { block: "center" }); // the pages only: never the room around them
        el.classList.remove("suggestion--flash");
        void el.offsetWidth; // restart the animation
        el.classList.add("suggestion--flash");
      });
    }
    return null;
  };
  const onClick = (e) => {
    const done = act(e.target);
    done?.catch?.(fail);
  };
  listRoot.addEventListener("click", onClick, { signal });
  document.querySelector("[data-signer-picker]")?.addEventListener("change", queue, { signal }); // the hint names the signer
  // On the pages: a press on a suggestion's box is a press on the page for the editor (it clears
  // the selection or starts a selection rectangle), one on its buttons is not. Hovering shows the
  // buttons; a tap shows them too (touch has no hover), a click elsewhere hides them.
  const close = (except) => {
    for (const el of viewerRoot.querySelectorAll(".suggestion--open")) if (el !== except) el.classList.remove("suggestion--open");
  };
  viewerRoot.addEventListener("pointerdown", (e) => {
    if (e.target.closest?.(".suggestion__btn")) e.stopPropagation();
  }, { capture: true, signal });
  document.addEventListener("click", (e) => {
    const el = e.target.closest?.(".suggestion");
    close(el);
    if (!el) return;
    if (e.target.closest(".suggestion__btn")) onClick(e);
    else el.classList.toggle("suggestion--open");
  }, { signal });
  document.addEventListener("keydown", (e) => e.key === "Escape" && close(null), { signal });

  onTagsChanged(viewerRoot, render, signal);
  signal?.addEventListener("abort", () => cancelAnimationFrame(frame));
  render();
  return self;
}
