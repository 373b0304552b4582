// The properties panel of the selected tag: signer, required, date format
// (with a live preview), state format, font size, and the exact rectangle in
// PDF points. A change is checked here first (an invalid value shows a
// message and changes nothing), then saved like any other change.
import { listenUntil } from "./bus.mjs";
import { rectInside } from "./coords.mjs";
import { formatDate } from "./dates.mjs";
import { tagFields } from "./editor.mjs";

export function createProperties({ root, editor, viewer, bus, typeInfo, signal }) {
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

  const showError = (message) => {
    error.textContent = message || "";
    error.hidden = !message;
  };

  const fill = (el) => {
    current = el;
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
      if (!Number.isFinite(n) || n < min || n > max) return { bad: "fontSize", message: `Font size must be a number from ${min} to ${max}.` };
      f.fontSize = fontSize;
    } else {
      f.fontSize = "";
    }
    const labels = { x: "X", y: "Y", width: "Width", height: "Height" };
    for (const k of ["x", "y", "width", "height"]) {
      const raw = input(k).value.trim();
      const n = Number(raw);
      if (raw === "" || !Number.isFinite(n)) return { bad: k, message: `${labels[k]} must be a number (PDF points).` };
      if ((k === "width" || k === "height") && n <= 0) return { bad: k, message: `${labels[k]} must be greater than 0.` };
      f[k] = Math.round(n * 100) / 100;
    }
    if (!rectInside(page.box, f)) {
      const b = page.box;
      return { bad: "x", message: `The tag must lie inside the page: x from ${b.llx} to ${b.urx}, y from ${b.lly} to ${b.ury} (x + width ≤ ${b.urx}, y + height ≤ ${b.ury}).` };
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

  on(form, "change", (e) => {
    if (e.target === input("dateFormat")) updatePreview();
    save();
  });
  on(form, "submit", (e) => {
    e.preventDefault();
    save();
  });
  on(form, "click", (e) => {
    const action = e.target.closest("[data-action]")?.dataset.action;
    if (action === "delete" && current) editor.run(editor.remove(current.dataset.tagId));
    if (action === "copy") editor.copy();
  });

  bus.on("select", ({ el }) => {
    // Keep what the user is typing when the selected tag is merely re-rendered.
    if (el && current && el.dataset.tagId === current.dataset.tagId && form.contains(document.activeElement)) {
      current = el;
      return;
    }
    fill(el);
    // Bring the panel into view in its column when a tag is picked on the page.
    if (el && !root.contains(document.activeElement)) root.scrollIntoView({ block: "nearest" });
  });
  bus.on("error", ({ message }) => {
    if (current) showError(message);
  });
  return { fill, tagFields };
}
