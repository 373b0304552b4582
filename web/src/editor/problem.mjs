// The one reader of the server's error answers: RFC 9457 problem bodies
// ({type, title, status, detail, errors: [{pointer, code, detail}]}).

/** Parses a problem body; null when the text is not one (an HTML error page, nothing at all). */
export function readProblem(text) {
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
