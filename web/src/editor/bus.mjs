// The one small event bus the editor's parts talk through (as pdf.js's
// viewer does), so no part reaches into another's internals. One bus per
// start of the editor (main.mjs); it goes with the room's markup.
//
// Every event, who sends it and its payload:
//   "armed"    palette.mjs: a tag type was picked or dropped  {type} ("" none)
//   "placed"   pointer.mjs: a tag was drawn or tapped in      (none)
//   "select"   editor.mjs: the selection changed              {el, els} (the primary tag or null, every selected one)
//   "status"   editor, clipboard, suggestions, copypages, pages: a line for the status bar  {message}
//   "error"    editor.mjs (run), suggestions.mjs: a change was refused or failed  {message, fields?} (the problem's field errors)
//   "copied"   copypages.mjs: tags were copied to other pages {tags, pages} (counts)
//   "saving"   server.mjs: a tag request left                 {inFlight}
//   "saved"    server.mjs: a tag request was answered         {inFlight, ms}
//   "rendered" viewer.mjs: a page was drawn                   {page} (its PageView)
//   "zoom"     viewer.mjs: the zoom changed                   {zoom, fit}
//   "page"     viewer.mjs: the page in view changed           {page} (its PageView)

/**
 * Creates a bus: on(type, fn, {signal}) subscribes (until signal aborts),
 * off(type, fn) unsubscribes, emit(type, detail) notifies in order.
 */
export function createBus() {
  const handlers = new Map();
  const bus = {
    on(type, fn, { signal } = {}) {
      if (signal?.aborted) return;
      if (!handlers.has(type)) handlers.set(type, []);
      handlers.get(type).push(fn);
      signal?.addEventListener("abort", () => bus.off(type, fn), { once: true });
    },
    off(type, fn) {
      const list = handlers.get(type);
      const i = list ? list.indexOf(fn) : -1;
      if (i >= 0) list.splice(i, 1);
    },
    emit(type, detail) {
      for (const fn of [...(handlers.get(type) || [])]) fn(detail);
    },
  };
  return bus;
}

/**
 * An addEventListener bound to a start's AbortSignal: every listener a
 * module adds through it goes when the room is rebuilt (main.mjs aborts the
 * signal), on document and window as on the room's own elements.
 */
export function listenUntil(signal) {
  return (target, type, fn, opts = {}) => target?.addEventListener(type, fn, { ...opts, signal });
}
