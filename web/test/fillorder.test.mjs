// The preview's filling order (web/src/editor/fillorder.mjs): signing order,
// document, page, then rows top to bottom, each left to right.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fillOrder, readingOrder, walkOf, step } from "../src/editor/fillorder.mjs";

const f = (id, signer, doc, page, left, top, width = 100, height = 24) => ({ id, signer, doc, page, rect: { left, top, width, height } });

test("document order comes first, then page, then top to bottom", () => {
  const fields = [f("d2p1", "a", 2, 1, 10, 10), f("d1p3", "a", 1, 3, 10, 10), f("d1p1low", "a", 1, 1, 10, 700), f("d1p1high", "a", 1, 1, 300, 50), f("d1p2", "a", 1, 2, 10, 10)];
  assert.deepEqual(fillOrder(fields).map((x) => x.id), ["d1p1high", "d1p1low", "d1p2", "d1p3", "d2p1"]);
});

test("document positions and pages compare as numbers, not text (10 after 9)", () => {
  const fields = [f("p10", "a", 1, 10, 0, 0), f("p9", "a", 1, 9, 0, 0), f("doc10", "a", 10, 1, 0, 0), f("doc9", "a", 9, 1, 0, 0)];
  assert.deepEqual(fillOrder(fields).map((x) => x.id), ["p9", "p10", "doc9", "doc10"]);
});

test("a row reads left to right even when its tags are not quite level", () => {
  // The date sits 3 points above the signature beside it: same row, after it.
  const row = [f("date", "a", 1, 1, 400, 597, 100, 24), f("sign", "a", 1, 1, 50, 600, 200, 30), f("below", "a", 1, 1, 10, 640)];
  assert.deepEqual(readingOrder(row).map((x) => x.id), ["sign", "date", "below"]);
});

test("a tag lower by more than half the smaller height starts a new row", () => {
  const tags = [f("right", "a", 1, 1, 400, 100, 100, 20), f("left-lower", "a", 1, 1, 10, 111, 100, 20)];
  assert.deepEqual(readingOrder(tags).map((x) => x.id), ["right", "left-lower"]);
  const level = [f("right", "a", 1, 1, 400, 100, 100, 20), f("left", "a", 1, 1, 10, 109, 100, 20)];
  assert.deepEqual(readingOrder(level).map((x) => x.id), ["left", "right"]);
});

test("with a signing order, each participant's fields come in their turn", () => {
  const fields = [f("b1", "b", 1, 1, 0, 0), f("a2", "a", 1, 2, 0, 0), f("a1", "a", 1, 1, 0, 500), f("x", "nobody", 1, 1, 0, 0), f("b2", "b", 2, 1, 0, 0)];
  assert.deepEqual(fillOrder(fields, { signers: ["b", "a"] }).map((x) => x.id), ["b1", "b2", "a1", "a2", "x"]);
  // Without one, document order alone.
  assert.deepEqual(fillOrder(fields).map((x) => x.id), ["b1", "x", "a1", "a2", "b2"]);
});

test("a walk is one participant's fields in order, and does not change its input", () => {
  const fields = [f("b", "p2", 1, 1, 0, 0), f("a2", "p1", 1, 2, 0, 0), f("a1", "p1", 1, 1, 0, 0)];
  const copy = structuredClone(fields);
  assert.deepEqual(walkOf(fields, "p1").map((x) => x.id), ["a1", "a2"]);
  assert.deepEqual(walkOf(fields, "nobody"), []);
  assert.deepEqual(fields, copy);
});

test("identical places keep a stable order (by id)", () => {
  const tags = [f("z", "a", 1, 1, 10, 10), f("m", "a", 1, 1, 10, 10)];
  assert.deepEqual(readingOrder(tags).map((x) => x.id), ["m", "z"]);
  assert.deepEqual(readingOrder([...tags].reverse()).map((x) => x.id), ["m", "z"]);
});

test("Next and Previous stop at the ends of the walk", () => {
  assert.equal(step(0, 1, 3), 1);
  assert.equal(step(2, 1, 3), 2);
  assert.equal(step(0, -1, 3), 0);
  assert.equal(step(0, 1, 0), -1);
});
