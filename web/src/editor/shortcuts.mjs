// Every keyboard shortcut of the editor in one table (Ctrl on Windows/Linux,
// Cmd on a Mac), as pdf.js keeps its own.

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * [key, modifiers, command, argument]; "mod" is Cmd on a Mac, Ctrl elsewhere.
 * A key "KeyX" is matched by the key's place (KeyboardEvent.code): with Alt
 * held a Mac types another character (Alt Shift L is "Ò").
 */
const TABLE = [
  ["z", "mod", "undo"],
  ["z", "mod+shift", "redo"],
  ["y", "mod", "redo"],
  ["c", "mod", "copy"],
  ["v", "mod", "paste"],
  ["d", "mod", "duplicate"],
  ["Delete", "", "delete"],
  ["Backspace", "", "delete"],
  ["Escape", "", "escape"],
  ["a", "mod", "select-all"],
  [" ", "", "toggle"],
  ["KeyL", "shift+alt", "align", "left"],
  ["KeyC", "shift+alt", "align", "center"],
  ["KeyR", "shift+alt", "align", "right"],
  ["KeyT", "shift+alt", "align", "top"],
  ["KeyM", "shift+alt", "align", "middle"],
  ["KeyB", "shift+alt", "align", "bottom"],
  ["KeyH", "shift+alt", "distribute", "horizontal"],
  ["KeyV", "shift+alt", "distribute", "vertical"],
  ["KeyW", "shift+alt", "same", "width"],
  ["KeyE", "shift+alt", "same", "height"],
  ["KeyS", "shift+alt", "same", "size"],
  ["ArrowLeft", "", "nudge", [-1, 0]],
  ["ArrowRight", "", "nudge", [1, 0]],
  ["ArrowUp", "", "nudge", [0, -1]],
  ["ArrowDown", "", "nudge", [0, 1]],
  ["ArrowLeft", "shift", "nudge", [-10, 0]],
  ["ArrowRight", "shift", "nudge", [10, 0]],
  ["ArrowUp", "shift", "nudge", [0, -10]],
  ["ArrowDown", "shift", "nudge", [0, 10]],
  ["=", "mod", "zoom", 1],
  ["+", "mod", "zoom", 1],
  ["-", "mod", "zoom", -1],
];

function modifiers(e) {
  const parts = [];
  if (isMac ? e.metaKey : e.ctrlKey) parts.push("mod");
  if (e.shiftKey) parts.push("shift");
  if (e.altKey) parts.push("alt");
  return parts.join("+");
}

/** The command a key event means: {name, arg}, or null. */
export function commandFor(e) {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const mods = modifiers(e);
  for (const [k, m, name, arg] of TABLE) {
    if ((k === key || (k.startsWith("Key") && k === e.code)) && m === mods) return { name, arg };
  }
  return null;
}
