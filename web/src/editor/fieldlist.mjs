// The field list: every tag of the room, grouped by participant (unassigned
// tags first, marked), then by document and page, with counts. Choosing one
// scrolls the pages to it and selects it. It follows the tags as they are
// placed, moved, reassigned and removed (the same DOM changes counts.mjs
// follows). groupFields is pure and node-tested.
import { el as h } from "./dom.mjs";
import { reveal } from "./reveal.mjs";
import { readTagTypes, typeIcon } from "./taglabel.mjs";
import { t as tr } from "./i18n.mjs";

/**
 * Groups tags ({id, signerId, doc, page, type, label}) for the list: the
 * unassigned ones first, then each participant of people ({id, name,
 * initials, colorClass}) in order; in each, documents in the order of docs
 * ({position, title}) and pages in order. A tag whose signer is not among
 * people counts as unassigned.
 */
export function groupFields(tags, people, docs) {
  const known = new Set(people.map((p) => p.id));
  const groups = [{ id: "", name: tr("editor.fields.unassigned"), initials: "", colorClass: "signer-none", unassigned: true, tags: [] }, ...people.map((p) => ({ ...p, tags: [] }))];
  const byId = new Map(groups.map((g) => [g.id, g]));
  for (const t of tags) byId.get(known.has(t.signerId) ? t.signerId : "").tags.push(t);
  const docOrder = new Map(docs.map((d, i) => [d.position, i]));
  return groups
    .filter((g) => !g.unassigned || g.tags.length)
    .map((g) => {
      const docsOf = new Map();
      for (const t of g.tags) {
        if (!docsOf.has(t.doc)) docsOf.set(t.doc, new Map());
        const pages = docsOf.get(t.doc);
        if (!pages.has(t.page)) pages.set(t.page, []);
        pages.get(t.page).push(t);
      }
      const documents = [...docsOf]
        .sort(([a], [b]) => (docOrder.get(a) ?? a) - (docOrder.get(b) ?? b))
        .map(([position, pages]) => ({
          position,
          title: docs.find((d) => d.position === position)?.title || tr("editor.document_n", { n: position + 1 }),
          count: [...pages.values()].reduce((n, ts) => n + ts.length, 0),
          pages: [...pages].sort(([a], [b]) => a - b).map(([page, ts]) => ({ page, count: ts.length, tags: ts })),
        }));
      return { ...g, count: g.tags.length, documents };
    });
}

const plural = (n) => tr("editor.count.tags", { count: n });

/** Builds the field list in root ([data-field-list]) from the tags under viewerRoot and keeps it current. */
export function createFieldList(root, viewerRoot, { iconsURL = viewerRoot.dataset.tagIcons || "", types = readTagTypes(viewerRoot.dataset.tagTypes), signal } = {}) {
  const body = root?.querySelector("[data-field-list-body]");
  if (!body) return null;
  const total = root.querySelector("[data-field-total]");

  const read = () => {
    const people = [...document.querySelectorAll(".room-participant[data-participant-id]")].map((li) => ({
      id: li.dataset.participantId,
      name: li.querySelector(".room-participant__name")?.textContent.trim() || "",
      initials: li.querySelector(".signer-chip")?.textContent.trim() || "",
      colorClass: [...li.classList].find((c) => c.startsWith("signer-c")) || "signer-none",
    }));
    const docs = [...viewerRoot.querySelectorAll(".viewer-doc")].map((d) => ({
      position: Number(d.dataset.docPosition),
      title: d.querySelector(".viewer-doc__title")?.textContent.trim() || "",
    }));
    const tags = [...viewerRoot.querySelectorAll(".tag[data-tag-id]")].map((el) => ({
      id: el.dataset.tagId,
      signerId: el.dataset.signerId || "",
      doc: Number(el.closest(".viewer-doc").dataset.docPosition),
      page: Number(el.closest(".viewer-page").dataset.page),
      type: el.dataset.tagType,
      label: el.dataset.typeLabel || el.querySelector(".tag__type")?.textContent.trim() || el.dataset.tagType,
      required: "required" in el.dataset,
      selected: el.getAttribute("aria-selected") === "true",
    }));
    return { tags, groups: groupFields(tags, people, docs) };
  };

  const count = (n) => h("span", "field-list__count", String(n));

  const render = () => {
    const { tags, groups } = read();
    if (total) total.textContent = String(tags.length);
    const list = h("ul", "field-list__groups");
    for (const g of groups) {
      const li = h("li", `field-group ${g.colorClass}` + (g.unassigned ? " field-group--unassigned" : ""));
      li.dataset.fieldGroup = g.id || "unassigned";
      const head = h("h3", "field-group__head");
      const chip = h("span", g.unassigned ? "signer-chip field-group__warn" : "signer-chip", g.unassigned ? "!" : g.initials);
      chip.setAttribute("aria-hidden", "true");
      const name = h("span", "field-group__name", g.unassigned ? tr("editor.fields.unassigned") : g.name);
      if (!g.unassigned) name.dir = "auto"; // data: in Arabic a Latin name is cut at its own end
      head.append(chip, name, count(g.count));
      head.lastChild.setAttribute("aria-label", plural(g.count));
      li.append(head);
      if (g.unassigned) li.append(h("p", "field-group__hint", tr("editor.fields.unassigned_hint")));
      if (!g.count) li.append(h("p", "field-group__empty muted small", tr("editor.fields.group_empty")));
      for (const d of g.documents) {
        const dl = h("div", "field-doc");
        const dh = h("p", "field-doc__head");
        const title = h("span", "field-doc__title", d.title);
        title.dir = "auto";
        dh.append(title, count(d.count));
        dh.lastChild.setAttribute("aria-label", plural(d.count));
        dl.append(dh);
        for (const p of d.pages) {
          const ph = h("p", "field-page__head");
          ph.append(h("span", "", tr("editor.fields.page", { page: String(p.page) })), count(p.count));
          ph.lastChild.setAttribute("aria-label", plural(p.count));
          const items = h("ul", "field-page__tags");
          for (const t of p.tags) {
            const item = h("li");
            const b = h("button", "field-item");
            b.type = "button";
            b.dataset.fieldTag = t.id;
            if (t.selected) b.setAttribute("aria-current", "true");
            const icon = typeIcon(iconsURL, types.get(t.type)?.icon, "field-item__icon");
            if (icon) b.append(icon);
            b.append(h("span", "", t.label));
            if (t.required) {
              const req = h("span", "field-item__req", "*");
              req.title = tr("editor.tag.required");
              req.setAttribute("aria-hidden", "true");
              b.append(req, h("span", "visually-hidden", ` ${tr("editor.fields.to_fill")}`));
            }
            item.append(b);
            items.append(item);
          }
          dl.append(ph, items);
        }
        li.append(dl);
      }
      list.append(li);
    }
    if (!tags.length) {
      body.replaceChildren(h("p", "muted small", tr("editor.fields.empty")), list);
    } else {
      body.replaceChildren(list);
    }
  };

  body.addEventListener("click", (e) => {
    const b = e.target.closest("[data-field-tag]");
    if (!b) return;
    const id = b.dataset.fieldTag;
    // After the click has closed a sheet this list may sit in (the pages are inert while it is open).
    setTimeout(() => {
      const tag = viewerRoot.querySelector(`.tag[data-tag-id="${CSS.escape(id)}"]`);
      if (!tag) return;
      reveal(tag, { block: "center" }); // the pages only: never the room around them
      if (tag.hasAttribute("tabindex")) tag.focus({ preventScroll: true });
    });
  }, { signal });

  let frame = 0;
  const queue = () => {
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  };
  render();
  const observer = new MutationObserver((records) => {
    // Handles, guesses and label parts come and go inside tags: only tags themselves matter.
    const relevant = records.some((r) =>
      r.type === "attributes" ? r.target.classList?.contains("tag") : [...r.addedNodes, ...r.removedNodes].some((n) => n instanceof Element && (n.classList.contains("tag") || n.querySelector?.(".tag"))),
    );
    if (relevant) queue();
  });
  observer.observe(viewerRoot, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-signer-id", "data-tag-page", "data-required", "aria-selected", "data-tag-id"] });
  signal?.addEventListener("abort", () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
  });
  return { render };
}
