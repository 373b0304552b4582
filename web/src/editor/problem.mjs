// The one reader of the server's error answers: RFC 9457 problem bodies
// ({type, title, status, detail, errors: [{pointer, code, detail}]}), and
// the one error type every refused or unsent request becomes (SaveError).

import { t } from "./i18n.mjs";

/** A change that the server refused or that never reached it: the server's words, its status (0: not reached) and field errors. */
export class SaveError extends Error {
  constructor(message, status, fields) {
    super(message);
    this.status = status;
    this.fields = fields || [];
  }
}

/** Parses a problem body; null when the text is not one (an HTML error page, nothing at all). */
export function readProblem(text) {
  if (typeof text !== "string") return null;
  try {
    const p = JSON.parse(text);
    return p && typeof p === "object" && !Array.isArray(p) ? p : null;
  } catch {
    return null;
  }
}

/** What a refusal tells the user: the first field's message, else the detail, else the title, else fallback. */
export function problemMessage(p, fallback) {
  return p?.errors?.[0]?.detail || p?.detail || p?.title || fallback;
}

/**
 * The SaveError of an answer with this status (0: the server was not
 * reached) and body text: the server's words from a problem body, else a
 * sentence naming the status and what was not saved (unsaved).
 */
export function refusal(status, text, unsaved = t("editor.error.change_not_saved")) {
  if (!status || status < 0) return new SaveError(t("editor.error.unreachable_unsaved", { unsaved }), 0);
  const p = readProblem(text);
  if (!p) return new SaveError(t("editor.error.server_answered_unsaved", { status: String(status), unsaved }), status);
  return new SaveError(problemMessage(p, t("editor.error.server_answered", { status: String(status) })), status, p.errors);
}
