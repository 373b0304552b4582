// Small DOM helpers shared by the editor's modules: building the panels the
// editor makes itself (the field list, the suggested fields) and finding a
// tag by its id.

/** A new element: its tag name, class and, when given, its text. */
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

/** The tag element with this id. */
export function findTag(id) {
  return id ? document.querySelector(`.tag[data-tag-id="${CSS.escape(id)}"]`) : null;
}
