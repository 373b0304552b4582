// The room's template dialogs (templates/room_templates.templ):
// "Save as template…" ([data-template-save-dialog]) saves the room's
// documents, roles and tags as a template of the organization, or as a new
// version of the room's template; "Apply template…"
// ([data-template-apply-dialog]) finds a template by name, maps each of its
// roles to a participant (by name, else by order), says how many tags it
// places, and applies it: one request, whose placed tags the undo history
// records as one step (session.mjs tagsPlaced), then the room is fetched
// again. A document that resembles a template offers it
// ([data-template-offer], templates/room_templates.templ templateOffer): one
// click applies it as the dialog would, with the roles prefilled the same
// way (prefillRoles), as one undo step; dismissed, it stays hidden for the
// tab (sessionStorage, keyed by room, document and template). Requests go through the page's connection (server.mjs connect:
// requestJSON, reloadRoom).
import { listenUntil } from "./bus.mjs";
import { TAGS_PLACED_EVENT } from "./session.mjs";
import { t as tr } from "./i18n.mjs";

/** The catalog's counts ("1 tag" / "n tags", and the like), one literal id per word. */
const COUNTS = { document: "editor.count.documents", page: "editor.count.pages", role: "editor.count.roles", tag: "editor.count.tags" };

/** "1 tag" / "n tags", and the like, in the page's language. */
export function count(n, word) {
  return tr(COUNTS[word], { count: n });
}

/**
 * Who takes each role, prefilled: the participant of the same name (any
 * case), else the participant at the role's place, unless taken; "" leaves
 * the role unassigned. people: [{id, name}] in room order.
 */
export function prefillRoles(roles, people) {
  const taken = new Set();
  const byName = roles.map((r) => people.find((p) => p.name.trim().toLowerCase() === r.trim().toLowerCase())?.id || "");
  byName.forEach((id) => id && taken.add(id));
  return roles.map((r, i) => {
    if (byName[i]) return byName[i];
    const p = people[i];
    if (p && !taken.has(p.id)) {
      taken.add(p.id);
      return p.id;
    }
    return "";
  });
}

/** Wires the template dialogs of the room; net is the page's connection (server.mjs connect). */
export function createTemplates({ net, setStatus, signal }) {
  const on = listenUntil(signal);
  const save = document.querySelector("[data-template-save-dialog]");
  const apply = document.querySelector("[data-template-apply-dialog]");
  if (save) wireSave(save, on, net, setStatus);
  if (apply) wireApply(apply, on, net, setStatus);
  if (apply) wireOffers(apply, on, net, setStatus);
}

function errorShower(dialog) {
  const el = dialog.querySelector("[data-template-error]");
  return (message) => {
    el.textContent = message || "";
    el.hidden = !message;
  };
}

function wireSave(dialog, on, net, setStatus) {
  const form = dialog.querySelector("form");
  const showError = errorShower(dialog);
  on(document, "click", (e) => e.target.closest?.("[data-template-save]") && showError(""));
  on(form, "submit", async (e) => {
    e.preventDefault();
    const name = form.elements.name.value.trim();
    const documents = [...form.querySelectorAll('input[name="documents"]:checked')].map((el) => Number(el.value));
    const roleNames = [...form.querySelectorAll('input[name="roleNames"]')].map((el) => el.value.trim());
    const templateId = form.querySelector('input[name="templateId"]:checked')?.value || "";
    if (!name) return showError(tr("editor.templates.name_required"));
    if (!documents.length) return showError(tr("editor.templates.documents_required"));
    if (roleNames.some((r) => !r)) return showError(tr("editor.templates.roles_required"));
    const body = { name, documents, roleNames };
    if (templateId) body.templateId = templateId;
    const button = form.querySelector('[type="submit"]');
    button.disabled = true;
    try {
      const t = await net.requestJSON(form.dataset.url, body);
      dialog.close();
      setStatus(tr("editor.templates.saved", { name: t.name, version: String(t.version) }), "ok");
    } catch (err) {
      showError(err.message);
    } finally {
      button.disabled = false;
    }
  });
}

function wireApply(dialog, on, net, setStatus) {
  const form = dialog.querySelector("form");
  const showError = errorShower(dialog);
  const search = form.querySelector("[data-template-search]");
  const list = form.querySelector("[data-template-list]");
  const fromField = form.querySelector("[data-template-document-field]");
  const from = form.querySelector("[data-template-document]");
  const target = form.querySelector("[data-template-target]");
  const rolesBox = form.querySelector("[data-template-roles]");
  const roleFields = form.querySelector("[data-template-role-fields]");
  const summary = form.querySelector("[data-template-summary]");
  const submit = form.querySelector("[data-template-apply-submit]");
  const participants = form.querySelector("[data-template-participants]");
  const people = roomPeople(dialog);
  let found = []; // the templates of the last search
  let chosen = null;
  let asked = 0;

  const find = async () => {
    const mine = ++asked;
    const url = `${form.dataset.listUrl}?q=${encodeURIComponent(search.value.trim())}`;
    try {
      const { items } = await net.requestJSON(url);
      if (mine !== asked) return;
      found = items;
      showList();
    } catch (err) {
      if (mine === asked) showError(err.message);
    }
  };

  const showList = () => {
    list.replaceChildren();
    if (!found.length) {
      const p = document.createElement("p");
      p.className = "muted small";
      p.textContent = search.value.trim() ? tr("editor.templates.no_match") : tr("editor.templates.none");
      list.append(p);
    }
    for (const t of found) {
      const label = document.createElement("label");
      label.dataset.templateId = t.id;
      const input = document.createElement("input");
      Object.assign(input, { type: "radio", name: "templateId", value: t.id, checked: chosen?.id === t.id });
      const tags = t.documents.reduce((n, d) => n + d.tags, 0);
      const note = document.createElement("span");
      note.className = "muted small";
      note.textContent = ` ${tr("editor.templates.option_note", { documents: count(t.documents.length, "document"), tags: count(tags, "tag"), roles: count(t.roles.length, "role") })}`;
      label.append(input, ` ${t.name}`, note);
      list.append(label);
    }
    if (chosen && !found.some((t) => t.id === chosen.id)) choose(null);
  };

  const choose = (t) => {
    chosen = t;
    from.replaceChildren(...(t?.documents || []).map((d) => new Option(tr("editor.templates.document_option", { title: d.title, pages: count(d.pages, "page"), tags: count(d.tags, "tag") }), String(d.index))));
    fromField.hidden = !t || t.documents.length < 2;
    roleFields.replaceChildren();
    const prefilled = t ? prefillRoles(t.roles, people) : [];
    (t?.roles || []).forEach((role, i) => {
      const id = `template-apply-role-${i}`;
      const field = document.createElement("div");
      field.className = "field";
      const label = document.createElement("label");
      label.className = "field__label";
      label.htmlFor = id;
      label.textContent = role;
      const select = document.createElement("select");
      Object.assign(select, { className: "input", id });
      select.dataset.role = role;
      select.append(participants.content.cloneNode(true));
      select.value = prefilled[i];
      field.append(label, select);
      roleFields.append(field);
    });
    rolesBox.hidden = !t || !t.roles.length;
    describe();
  };

  const describe = () => {
    showError("");
    submit.disabled = !chosen;
    if (!chosen) {
      summary.textContent = "";
      return;
    }
    const doc = chosen.documents[Number(from.value) || 0];
    const to = target.selectedOptions[0];
    const pages = Number(to?.dataset.pages);
    let text = tr("editor.templates.will_place", { tags: count(doc.tags, "tag"), title: to?.textContent.replace(/ \([^()]*\)$/, "") });
    if (pages && pages !== doc.pages) text += ` ${tr("editor.templates.will_not_fit", { theirs: count(doc.pages, "page"), ours: count(pages, "page") })}`;
    summary.textContent = text;
    submit.disabled = !doc.tags;
  };

  on(document, "click", (e) => {
    if (!e.target.closest?.("[data-template-apply]")) return;
    showError("");
    find();
  });
  let timer = 0;
  on(search, "input", () => {
    clearTimeout(timer);
    timer = setTimeout(find, 200);
  });
  on(search, "keydown", (e) => e.key === "Enter" && e.preventDefault());
  on(list, "change", (e) => choose(found.find((t) => t.id === e.target.value) || null));
  on(from, "change", describe);
  on(target, "change", describe);

  on(form, "submit", async (e) => {
    e.preventDefault();
    if (!chosen) return showError(tr("editor.templates.template_required"));
    const roles = {};
    for (const select of roleFields.querySelectorAll("select")) if (select.value) roles[select.dataset.role] = select.value;
    const body = { templateId: chosen.id, templateDocument: Number(from.value) || 0, document: Number(target.value), roles };
    submit.disabled = true;
    try {
      const placed = await net.requestJSON(form.dataset.url, body);
      // The undo step first: its notice is said once the room is back.
      document.dispatchEvent(new CustomEvent(TAGS_PLACED_EVENT, { detail: { tagIds: placed.tagIds, title: `template ‘${chosen.name}’` } }));
      dialog.close();
      await net.reloadRoom(form.dataset.roomUrl);
    } catch (err) {
      showError(err.message);
      submit.disabled = false;
      setStatus(tr("editor.templates.not_applied", { message: err.message }), "error");
    }
  });
}

/** The room's participants as "Apply template…" lists them: [{id, name}] in room order. */
function roomPeople(dialog) {
  const participants = dialog.querySelector("[data-template-participants]");
  return [...participants.content.querySelectorAll("option")].filter((o) => o.value).map((o) => ({ id: o.value, name: o.textContent }));
}

/** Whether an offer was dismissed in this tab (a storage the browser refuses counts as not). */
function dismissed(key) {
  try {
    return sessionStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

function wireOffers(dialog, on, net, setStatus) {
  for (const offer of document.querySelectorAll("[data-template-offer]")) {
    if (dismissed(offer.dataset.dismissKey)) offer.hidden = true;
  }
  on(document, "click", async (e) => {
    const offer = e.target.closest?.("[data-template-offer]");
    if (!offer) return;
    if (e.target.closest("[data-template-offer-dismiss]")) {
      try {
        sessionStorage.setItem(offer.dataset.dismissKey, "1");
      } catch {
        // No storage: hidden until the room is drawn again.
      }
      offer.hidden = true;
      return;
    }
    const button = e.target.closest("[data-template-offer-apply]");
    if (!button || button.disabled) return;
    const { templateId, templateName } = offer.dataset;
    button.disabled = true;
    try {
      // The template's roles, as the dialog's search answers them.
      const { items } = await net.requestJSON(`${offer.dataset.listUrl}?q=${encodeURIComponent(templateName)}`);
      const t = items.find((it) => it.id === templateId);
      if (!t) throw new Error(tr("editor.templates.gone", { name: templateName }));
      const holders = prefillRoles(t.roles, roomPeople(dialog));
      const roles = {};
      t.roles.forEach((role, i) => holders[i] && (roles[role] = holders[i]));
      const body = { templateId, templateDocument: Number(offer.dataset.templateDocument) || 0, document: Number(offer.dataset.offerDocument), roles };
      const placed = await net.requestJSON(offer.dataset.url, body);
      document.dispatchEvent(new CustomEvent(TAGS_PLACED_EVENT, { detail: { tagIds: placed.tagIds, title: `template ‘${t.name}’` } }));
      await net.reloadRoom(offer.dataset.roomUrl);
    } catch (err) {
      button.disabled = false;
      setStatus(tr("editor.templates.not_applied", { message: err.message }), "error");
    }
  });
}
