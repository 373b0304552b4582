// The one place that talks to the server: every request the editor sends
// goes out here, the room's CSRF token is read here (once, by connect), an
// embedded room's session (roomSessionHeaders) goes with every request, and
// every refusal becomes one SaveError with the server's words (problem.mjs);
// the room's event stream is opened here too (live.mjs follows it).
// No URL is composed here or anywhere in the editor: each comes from the
// markup the server rendered (data-tag-url, data-tag-batch-url and each
// tag's data-save-url on the viewer; data-restore-url, data-remove-url,
// data-move-url, data-delete-url on documents, pages and participants; a
// removal's restoreUrl in its HX-Trigger; data-suggestions-url).
//
// Every tag change is one htmx request whose answer — the server's
// rendering of the tag — is swapped in place of the editor's guess; the
// server stays the source of truth. Each change names the version of the
// tag it was made against (data-tag-version): one made against a tag
// another window changed is refused 409 tag_changed (docs/live.md). Changes of one tag are sent one after
// another, never two at once. A group's changes go as one batch (batch.mjs
// builds its body and reads its answer).
import { batchAnswer, batchBody, batchError } from "./batch.mjs";
import { findTag } from "./dom.mjs";
import { refusal, SaveError } from "./problem.mjs";
import { t } from "./i18n.mjs";

/** The room's CSRF token: the page's csrf-token meta element ("" when there is none). */
export function pageCSRFToken(doc = globalThis.document) {
  return doc?.querySelector('meta[name="csrf-token"]')?.content || "";
}

/**
 * The headers an embedded room's page sends its session and its chosen
 * language in (the page's room-session and markup-lang meta elements;
 * docs/decisions.md, "Embedded rooms", docs/i18n.md): {} on every other
 * page, whose session and language are cookies.
 */
export function roomSessionHeaders(doc = globalThis.document) {
  const s = doc?.querySelector?.('meta[name="room-session"]')?.content || "";
  const lang = doc?.querySelector?.('meta[name="markup-lang"]')?.content || "";
  return { ...(s ? { "X-Room-Session": s } : {}), ...(lang ? { "X-Markup-Lang": lang } : {}) };
}

/**
 * Sends one batch (POST, JSON) to url, each update and delete naming the
 * version of its tag (version(id), read as it goes out: a stale one is
 * refused 409 tag_changed). Resolves to {created, updated}: the
 * server's tag elements (not yet in the page), created in the order of
 * changes.create, updated in the order of changes.update. Rejects with a
 * SaveError (status 0 when the server could not be reached, else the
 * answer's status and the problem's field errors); an aborted request
 * (signal) rejects with the fetch's AbortError. csrfToken empty or null:
 * the page's token.
 */
export async function sendBatch(url, csrfToken, changes, { signal, version, headers = roomSessionHeaders() } = {}) {
  const body = batchBody(changes, version);
  let res;
  try {
    res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "text/html", "X-CSRF-Token": csrfToken || pageCSRFToken(), ...headers },
      body,
      signal,
    });
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    throw batchError(0, "");
  }
  const text = await res.text();
  if (!res.ok) throw batchError(res.status, text);
  return batchAnswer(text, changes, res.status);
}

/**
 * Posts body as JSON to url (a room change answered with no content, such
 * as a suggestion's dismissal). Rejects with a SaveError carrying the
 * server's words when it is refused, status 0 when it could not be sent.
 */
export async function sendJSON(url, csrfToken, body, { signal, headers = roomSessionHeaders() } = {}) {
  let res;
  try {
    res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken, Accept: "application/problem+json", ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    throw refusal(0, "");
  }
  if (!res.ok) throw refusal(res.status, await res.text());
}

/** The header that names the page a room change came from (the server's roomClientHeader). */
const CLIENT_HEADER = "X-Room-Client";

/** A new page id: 32 hexadecimal digits (the server takes 1 to 32 letters, digits and dashes). */
function newClientID() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The connection of this page to the server, made once when the editor
 * boots (main.mjs): reads the CSRF token and listens to htmx's events for
 * the outcome of the requests it sends. doc: the page's document.
 */
export function connect(doc = globalThis.document) {
  const csrf = pageCSRFToken(doc);
  // This page's id, sent with every request (X-Room-Client): the room's events name it, so the page skips its own (live.mjs).
  const client = newClientID();
  const carried = { ...roomSessionHeaders(doc), [CLIENT_HEADER]: client };
  doc.addEventListener("htmx:configRequest", (e) => {
    e.detail.headers[CLIENT_HEADER] = client; // the markup's own htmx requests (hx-post buttons, forms)
  });
  const outcome = new WeakMap(); // source element → {status, body, detail}
  const roomChangeSources = new WeakSet(); // elements that sent a room change of an undo or redo

  const record = (e) => {
    const o = outcome.get(e.detail.elt);
    if (!o) return;
    const xhr = e.detail.xhr;
    o.status = xhr ? xhr.status : 0;
    o.body = xhr ? xhr.responseText : "";
    if (o.status >= 400 || o.status === 0) e.detail.shouldSwap = false;
  };
  doc.addEventListener("htmx:beforeSwap", record);
  doc.addEventListener("htmx:responseError", (e) => {
    const o = outcome.get(e.detail.elt);
    if (o && o.status <= 0) record(e);
  });
  doc.addEventListener("htmx:sendError", (e) => {
    const o = outcome.get(e.detail.elt);
    if (o) o.status = 0;
  });

  /** Sends one htmx request from source; resolves with {status, body, detail} once it is answered (or not). */
  async function ajax(verb, url, source, options, eventName) {
    const o = { status: -1, body: "", detail: null };
    outcome.set(source, o);
    const onEvent = (e) => {
      if (e.target === source) o.detail = e.detail;
    };
    if (eventName) doc.addEventListener(eventName, onEvent);
    try {
      await window.htmx.ajax(verb, url, { source, ...options, headers: { "X-CSRF-Token": csrf, ...carried, ...options.headers } });
    } catch {
      o.status = 0;
    } finally {
      if (eventName) doc.removeEventListener(eventName, onEvent);
    }
    return o;
  }

  const ok = (o) => o.status >= 200 && o.status < 300;

  return {
    /** This page's id, which the room's events carry for the changes it sent (live.mjs). */
    client,

    /** Whether this browser can follow a room's events (EventSource). */
    canStream: typeof EventSource !== "undefined",

    /** Sends this page's selection (tag ids) to the room's presence at url (presence.mjs); rejects with a SaveError. */
    sendPresence(url, ids) {
      return sendJSON(url, csrf, { selected: ids }, { headers: carried });
    },

    /** Opens the room's event stream at url (the .room's data-events-url): an EventSource. */
    stream(url) {
      return new EventSource(url);
    },

    /**
     * The tag requests of one start of the editor: urls.tagURL receives new
     * tags, urls.batchURL groups, each tag's data-save-url its changes and
     * its removal. bus hears "saving" {inFlight} and "saved" {inFlight, ms};
     * a refusal rejects the request's promise (the caller puts the tag back
     * and says why).
     */
    tags(urls, bus) {
      return createTagRequests(urls, bus, { csrf, carried }, ajax, ok);
    },

    /**
     * Sends a room change (an undo or redo of a page edit or a removal)
     * whose answer is the room, swapped in as a page edit's is; resolves
     * with the detail of the event the answer fires (eventName, from
     * HX-Trigger), throws a SaveError with the server's words when it is refused.
     */
    async roomChange(url, values, eventName) {
      if (!url) throw new SaveError(t("editor.error.cannot_send"), 0);
      const source = doc.querySelector(".room") || doc.body;
      roomChangeSources.add(source);
      try {
        const o = await ajax("POST", url, source, { values, target: ".room", select: ".room", swap: "outerHTML" }, eventName);
        if (ok(o)) return o.detail;
        throw refusal(o.status, o.body);
      } finally {
        roomChangeSources.delete(source);
      }
    },

    /** Whether el sent a room change of an undo or redo (its event is not a new step). */
    isUndoRoomChange(el) {
      return roomChangeSources.has(el);
    },

    /**
     * Sends a move of a page or a participant dragged in the sidebar (source,
     * its data-move-url): the answer is the room, which htmx swaps in; a
     * refusal is shown by main.mjs's htmx:afterRequest listener, as for the
     * sidebar's buttons.
     */
    moveInRoom(source, url, values) {
      return ajax("POST", url, source, { values, target: ".room", select: ".room", swap: "outerHTML" });
    },

    /** Posts a decision about suggested fields (JSON) to url; rejects with a SaveError carrying the server's words. */
    decideSuggestions(url, body) {
      return sendJSON(url, csrf, body, { headers: carried });
    },

    /**
     * Asks a room route for JSON (the template dialogs, templates.mjs): GET
     * url when body is undefined, else POST body as JSON. Resolves with the
     * answer's JSON; rejects with a SaveError carrying the server's words.
     */
    async requestJSON(url, body) {
      const headers = { Accept: "application/json", ...carried };
      const init = { headers, credentials: "same-origin" };
      if (body !== undefined) {
        Object.assign(headers, { "Content-Type": "application/json", "X-CSRF-Token": csrf });
        Object.assign(init, { method: "POST", body: JSON.stringify(body) });
      }
      let res;
      try {
        res = await fetch(url, init);
      } catch {
        throw refusal(0, "");
      }
      const text = await res.text();
      if (!res.ok) throw refusal(res.status, text);
      return JSON.parse(text);
    },

    /** Fetches a part of the room from url into the element target (a selector) names, its content replaced. */
    reloadPart(url, target) {
      return ajax("GET", url, doc.querySelector(target) || doc.body, { target, swap: "innerHTML" });
    },

    /** Fetches the room again from url and swaps it in as a room change's answer is (main.mjs then starts the editor again). */
    reloadRoom(url) {
      const source = doc.querySelector(".room") || doc.body;
      return ajax("GET", url, source, { target: ".room", select: ".room", swap: "outerHTML" });
    },
  };
}

/** The one-tag and batch requests of one start (connect's tags). */
function createTagRequests({ tagURL, batchURL }, bus, { csrf, carried }, ajax, ok) {
  const chains = new Map(); // tag key → promise of the last request
  let inFlight = 0;

  /** Sends one request from source (swapped with the answer unless swap is "none"). */
  async function send(verb, url, source, values, swap) {
    inFlight++;
    bus.emit("saving", { inFlight });
    const started = performance.now();
    let o;
    try {
      o = await ajax(verb, url, source, { target: source, swap, values, headers: { Accept: "text/html" } });
    } finally {
      inFlight--;
    }
    if (ok(o)) {
      bus.emit("saved", { inFlight, ms: performance.now() - started });
      return o.body;
    }
    throw refusal(o.status, o.body);
  }

  /** Runs fn after the previous request about the same tag. */
  function chain(key, fn) {
    const prev = chains.get(key) || Promise.resolve();
    const next = prev.catch(() => {}).then(fn);
    chains.set(key, next);
    next.finally(() => chains.get(key) === next && chains.delete(key)).catch(() => {});
    return next;
  }

  /** The tag element with this id and the URL it is saved at; throws a 404 SaveError when it is gone. */
  function saved(tagId) {
    const el = findTag(tagId);
    if (!el) throw new SaveError(t("editor.error.tag_gone"), 404);
    if (!el.dataset.saveUrl) throw new SaveError(t("editor.error.tag_unsavable"), 0);
    return el;
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
        const el = saved(tagId);
        await send("PUT", el.dataset.saveUrl, el, { ...fieldsToForm(fields), version: el.dataset.tagVersion }, "outerHTML");
        return findTag(tagId);
      });
    },
    /** Removes a tag. */
    remove(tagId) {
      return chain(tagId, async () => {
        if (!findTag(tagId)) return;
        const el = saved(tagId);
        await send("DELETE", el.dataset.saveUrl, el, { version: el.dataset.tagVersion }, "delete");
      });
    },
    /**
     * Sends a group's changes ({create, update, delete}) as one request,
     * after the requests under way about the same tags; resolves with the
     * server's {created, updated} elements (not yet in the page).
     */
    async batch(changes) {
      const ids = [...(changes.update || []).map((u) => u.id), ...(changes.delete || [])];
      const prev = Promise.allSettled(ids.map((id) => chains.get(id) || Promise.resolve()));
      const run = prev.then(async () => {
        inFlight++;
        bus.emit("saving", { inFlight });
        const started = performance.now();
        let out;
        try {
          out = await sendBatch(batchURL, csrf, changes, { version: (id) => findTag(id)?.dataset.tagVersion, headers: carried });
        } finally {
          inFlight--;
        }
        bus.emit("saved", { inFlight, ms: performance.now() - started });
        return out;
      });
      for (const id of ids) chain(id, () => run.catch(() => {}));
      return run;
    },
    get busy() {
      return inFlight > 0;
    },
  };
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
