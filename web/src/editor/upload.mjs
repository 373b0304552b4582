// Uploading PDFs into the room: choose or drop a file; it is checked here
// first (a PDF, not over the limit), then sent by htmx with a progress bar;
// the server's reason is shown when it refuses. The answer is the room,
// which htmx swaps in (main.mjs then starts the editor again).
import { listenUntil } from "./bus.mjs";
import { problemMessage, readProblem } from "./problem.mjs";
import { t } from "./i18n.mjs";

export function createUpload(signal) {
  const on = listenUntil(signal);
  const form = document.querySelector("[data-room-upload]");
  if (!form) return;
  const input = form.querySelector("[data-upload-input]");
  const drop = form.querySelector("[data-upload-drop]");
  const bar = form.querySelector("[data-upload-progress]");
  const error = form.querySelector("[data-upload-error]");
  const max = Number(form.dataset.maxBytes) || Infinity;

  const say = (message) => {
    error.textContent = message || "";
    error.hidden = !message;
  };
  const send = (file) => {
    say("");
    if (!file) return;
    if (!/\.pdf$/i.test(file.name) && file.type !== "application/pdf") {
      say(t("editor.upload.not_pdf", { name: file.name }));
      return;
    }
    if (file.size > max) {
      say(t("editor.upload.too_big", { name: file.name, size: (file.size / 1048576).toFixed(1), limit: String(Math.floor(max / 1048576)) }));
      return;
    }
    if (input.files[0] !== file) {
      const dt = new DataTransfer();
      dt.items.add(file);
      input.files = dt.files;
    }
    bar.value = 0;
    bar.hidden = false;
    form.classList.add("room-upload--busy");
    window.htmx.trigger(form, "submit");
  };

  on(input, "change", () => send(input.files[0]));
  on(form, "submit", (e) => {
    // htmx sends the form; a submit without a file only explains.
    if (!input.files[0]) {
      e.preventDefault();
      say(t("editor.upload.choose_first"));
    }
  });
  for (const type of ["dragenter", "dragover"]) {
    on(drop, type, (e) => {
      if (![...e.dataTransfer.types].includes("Files")) return;
      e.preventDefault();
      drop.classList.add("room-upload__drop--over");
    });
  }
  on(drop, "dragleave", () => drop.classList.remove("room-upload__drop--over"));
  on(drop, "drop", (e) => {
    e.preventDefault();
    drop.classList.remove("room-upload__drop--over");
    send(e.dataTransfer.files[0]);
  });
  on(form, "htmx:xhr:progress", (e) => {
    if (e.detail.lengthComputable) bar.value = Math.round((100 * e.detail.loaded) / e.detail.total);
  });
  on(form, "htmx:afterRequest", (e) => {
    form.classList.remove("room-upload--busy");
    const status = e.detail.xhr?.status || 0;
    if (status >= 200 && status < 300) return;
    bar.hidden = true;
    input.value = "";
    const p = readProblem(e.detail.xhr?.responseText);
    const field = p?.errors?.[0]?.detail;
    // A file over the limit: the detail says so, the field says by how much.
    const message = field && field !== p.detail && p.status === 413 ? `${p.detail} ${field}` : problemMessage(p, t("editor.upload.failed"));
    say(message);
  });
}
