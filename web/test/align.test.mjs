// Unit tests of align, distribute and same size: node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { align, bounds, distribute, keepInside, sameSize } from "../src/editor/align.mjs";

const rects = [
  { left: 10, top: 100, width: 50, height: 20 },
  { left: 80, top: 40, width: 100, height: 30 },
  { left: 30, top: 200, width: 20, height: 10 },
];

test("bounds is the box around every rectangle", () => {
  assert.deepEqual(bounds(rects), { left: 10, top: 40, width: 170, height: 170 });
});

test("align each way lines the rectangles up on their bounding box, sizes kept", () => {
  assert.deepEqual(align(rects, "left").map((r) => r.left), [10, 10, 10]);
  assert.deepEqual(align(rects, "right").map((r) => r.left + r.width), [180, 180, 180]);
  assert.deepEqual(align(rects, "center").map((r) => r.left + r.width / 2), [95, 95, 95]);
  assert.deepEqual(align(rects, "top").map((r) => r.top), [40, 40, 40]);
  assert.deepEqual(align(rects, "bottom").map((r) => r.top + r.height), [210, 210, 210]);
  assert.deepEqual(align(rects, "middle").map((r) => r.top + r.height / 2), [125, 125, 125]);
  for (const how of ["left", "right", "center", "top", "bottom", "middle"]) {
    assert.deepEqual(align(rects, how).map((r) => [r.width, r.height]), rects.map((r) => [r.width, r.height]), how);
  }
  assert.throws(() => align(rects, "diagonal"));
});

test("distribute leaves the outer two and makes the gaps equal", () => {
  const row = [
    { left: 0, top: 0, width: 10, height: 10 },
    { left: 200, top: 0, width: 40, height: 10 },
    { left: 30, top: 0, width: 20, height: 10 },
    { left: 90, top: 0, width: 10, height: 10 },
  ];
  const out = distribute(row, "horizontal");
  assert.equal(out[0].left, 0);
  assert.equal(out[1].left, 200);
  // total span 240, widths 80: three gaps of 160/3.
  const g = 160 / 3;
  assert.ok(Math.abs(out[2].left - (10 + g)) < 1e-9);
  assert.ok(Math.abs(out[3].left - (10 + g + 20 + g)) < 1e-9);
  const col = distribute(rects, "vertical");
  assert.deepEqual(col.map((r) => r.top), [40 + 30 + (170 - 60) / 2, 40, 200]);
  assert.deepEqual(distribute(rects.slice(0, 2), "horizontal"), rects.slice(0, 2), "two change nothing");
});

test("same width, height and size take the reference's, corners kept", () => {
  const ref = rects[1];
  assert.deepEqual(sameSize(rects, "width", ref).map((r) => [r.left, r.width, r.height]), [[10, 100, 20], [80, 100, 30], [30, 100, 10]]);
  assert.deepEqual(sameSize(rects, "height", ref).map((r) => [r.top, r.width, r.height]), [[100, 50, 30], [40, 100, 30], [200, 20, 30]]);
  assert.deepEqual(sameSize(rects, "size", ref).map((r) => [r.width, r.height]), [[100, 30], [100, 30], [100, 30]]);
});

test("keepInside moves a rectangle back onto the page", () => {
  assert.deepEqual(keepInside({ left: 590, top: -4, width: 50, height: 20 }, 612, 792), { left: 562, top: 0, width: 50, height: 20 });
  assert.deepEqual(keepInside({ left: 5, top: 5, width: 700, height: 20 }, 612, 792), { left: 0, top: 5, width: 612, height: 20 });
});
