import { test } from "node:test";
import assert from "node:assert/strict";
import { renderOrder } from "../src/editor/queue.mjs";

const pages = (...indexes) => indexes.map((index) => ({ index }));
const order = (list, ratios) => renderOrder(list, (p) => ratios[p.index] || 0).map((p) => p.index);

test("the page most in view renders first, whatever order the requests came in", () => {
  // Page 9 asked first (a sliver of it shows), page 10 fills the view.
  assert.deepEqual(order(pages(9, 10, 11), { 9: 0.05, 10: 0.9 }), [10, 9, 11]);
  assert.deepEqual(order(pages(11, 10, 9), { 9: 0.05, 10: 0.9 }), [10, 9, 11]);
});

test("pages out of view follow, nearest the page in view first; ties by position", () => {
  assert.deepEqual(order(pages(0, 1, 2, 3, 4, 5, 6), { 3: 1 }), [3, 2, 4, 1, 5, 0, 6]);
  assert.deepEqual(order(pages(4, 2), { 2: 0.5, 4: 0.5 }), [2, 4]);
  assert.deepEqual(order(pages(), {}), []);
  // Nothing in view yet (first paint): the first page first.
  assert.deepEqual(order(pages(2, 0, 1), {}), [0, 1, 2]);
});

test("the input is not changed", () => {
  const list = pages(3, 1, 2);
  renderOrder(list, () => 0);
  assert.deepEqual(list.map((p) => p.index), [3, 1, 2]);
});
