// The arrange toolbar ([data-arrange-toolbar], role="toolbar"): shown while
// two or more tags are selected; its buttons (data-align, data-distribute,
// data-same) align, distribute and size the selection through the editor,
// each one undo step. One Tab stop: the arrows, Home and End move focus
// along it (a roving tabindex, as the ARIA toolbar pattern does).
import { listenUntil } from "./bus.mjs";
import { arrange } from "./groups.mjs";

export function createArrangeToolbar({ root, editor, bus, signal }) {
  if (!root) return null;
  const on = listenUntil(signal);
  const buttons = [...root.querySelectorAll("button")];
  const rove = (to) => {
    buttons.forEach((b) => (b.tabIndex = b === to ? 0 : -1));
    to?.focus();
  };
  buttons.forEach((b, i) => (b.tabIndex = i === 0 ? 0 : -1));
  bus.on("select", ({ els = [] }) => {
    root.hidden = els.length < 2;
  });
  on(root, "click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    buttons.forEach((x) => (x.tabIndex = x === b ? 0 : -1));
    const d = b.dataset;
    if (d.align) arrange(editor, "align", d.align);
    else if (d.distribute) arrange(editor, "distribute", d.distribute);
    else if (d.same) arrange(editor, "same", d.same);
  });
  on(root, "keydown", (e) => {
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    const next = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    e.stopPropagation(); // not a nudge of the selection
    rove(buttons[(next + buttons.length) % buttons.length]);
  });
  return root;
}
