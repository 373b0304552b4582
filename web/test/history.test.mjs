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

test("a change recorded while an undo is under way makes that undo stale: it is not kept for redo", async () => {
  const log = [];
  const h = createHistory();
  let finish;
  h.push({ undo: async () => log.push("undo 1"), redo: async () => log.push("redo 1") });
  h.push({ undo: () => new Promise((r) => (finish = r)).then(() => log.push("undo 2")), redo: async () => log.push("redo 2") });
  const undoing = h.undo();
  assert.equal(h.canUndo, false); // one step at a time
  h.push({ undo: async () => log.push("undo 3"), redo: async () => log.push("redo 3") });
  finish();
  assert.ok(await undoing);
  assert.equal(h.canRedo, false, "the undone step 2 must not come back over step 3");
  assert.equal(await h.redo(), false);
  assert.equal(h.size, 2);
  await h.undo();
  await h.undo();
  assert.deepEqual(log, ["undo 2", "undo 3", "undo 1"]);
});

test("a failed undo goes back on the list, unless a change was recorded meanwhile", async () => {
  const h = createHistory();
  let fail;
  h.push({ undo: async () => { throw new Error("refused"); }, redo: async () => {} });
  await assert.rejects(h.undo(), /refused/);
  assert.equal(h.size, 1);
  h.push({ undo: () => new Promise((_, reject) => (fail = reject)), redo: async () => {} });
  const undoing = h.undo();
  h.push({ label: "newer", undo: async () => {}, redo: async () => {} });
  fail(new Error("refused"));
  await assert.rejects(undoing, /refused/);
  assert.deepEqual(h.labels(), [undefined, "newer"]);
});

test("a step whose target is gone is dropped, so the older steps stay reachable", async () => {
  const h = createHistory();
  const log = [];
  h.push({ label: "older", undo: async () => log.push("undo older"), redo: async () => {} });
  h.push({ label: "on a removed document", undo: async () => { throw Object.assign(new Error("removed"), { gone: true }); }, redo: async () => {} });
  await assert.rejects(h.undo(), /removed/);
  assert.deepEqual(h.labels(), ["older"]);
  assert.equal(h.redoSize, 0);
  assert.ok(await h.undo());
  assert.deepEqual(log, ["undo older"]);
});
