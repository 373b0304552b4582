// The one place that talks to the server. Every tag change is one htmx
// request whose answer — the server's rendering of the tag — is swapped in
// place of the editor's guess; the server stays the source of truth. Changes
// of one tag are sent one after another, never two at once.
import { sendBatch } from "./batch.mjs";
import { problemMessage, readProblem } from "./problem.mjs";

/** A save that the server refused or that never reached it. */
export class SaveError extends Error {
  constructor(message, status, fields) {
    super(message);
    this.status = status;
    this.fields = fields || [];
  }
}

const outcome = new WeakMap(); // source element → {status, body}

/** Records how each tag request ended; installed once for every editor the page starts. */
export function installServerEvents() {
  const record = (e) => {
    const o = outcome.get(e.detail.elt);
    if (!o) return;
    const xhr = e.detail.xhr;
    o.status = xhr ? xhr.status : 0;
    o.body = xhr ? xhr.responseText : "";
    if (o.status >= 400 || o.status === 0) e.detail.shouldSwap = false;
  };
  document.addEventListener("htmx:beforeSwap", record);
  document.addEventListener("htmx:responseError", (e) => {
    const o = outcome.get(e.detail.elt);
    if (o && o.status <= 0) record(e);
  });
  document.addEventListener("htmx:sendError", (e) => {
    const o = outcome.get(e.detail.elt);
    if (o) o.status = 0;
  });
}

export function createServer(tagURL, bus) {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
  const chains = new Map(); // tag key → promise of the last request
  let inFlight = 0;

  /** Sends one request from source (swapped with the answer unless swap is "none"). */
  async function send(verb, url, source, values, swap) {
    const o = { status: -1, body: "" };
    outcome.set(source, o);
    inFlight++;
    bus.emit("saving", { inFlight });
    const started = performance.now();
    try {
      await window.htmx.ajax(verb, url, {
        source,
        target: source,
        swap,
        values,
        headers: { "X-CSRF-Token": csrf, Accept: "text/html" },
      });
    } catch {
      o.status = 0;
    } finally {
      inFlight--;
    }
    const ms = performance.now() - started;
    if (o.status >= 200 && o.status < 300) {
      bus.emit("saved", { inFlight, ms });
      return o.body;
    }
    const err = problemOf(o);
    bus.emit("save-failed", { inFlight, error: err });
    throw err;
  }

  /** Runs fn after the previous request about the same tag. */
  function chain(key, fn) {
    const prev = chains.get(key) || Promise.resolve();
    const next = prev.catch(() => {}).then(fn);
    chains.set(key, next);
    next.finally(() => chains.get(key) === next && chains.delete(key)).catch(() => {});
    return next;
  }

  return {
    /** Creates a tag from a placeholder element already on its page; resolves with the server's element. */
    create(placeholder, docPosition, fields) {
      return chain(placeholder, async () => {
        const body = await send("POST", tagURL, placeholder, { documentPosition: String(docPosition), ...fieldsToForm(fields) }, "outerHTML");
        return findTag(idIn(body));
      });
    },
    /** Saves every field of a tag; resolves with the server's element. */
    update(tagId, fields) {
      return chain(tagId, async () => {
        const el = findTag(tagId);
        if (!el) throw new SaveError("This tag no longer exists; it was removed in another window.", 404);
        await send("PUT", `${tagURL}/${encodeURIComponent(tagId)}`, el, fieldsToForm(fields), "outerHTML");
        return findTag(tagId);
      });
    },
    /** Removes a tag. */
    remove(tagId) {
      return chain(tagId, async () => {
        const el = findTag(tagId);
        if (!el) return;
        await send("DELETE", `${tagURL}/${encodeURIComponent(tagId)}`, el, {}, "delete");
      });
    },
    /**
     * Sends a group's changes ({create, update, delete}) as one request
     * (batch.mjs), after the requests under way about the same tags; resolves
     * with the server's {created, updated} elements (not yet in the page).
     */
    async batch(changes) {
      const ids = [...(changes.update || []).map((u) => u.id), ...(changes.delete || [])];
      const prev = Promise.allSettled(ids.map((id) => chains.get(id) || Promise.resolve()));
      const run = prev.then(async () => {
        inFlight++;
        bus.emit("saving", { inFlight });
        const started = performance.now();
        try {
          const out = await sendBatch(`${tagURL}/batch`, csrf, changes);
          inFlight--;
          bus.emit("saved", { inFlight, ms: performance.now() - started });
          return out;
        } catch (err) {
          inFlight--;
          bus.emit("save-failed", { inFlight, error: err });
          throw err;
        }
      });
      for (const id of ids) chain(id, () => run.catch(() => {}));
      return run;
    },
    get busy() {
      return inFlight > 0;
    },
  };
}

const roomChangeSources = new WeakSet(); // elements that sent a room change of an undo or redo

/** Whether el sent a room change of an undo or redo (its page-edit event is not a new step). */
export function isUndoRoomChange(el) {
  return roomChangeSources.has(el);
}

/**
 * Sends a room change (an undo or redo of a page edit) whose answer is the
 * room, swapped in as a page edit's is; resolves with the detail of the
 * event the answer fires (eventName, from HX-Trigger), throws a SaveError
 * with the server's words when it is refused.
 */
export async function sendRoomChange(url, values, eventName) {
  const source = document.querySelector(".room") || document.body;
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
  const o = { status: -1, body: "", detail: null };
  outcome.set(source, o);
  roomChangeSources.add(source);
  const onEvent = (e) => {
    if (e.target === source) o.detail = e.detail;
  };
  document.addEventListener(eventName, onEvent);
  try {
    await window.htmx.ajax("POST", url, { source, values, target: ".room", select: ".room", swap: "outerHTML", headers: { "X-CSRF-Token": csrf } });
  } catch {
    o.status = 0;
  } finally {
    document.removeEventListener(eventName, onEvent);
    roomChangeSources.delete(source);
  }
  if (o.status >= 200 && o.status < 300) return o.detail;
  throw problemOf(o);
}

/** The tag element with this id. */
export function findTag(id) {
  return id ? document.querySelector(`.tag[data-tag-id="${CSS.escape(id)}"]`) : null;
}

function idIn(html) {
  const m = /data-tag-id="([^"]+)"/.exec(html || "");
  return m ? m[1] : "";
}

/** The form fields of a tag save (the names of the OpenAPI Tag schema; optional ones empty when absent). */
export function fieldsToForm(f) {
  return {
    type: f.type,
    signerId: f.signerId || "",
    page: String(f.page),
    x: String(f.x),
    y: String(f.y),
    width: String(f.width),
    height: String(f.height),
    required: f.required ? "true" : "false",
    dateFormat: f.dateFormat || "",
    stateFormat: f.stateFormat || "",
    fontSize: f.fontSize == null || f.fontSize === "" ? "" : String(f.fontSize),
  };
}

function problemOf(o) {
  if (o.status === 0 || o.status === -1) return new SaveError("The server could not be reached. Check your connection; the change was not saved.", 0);
  const p = readProblem(o.body);
  if (!p) return new SaveError(`The server answered ${o.status}; the change was not saved.`, o.status);
  return new SaveError(problemMessage(p, `The server answered ${o.status}.`), o.status, p.errors);
}

/**
 * Asks a room route for JSON (the template dialogs, templates.mjs): GET url
 * when body is undefined, else POST body as JSON with the room's CSRF token.
 * Resolves with the answer's JSON; throws a SaveError with the server's
 * words when it is refused or never arrives.
 */
export async function requestJSON(url, body) {
  const headers = { Accept: "application/json" };
  const init = { headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = document.querySelector('meta[name="csrf-token"]')?.content || "";
    Object.assign(init, { method: "POST", body: JSON.stringify(body) });
  }
  const o = { status: 0, body: "" };
  try {
    const res = await fetch(url, init);
    o.status = res.status;
    o.body = await res.text();
  } catch {
    o.status = 0;
  }
  if (o.status < 200 || o.status >= 300) throw problemOf(o);
  return JSON.parse(o.body);
}

/** Fetches the room again and swaps it in as a room change's answer is (main.mjs then starts the editor again). */
export async function reloadRoom(url) {
  const source = document.querySelector(".room") || document.body;
  await window.htmx.ajax("GET", url, { source, target: ".room", select: ".room", swap: "outerHTML" });
}
