// Unit tests of the selection's pure parts: node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { clampGroupMove, hitByMarquee, rectFromPoints, rectsOverlap, selectionMessage, toggleId, unionIds } from "../src/editor/selection.mjs";
import "./english.mjs"; // the editor speaks English in these tests

const letter = { llx: 0, lly: 0, urx: 612, ury: 792 };

test("toggleId adds at the end and removes; unionIds keeps the first list's order", () => {
  assert.deepEqual(toggleId(["a", "b"], "c"), ["a", "b", "c"]);
  assert.deepEqual(toggleId(["a", "b", "c"], "b"), ["a", "c"]);
  assert.deepEqual(toggleId([], "a"), ["a"]);
  assert.deepEqual(unionIds(["b", "a"], ["a", "c", "c"]), ["b", "a", "c"]);
});

test("the marquee picks the tags it touches, from any corner", () => {
  const tags = [
    { id: "a", rect: { left: 10, top: 10, width: 50, height: 20 } },
    { id: "b", rect: { left: 100, top: 10, width: 50, height: 20 } },
    { id: "c", rect: { left: 10, top: 200, width: 50, height: 20 } },
  ];
  assert.deepEqual(hitByMarquee(rectFromPoints(120, 40, 0, 0), tags), ["a", "b"]);
  assert.deepEqual(hitByMarquee(rectFromPoints(0, 0, 300, 300), tags), ["a", "b", "c"]);
  assert.deepEqual(hitByMarquee(rectFromPoints(70, 50, 90, 150), tags), []);
  assert.equal(rectsOverlap({ left: 0, top: 0, width: 10, height: 10 }, { left: 10, top: 0, width: 10, height: 10 }), false, "touching is not overlapping");
});

test("the status line says how many tags are selected", () => {
  assert.equal(selectionMessage(0), "Selection cleared");
  assert.equal(selectionMessage(1), "1 tag selected");
  assert.equal(selectionMessage(3), "3 tags selected");
});

test("a group move stops where its first member meets a page edge, keeping the group's shape", () => {
  const members = [
    { box: letter, rotate: 0, rect: { x: 20, y: 700, width: 100, height: 30 } },
    { box: letter, rotate: 0, rect: { x: 300, y: 100, width: 100, height: 30 } },
  ];
  assert.deepEqual(clampGroupMove(members, 5, 5), [5, 5]);
  assert.deepEqual(clampGroupMove(members, -50, 0), [-20, 0], "left: the first member reaches x = 0");
  assert.deepEqual(clampGroupMove(members, 0, -100), [0, -62], "up: the first member's top reaches 792");
  assert.deepEqual(clampGroupMove(members, 500, 500), [212, 100]);
});

test("a group move on a /Rotate 90 page is limited along the right PDF axis", () => {
  // Rotate 90: right on screen is +y in PDF, down is +x.
  const members = [{ box: letter, rotate: 90, rect: { x: 10, y: 700, width: 30, height: 80 } }];
  assert.deepEqual(clampGroupMove(members, 100, -100), [12, -10]);
});
