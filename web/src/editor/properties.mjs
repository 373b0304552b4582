// The properties panel of the selected tag: signer, required, date format
// (with a live preview), state format, font size, and the exact rectangle in
// PDF points. A change is checked here first (an invalid value shows a
// message and changes nothing), then saved like any other change.
//
// With several tags selected it edits what they share (signer, required,
// font size, the date format of the date tags) in one step (one request);
// a field whose values differ shows as mixed (data-mixed: an empty field
// with the placeholder "Mixed", a "Mixed" choice, an indeterminate checkbox)
// and is left alone unless changed. Numbers typed here are never snapped.
import { listenUntil } from "./bus.mjs";
import { copy } from "./clipboard.mjs";
import { rectInside } from "./coords.mjs";
import { formatDate } from "./dates.mjs";
import { tagFields } from "./editor.mjs";
import { changeGroup, removeGroup } from "./groups.mjs";
import { reveal } from "./reveal.mjs";
import { t } from "./i18n.mjs";

export function createProperties({ root, editor, viewer, bus, typeInfo, palette = null, signal }) {
  const on = listenUntil(signal);
  if (!root) return null;
  const form = root.querySelector("[data-tag-props-form]");
  const empty = root.querySelector("[data-tag-props-empty]");
  const error = root.querySelector("[data-tag-props-error]");
  const typeLabel = root.querySelector("[data-tag-props-type]");
  const preview = root.querySelector("[data-date-preview]");
  const input = (name) => form.querySelector(`[data-prop="${name}"]`);
  const group = (name) => form.querySelector(`[data-prop-group="${name}"]`);
  let current = null; // the tag element shown
  let several = null; // the tag elements shown when more than one is selected
  const geometry = form.querySelector(".tag-props__geometry");
  const deleteButton = form.querySelector('[data-action="delete"]');
  const deleteLabel = deleteButton?.textContent || "";
  const SHARED = ["signerId", "required", "fontSize", "dateFormat"];
  // The undo label of a change to one shared field of several tags (one literal catalog id each).
  const SHARED_LABELS = { signerId: "editor.undo.change_signer_of_tags", required: "editor.undo.change_required_of_tags", fontSize: "editor.undo.change_font_size_of_tags", dateFormat: "editor.undo.change_date_format_of_tags" };
  const title = root.querySelector("#tag-props-title");
  const titleText = title?.textContent || "";

  /** Shows one shared field of a group: its common value, or mixed. */
  const showShared = (name, values) => {
    const i = input(name);
    const mixed = values.length > 1 && values.some((v) => v !== values[0]);
    const value = mixed ? "" : values[0];
    i.toggleAttribute("data-mixed", mixed);
    i.querySelector("option[data-mixed]")?.remove();
    if (i.type === "checkbox") {
      i.checked = !mixed && !!value;
      i.indeterminate = mixed;
    } else if (i.tagName === "SELECT") {
      if (mixed) {
        const o = new Option(t("editor.props.mixed"), "", true, true);
        o.dataset.mixed = "";
        o.disabled = true;
        i.prepend(o);
      }
      i.value = mixed ? "" : value;
      if (mixed) i.selectedIndex = 0;
    } else {
      i.value = value;
      i.placeholder = mixed ? t("editor.props.mixed") : i.dataset.placeholder ?? i.placeholder;
    }
  };

  /** Fills the panel for several tags. */
  const fillSeveral = (els) => {
    current = null;
    several = els;
    form.hidden = false;
    empty.hidden = true;
    showError("");
    for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
    const fields = els.map((el) => editor.current(el));
    const dated = fields.filter((f) => typeInfo(f.type).date);
    typeLabel.textContent = t("editor.selection.count", { count: els.length });
    if (title) title.textContent = t("editor.props.selected_title");
    showShared("signerId", fields.map((f) => f.signerId || ""));
    showShared("required", fields.map((f) => !!f.required));
    showShared("fontSize", fields.map((f) => String(f.fontSize || "")));
    showShared("dateFormat", dated.length ? dated.map((f) => f.dateFormat || "") : [""]);
    group("dateFormat").hidden = !dated.length;
    group("stateFormat").hidden = true;
    if (geometry) geometry.hidden = true;
    if (deleteButton) deleteButton.textContent = t("editor.props.delete_tags", { count: els.length });
    updatePreview();
  };

  /** Saves one shared field, as changed in the panel, to every selected tag: one request, one step. */
  const saveSeveral = (name) => {
    if (!SHARED.includes(name)) return;
    const i = input(name);
    let value;
    if (name === "required") value = i.checked;
    else if (name === "fontSize") {
      const raw = i.value.trim();
      const n = Number(raw);
      const min = Number(i.min) || 1;
      const max = Number(i.max) || Infinity;
      if (raw !== "" && (!Number.isFinite(n) || n < min || n > max)) {
        i.setAttribute("aria-invalid", "true");
        showError(t("editor.props.font_size_range", { min: String(min), max: String(max) }));
        return;
      }
      value = raw;
    } else value = i.value;
    i.removeAttribute("aria-invalid");
    showError("");
    const entries = several
      .filter((el) => el.isConnected && (name !== "dateFormat" || typeInfo(el.dataset.tagType).date))
      .map((el) => ({ id: el.dataset.tagId, after: { ...editor.current(el), [name]: value } }));
    i.removeAttribute("data-mixed");
    i.indeterminate = false;
    editor.run(changeGroup(editor, entries, { label: t(SHARED_LABELS[name]) }));
  };

  const showError = (message) => {
    error.textContent = message || "";
    error.hidden = !message;
  };

  const fill = (el) => {
    current = el;
    several = null;
    if (title) title.textContent = titleText;
    if (geometry) geometry.hidden = false;
    if (deleteButton) deleteButton.textContent = deleteLabel;
    for (const i of form.querySelectorAll("[data-mixed]")) {
      if (i.tagName === "OPTION") i.remove();
      else i.removeAttribute("data-mixed");
    }
    input("required").indeterminate = false;
    input("fontSize").placeholder = input("fontSize").dataset.placeholder ?? input("fontSize").placeholder;
    form.hidden = !el;
    empty.hidden = !!el;
    showError("");
    for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
    if (!el) return;
    const f = editor.current(el);
    const info = typeInfo(f.type);
    typeLabel.textContent = info.label;
    input("signerId").value = f.signerId;
    input("required").checked = !!f.required;
    input("dateFormat").value = f.dateFormat || "";
    input("stateFormat").value = f.stateFormat || "";
    input("fontSize").value = f.fontSize || "";
    for (const k of ["x", "y", "width", "height"]) input(k).value = String(f[k]);
    group("dateFormat").hidden = !info.date;
    group("stateFormat").hidden = !info.state;
    updatePreview();
  };

  const updatePreview = () => {
    const fmt = input("dateFormat").value || "MM/DD/YYYY";
    preview.textContent = formatDate(new Date(), fmt);
  };

  /** Reads the panel into tag fields, or reports the first invalid value. */
  const read = () => {
    const f = { ...editor.current(current) };
    const page = viewer.pageOf(current);
    f.signerId = input("signerId").value;
    f.required = input("required").checked;
    f.dateFormat = group("dateFormat").hidden ? "" : input("dateFormat").value;
    f.stateFormat = group("stateFormat").hidden ? "" : input("stateFormat").value.trim();
    const fontSize = input("fontSize").value.trim();
    if (fontSize !== "") {
      const n = Number(fontSize);
      // The server's limits, as the field states them (templates.InputLimits).
      const min = Number(input("fontSize").min) || 1;
      const max = Number(input("fontSize").max) || Infinity;
      if (!Number.isFinite(n) || n < min || n > max) return { bad: "fontSize", message: t("editor.props.font_size_range", { min: String(min), max: String(max) }) };
      f.fontSize = fontSize;
    } else {
      f.fontSize = "";
    }
    const labels = { x: t("editor.props.x"), y: t("editor.props.y"), width: t("editor.props.width"), height: t("editor.props.height") };
    for (const k of ["x", "y", "width", "height"]) {
      const raw = input(k).value.trim();
      const n = Number(raw);
      if (raw === "" || !Number.isFinite(n)) return { bad: k, message: t("editor.props.not_a_number", { name: labels[k] }) };
      if ((k === "width" || k === "height") && n <= 0) return { bad: k, message: t("editor.props.not_positive", { name: labels[k] }) };
      f[k] = Math.round(n * 100) / 100;
    }
    if (!rectInside(page.box, f)) {
      const b = page.box;
      return { bad: "x", message: t("editor.props.outside_page", { llx: String(b.llx), urx: String(b.urx), lly: String(b.lly), ury: String(b.ury) }) };
    }
    return { fields: f };
  };

  const save = () => {
    if (!current || !current.isConnected) return;
    for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
    const r = read();
    if (r.bad) {
      input(r.bad).setAttribute("aria-invalid", "true");
      showError(r.message);
      return;
    }
    showError("");
    editor.run(editor.change(current.dataset.tagId, r.fields));
  };

  input("fontSize").dataset.placeholder = input("fontSize").placeholder;
  on(form, "change", (e) => {
    if (e.target === input("dateFormat")) updatePreview();
    if (several) saveSeveral(e.target.dataset.prop);
    else save();
  });
  on(form, "submit", (e) => {
    e.preventDefault();
    if (several) saveSeveral(document.activeElement?.dataset?.prop);
    else save();
  });
  on(form, "click", (e) => {
    const action = e.target.closest("[data-action]")?.dataset.action;
    if (action === "delete" && several) editor.run(removeGroup(editor, several.map((el) => el.dataset.tagId)));
    else if (action === "delete" && current) editor.run(editor.remove(current.dataset.tagId));
    if (action === "copy") copy(editor);
  });

  bus.on("select", ({ el, els = el ? [el] : [] }) => {
    if (els.length > 1) {
      // Keep what the user is changing while the group's tags are re-rendered.
      if (several && form.contains(document.activeElement) && els.length === several.length && els.every((x, i) => x.dataset.tagId === several[i].dataset.tagId)) {
        several = els;
        return;
      }
      fillSeveral(els);
      return;
    }
    // Keep what the user is typing when the selected tag is merely re-rendered.
    if (el && current && el.dataset.tagId === current.dataset.tagId && form.contains(document.activeElement)) {
      current = el;
      return;
    }
    fill(el);
    // Bring the panel into view in its column when a tag is picked on the page: that column
    // alone, below the signer picker stuck atop it (which stays in view), and never so far
    // that the palette's item last used leaves the view (the next tag of that type is one
    // click away: issue 40).
    if (el && !root.contains(document.activeElement)) reveal(root, { keep: palette?.used });
  });
  bus.on("error", ({ message }) => {
    if (current) showError(message);
  });
  return { fill, tagFields };
}
