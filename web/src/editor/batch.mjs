// The batch format: many tag changes in one request, written by the server
// in one database transaction with one history entry, all or nothing
// (POST to the viewer's data-tag-batch-url, /rooms/{id}/tags/batch). A multi-selection's move, delete, paste,
// align and copy to pages each go out as one batch, so one undo step is one
// request and a refusal leaves every tag as it was on the server.
//
// The answer (200, text/html) is the server's rendering of every created tag
// in request order, then of every updated tag in request order — the same
// element the one-tag routes answer with; deleted tags have none. A refusal
// is a problem body (400/404/422 with errors pointing into the request, e.g.
// "#/update/2/id"; 403 a stale CSRF token; 409 a completed room).
//
// This module builds the body and reads the answer; server.mjs sends it.
import { refusal, SaveError } from "./problem.mjs";
import { t as tr } from "./i18n.mjs";

const NUMBER_FIELDS = ["page", "x", "y", "width", "height"];

/**
 * The JSON body of a batch. changes: {create, update, delete}, each optional.
 * A create is {documentPosition, type, signerId, page, x, y, width, height,
 * required, dateFormat, stateFormat, fontSize} (the fields the editor keeps
 * for a tag, as server.mjs fieldsToForm takes them), and the key of the
 * suggested field it accepts, if any (suggestion); an update is the same
 * with id and without documentPosition; a delete is a tag id (or {id}).
 * version(id), when given, is the version of each updated or deleted tag
 * the change was made against (undefined: not checked).
 * Numbers go out as JSON numbers, required as a boolean, an empty signerId as
 * "" (unassigned); empty dateFormat, stateFormat and fontSize are left out.
 * Throws a TypeError for a change the server could only refuse (a number
 * field that is not a finite number, an update or delete without an id).
 */
export function batchBody(changes, version = () => undefined) {
  const c = changes || {};
  const body = {
    create: (c.create || []).map((t, i) => ({
      documentPosition: integer(t.documentPosition, `create[${i}].documentPosition`),
      ...tagFields(t, `create[${i}]`),
      ...(t.suggestion ? { suggestion: String(t.suggestion) } : {}),
    })),
    update: (c.update || []).map((t, i) => ({ id: tagId(t.id, `update[${i}].id`), ...tagFields(t, `update[${i}]`), ...versioned(version(t.id)) })),
    delete: (c.delete || []).map((d, i) => {
      const id = tagId(typeof d === "object" && d !== null ? d.id : d, `delete[${i}]`);
      const v = version(id);
      return v ? { id, version: Number(v) } : id;
    }),
  };
  return JSON.stringify(body);
}

/** {version} of a tag's version given as text or a number, {} when there is none. */
function versioned(v) {
  return v ? { version: Number(v) } : {};
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
  return refusal(status, text, tr("editor.error.none_saved"));
}

/** The tag elements of an answer, in order (parsed with a <template>, so nothing runs or loads). */
export function parseTags(html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html || "";
  return Array.from(tpl.content.children).filter((el) => el.classList.contains("tag"));
}

/**
 * The server's tag elements of a batch's answer: {created, updated}, in the
 * order of changes.create and changes.update. Throws a SaveError when the
 * answer does not hold one element per change.
 */
export function batchAnswer(html, changes, status) {
  const tags = parseTags(html);
  const nCreate = (changes?.create || []).length;
  const nUpdate = (changes?.update || []).length;
  if (tags.length !== nCreate + nUpdate) {
    throw new SaveError(tr("editor.error.answer_count_mismatch", { tags: String(tags.length), changes: String(nCreate + nUpdate) }), status);
  }
  return { created: tags.slice(0, nCreate), updated: tags.slice(nCreate) };
}
