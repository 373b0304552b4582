import { test } from "node:test";
import assert from "node:assert/strict";
import { createHistory } from "../src/editor/history.mjs";

test("undo and redo replay steps in order; a new step clears redo", async () => {
  const log = [];
  const h = createHistory();
  const step = (n) => ({ undo: async () => log.push(`undo ${n}`), redo: async () => log.push(`redo ${n}`) });
  h.push(step(1));
  h.push(step(2));
  assert.ok(await h.undo());
  assert.ok(await h.undo());
  assert.equal(await h.undo(), false);
  assert.ok(await h.redo());
  h.push(step(3));
  assert.equal(h.canRedo, false);
  assert.deepEqual(log, ["undo 2", "undo 1", "redo 1"]);
});

test("steps with one merge key collapse; the limit keeps the newest", async () => {
  const log = [];
  const h = createHistory({ limit: 50 });
  for (let i = 0; i < 5; i++) h.push({ mergeKey: "nudge:a", undo: async () => log.push("undo first"), redo: async () => log.push(`redo ${i}`) });
  assert.equal(h.size, 1);
  await h.undo();
  await h.redo();
  assert.deepEqual(log, ["undo first", "redo 4"]);
  for (let i = 0; i < 60; i++) h.push({ undo: async () => {}, redo: async () => {} });
  assert.equal(h.size, 50);
});

test("a failed undo stays undoable", async () => {
  const h = createHistory();
  let fail = true;
  h.push({ undo: async () => { if (fail) throw new Error("refused"); }, redo: async () => {} });
  await assert.rejects(h.undo());
  assert.ok(h.canUndo);
  fail = false;
  assert.ok(await h.undo());
});
