// The one small event bus the editor's parts talk through (as pdf.js's
// viewer does), so no part reaches into another's internals.

/** Creates a bus: on(type, fn) subscribes, emit(type, detail) notifies in order. */
export function createBus() {
  const handlers = new Map();
  return {
    on(type, fn) {
      if (!handlers.has(type)) handlers.set(type, []);
      handlers.get(type).push(fn);
    },
    emit(type, detail) {
      for (const fn of handlers.get(type) || []) fn(detail);
    },
  };
}

/**
 * An addEventListener bound to a start's AbortSignal: every listener a
 * module adds through it goes when the room is rebuilt (main.mjs aborts the
 * signal), on document and window as on the room's own elements.
 */
export function listenUntil(signal) {
  return (target, type, fn, opts = {}) => target?.addEventListener(type, fn, { ...opts, signal });
}
