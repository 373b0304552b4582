// Undo/redo as a bounded list of {undo, redo} pairs, as pdf.js's command
// manager keeps it. Steps with the same merge key in quick succession (the
// presses of one nudge) collapse into one entry. The history belongs to the
// room, not to one start of the editor: a page edit or an upload rebuilds
// the editor and the history stays, with tag edits and page edits mixed.
//
// A generation counter guards against a stale step: when a new change is
// recorded while an undo or redo is still under way, that step, once it
// ends, goes to neither list (the new change has wiped the redo list, and
// putting the step back would undo or redo it over the newer change).
//
// A step that failed goes back on its list to be tried again, unless its
// error is marked gone (what it changes no longer exists: a removed
// document): kept, it would block every older step until a reload.

export function createHistory({ limit = 100, mergeWindowMs = 1000, onChange = () => {} } = {}) {
  const done = [];
  const undone = [];
  let busy = false;
  let generation = 0;

  const run = async (from, to, method) => {
    if (busy || from.length === 0) return false;
    const entry = from.pop();
    const gen = generation;
    busy = true;
    try {
      await entry[method]();
      if (gen === generation) to.push(entry);
      return true;
    } catch (err) {
      // The step failed (refused by the server): it stays where it was,
      // unless a newer change was recorded meanwhile or it can never succeed.
      if (gen === generation && !err?.gone) from.push(entry);
      throw err;
    } finally {
      busy = false;
      onChange();
    }
  };

  return {
    /** Records a step already done. */
    push(entry) {
      generation++;
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
    get busy() {
      return busy;
    },
    get size() {
      return done.length;
    },
    get redoSize() {
      return undone.length;
    },
    /** The labels of the steps that can be undone, oldest first (for tests and the console). */
    labels() {
      return done.map((e) => e.label);
    },
  };
}
