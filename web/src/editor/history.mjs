// Undo/redo as a bounded list of {undo, redo} pairs, as pdf.js's command
// manager keeps it. Steps with the same merge key in quick succession (the
// presses of one nudge) collapse into one entry.

export function createHistory({ limit = 100, mergeWindowMs = 1000, onChange = () => {} } = {}) {
  const done = [];
  const undone = [];
  let busy = false;

  const run = async (from, to, method) => {
    if (busy || from.length === 0) return false;
    const entry = from.pop();
    busy = true;
    try {
      await entry[method]();
      to.push(entry);
      return true;
    } catch (err) {
      // The step failed (refused by the server): it stays where it was.
      from.push(entry);
      throw err;
    } finally {
      busy = false;
      onChange();
    }
  };

  return {
    /** Records a step already done. */
    push(entry) {
      const top = done[done.length - 1];
      const now = Date.now();
      if (top && entry.mergeKey && top.mergeKey === entry.mergeKey && now - top.time < mergeWindowMs) {
        top.redo = entry.redo;
        top.time = now;
      } else {
        done.push({ ...entry, time: now });
        if (done.length > limit) done.shift();
      }
      undone.length = 0;
      onChange();
    },
    undo: () => run(done, undone, "undo"),
    redo: () => run(undone, done, "redo"),
    get canUndo() {
      return done.length > 0 && !busy;
    },
    get canRedo() {
      return undone.length > 0 && !busy;
    },
    get size() {
      return done.length;
    },
  };
}
