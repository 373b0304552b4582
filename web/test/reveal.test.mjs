// Unit tests of reveal.mjs's scroll arithmetic: node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { keepDelta, scrollDelta } from "../src/editor/reveal.mjs";

const box = { start: 100, size: 400 }; // a container showing 100..500

test("nearest: nothing when the item is whole in view", () => {
  assert.equal(scrollDelta({ start: 150, size: 50 }, box), 0);
  assert.equal(scrollDelta({ start: 100, size: 400 }, box), 0);
});

test("nearest: as little as shows it, its start first when it is larger than the box", () => {
  assert.equal(scrollDelta({ start: 40, size: 50 }, box), -60, "above: scrolled up to its start");
  assert.equal(scrollDelta({ start: 480, size: 50 }, box), 30, "below: scrolled down to its end");
  assert.equal(scrollDelta({ start: 450, size: 600 }, box), 350, "taller than the box: its start at the top");
  assert.equal(scrollDelta({ start: 480, size: 50 }, box, "nearest", 10), 40, "a margin is kept");
});

test("start and center", () => {
  assert.equal(scrollDelta({ start: 900, size: 100 }, box, "start"), 800);
  assert.equal(scrollDelta({ start: 900, size: 100 }, box, "start", 16), 784);
  assert.equal(scrollDelta({ start: 900, size: 100 }, box, "center"), 650);
  assert.equal(scrollDelta({ start: 250, size: 100 }, box, "center"), 0);
});

test("keep: a span in view is never scrolled out of it for another's sake", () => {
  // The form below the box wants 300 px forward; the palette's item at 160..190 allows only 60.
  assert.equal(keepDelta(300, { start: 160, size: 30 }, box), 60, "forward: stops with keep at the box's start");
  assert.equal(keepDelta(-300, { start: 400, size: 50 }, box), -50, "backward: stops with keep at the box's end");
  assert.equal(keepDelta(20, { start: 160, size: 30 }, box), 20, "a small scroll keeps it anyway");
  assert.equal(keepDelta(300, { start: 40, size: 30 }, box), 300, "keep already out of view: nothing held back");
});
