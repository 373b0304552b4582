// Small DOM helpers shared by the panels the editor builds itself (the
// field list, the suggested fields).

/** A new element: its tag name, class and, when given, its text. */
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}
