// Unit tests of snapping: node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { SNAP_MARGIN, snapEdges, snapLines, snapMove } from "../src/editor/snap.mjs";

const W = 612;
const H = 792;
const other = { left: 100, top: 100, width: 150, height: 30 };
const lines = snapLines([other], W, H);

test("lines: the other tags' edges and centres, the page edges and centre, and the margins", () => {
  assert.deepEqual(lines.x.map((l) => l.at).sort((a, b) => a - b), [0, SNAP_MARGIN, 100, 175, 250, 306, W - SNAP_MARGIN, W].sort((a, b) => a - b));
  assert.ok(lines.y.some((l) => l.at === 130 && l.kind === "tag"));
  assert.ok(lines.y.some((l) => l.at === H - SNAP_MARGIN && l.kind === "margin"));
});

test("a move snaps its left edge to another tag's left edge within the threshold", () => {
  const s = snapMove({ left: 104, top: 300, width: 80, height: 20 }, lines, W, H, 6);
  assert.equal(s.dx, -4);
  assert.equal(s.dy, 0);
  assert.deepEqual(s.guides, [{ axis: "x", at: 100, kind: "tag" }]);
});

test("a move snaps the nearest of edges and centre, on both axes", () => {
  // Centre 175.5 → 175 (tag centre); bottom 98 → 100 (tag top).
  const s = snapMove({ left: 150.5, top: 78, width: 50, height: 20 }, lines, W, H, 6);
  assert.equal(s.dx, -0.5);
  assert.equal(s.dy, 2);
  assert.equal(s.guides.length, 2);
});

test("nothing within the threshold: no snap and no guide", () => {
  const s = snapMove({ left: 400, top: 440, width: 50, height: 20 }, lines, W, H, 6);
  assert.deepEqual(s, { dx: 0, dy: 0, guides: [] });
});

test("margins and page edges snap, and a snap never puts the tag off the page", () => {
  assert.equal(snapMove({ left: 33, top: 400, width: 50, height: 20 }, lines, W, H, 6).dx, 3, "to the 36 pt margin");
  // Right edge at 609: the page edge 612 is 3 away and fits; its left edge (559) is not near anything.
  assert.equal(snapMove({ left: 559, top: 400, width: 50, height: 20 }, lines, W, H, 6).dx, 3);
  // A tag whose left edge is 4 pt from the page's right edge would snap off the page: refused.
  const narrow = snapLines([], 100, 100);
  const s = snapMove({ left: 60, top: 10, width: 39, height: 10 }, narrow, 100, 100, 6);
  assert.ok(s.dx + 60 + 39 <= 100);
});

test("resize snaps only the dragged edges, kept on the page and at least min wide", () => {
  const r = { left: 300, top: 300, width: 48, height: 20 };
  const e = snapEdges(r, "e", lines, W, H, 6);
  assert.deepEqual(e.rect, { left: 300, top: 300, width: 48, height: 20 }, "right edge at 348: nothing near");
  const w = snapEdges({ left: 253, top: 300, width: 48, height: 20 }, "w", lines, W, H, 6);
  assert.equal(w.rect.left, 250);
  assert.equal(w.rect.left + w.rect.width, 301, "the right edge stays");
  const se = snapEdges({ left: 10, top: 10, width: 88, height: 117 }, "se", lines, W, H, 6);
  assert.deepEqual(se.rect, { left: 10, top: 10, width: 90, height: 120 });
  assert.equal(se.guides.length, 2);
});
