// The batch client: many tag changes in one request, written by the server
// in one database transaction with one history entry, all or nothing
// (POST /rooms/{id}/tags/batch). A multi-selection's move, delete, paste,
// align and copy to pages each go out as one batch, so one undo step is one
// request and a refusal leaves every tag as it was on the server.
//
// The answer (200, text/html) is the server's rendering of every created tag
// in request order, then of every updated tag in request order — the same
// element the one-tag routes answer with; deleted tags have none. A refusal
// is a problem body (400/404/422 with errors pointing into the request, e.g.
// "#/update/2/id"; 403 a stale CSRF token; 409 a completed room).
import { problemMessage, readProblem } from "./problem.mjs";
import { SaveError } from "./server.mjs";

/** The batch route of a room, from the one-tag route (the editor root's data-tag-url, "/rooms/{id}/tags"). */
export function batchURL(tagURL) {
  return String(tagURL).replace(/\/+$/, "") + "/batch";
}

/** The room's CSRF token, as the one-tag requests send it (the page's csrf-token meta element). */
export function pageCSRFToken() {
  return globalThis.document?.querySelector('meta[name="csrf-token"]')?.content || "";
}

const NUMBER_FIELDS = ["page", "x", "y", "width", "height"];

/**
 * The JSON body of a batch. changes: {create, update, delete}, each optional.
 * A create is {documentPosition, type, signerId, page, x, y, width, height,
 * required, dateFormat, stateFormat, fontSize} (the fields the editor keeps
 * for a tag, as server.mjs fieldsToForm takes them), and the key of the
 * suggested field it accepts, if any (suggestion); an update is the same
 * with id and without documentPosition; a delete is a tag id (or {id}).
 * Numbers go out as JSON numbers, required as a boolean, an empty signerId as
 * "" (unassigned); empty dateFormat, stateFormat and fontSize are left out.
 * Throws a TypeError for a change the server could only refuse (a number
 * field that is not a finite number, an update or delete without an id).
 */
export function batchBody(changes) {
  const c = changes || {};
  const body = {
    create: (c.create || []).map((t, i) => ({
      documentPosition: integer(t.documentPosition, `create[${i}].documentPosition`),
      ...tagFields(t, `create[${i}]`),
      ...(t.suggestion ? { suggestion: String(t.suggestion) } : {}),
    })),
    update: (c.update || []).map((t, i) => ({ id: tagId(t.id, `update[${i}].id`), ...tagFields(t, `update[${i}]`) })),
    delete: (c.delete || []).map((d, i) => tagId(typeof d === "object" && d !== null ? d.id : d, `delete[${i}]`)),
  };
  return JSON.stringify(body);
}

function tagFields(t, where) {
  const out = { type: String(t.type || ""), signerId: t.signerId ? String(t.signerId) : "" };
  for (const name of NUMBER_FIELDS) out[name] = number(t[name], `${where}.${name}`);
  out.required = t.required === true || t.required === "true";
  if (t.dateFormat) out.dateFormat = String(t.dateFormat);
  if (t.stateFormat) out.stateFormat = String(t.stateFormat);
  if (t.fontSize != null && t.fontSize !== "") out.fontSize = number(t.fontSize, `${where}.fontSize`);
  return out;
}

function number(v, where) {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) throw new TypeError(`${where} must be a finite number, got ${JSON.stringify(v)}`);
  return n;
}

function integer(v, where) {
  const n = number(v, where);
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`${where} must be a document position (0, 1, …), got ${JSON.stringify(v)}`);
  return n;
}

function tagId(v, where) {
  if (typeof v !== "string" || v === "") throw new TypeError(`${where} must be a tag id, got ${JSON.stringify(v)}`);
  return v;
}

/** The SaveError of a refused batch: the server's words from its problem body, its status and field errors. */
export function batchError(status, text) {
  const p = readProblem(text);
  if (!p) return new SaveError(`The server answered ${status}; none of the changes was saved.`, status);
  return new SaveError(problemMessage(p, `The server answered ${status}.`), status, p.errors);
}

/** The tag elements of an answer, in order (parsed with a <template>, so nothing runs or loads). */
export function parseTags(html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html || "";
  return Array.from(tpl.content.children).filter((el) => el.classList.contains("tag"));
}

/**
 * Sends one batch. Resolves to {created, updated}: the server's tag
 * elements (not yet in the page), created in the order of changes.create,
 * updated in the order of changes.update. Rejects with a SaveError (status
 * 0 when the server could not be reached, else the answer's status and the
 * problem's field errors); an aborted request (signal) rejects with the
 * fetch's AbortError. csrfToken empty or null: the page's token.
 */
export async function sendBatch(url, csrfToken, changes, { signal } = {}) {
  const body = batchBody(changes);
  let res;
  try {
    res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "text/html", "X-CSRF-Token": csrfToken || pageCSRFToken() },
      body,
      signal,
    });
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    throw new SaveError("The server could not be reached. Check your connection; none of the changes was saved.", 0);
  }
  const text = await res.text();
  if (!res.ok) throw batchError(res.status, text);
  const tags = parseTags(text);
  const nCreate = (changes?.create || []).length;
  const nUpdate = (changes?.update || []).length;
  if (tags.length !== nCreate + nUpdate) {
    throw new SaveError(`The server answered ${tags.length} tags for ${nCreate + nUpdate} changes; reload the page to see what was saved.`, res.status);
  }
  return { created: tags.slice(0, nCreate), updated: tags.slice(nCreate) };
}
