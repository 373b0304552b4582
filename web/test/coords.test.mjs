// Unit tests of the editor's coordinate module: node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  clampRect, displaySize, normalizeRotation, parseBox, pdfRectToScreen, pdfToScreen, rectInside,
  screenDeltaToPdf, screenRectToPdf, screenSizeToPdf, screenToPdf,
} from "../src/editor/coords.mjs";

const letter = { llx: 0, lly: 0, urx: 612, ury: 792 };
const offset = { llx: 36, lly: 72, urx: 576, ury: 720 }; // a crop box away from the origin

test("rotation 0: top-left of the screen is the top-left of the crop box", () => {
  assert.deepEqual(pdfToScreen(letter, 0, 1, 0, 792), [0, 0]);
  assert.deepEqual(pdfToScreen(letter, 0, 2, 100, 692), [200, 200]);
  assert.deepEqual(pdfToScreen(offset, 0, 1, 36, 720), [0, 0]);
  assert.deepEqual(pdfToScreen(offset, 0, 1, 576, 72), [540, 648]);
});

test("rotations turn the page clockwise", () => {
  // /Rotate 90: the page's left edge is at the top, its top edge on the right.
  assert.deepEqual(pdfToScreen(letter, 90, 1, 0, 0), [0, 0]);
  assert.deepEqual(pdfToScreen(letter, 90, 1, 0, 792), [792, 0]);
  assert.deepEqual(pdfToScreen(letter, 90, 1, 612, 0), [0, 612]);
  // 180: upside down.
  assert.deepEqual(pdfToScreen(letter, 180, 1, 612, 0), [0, 0]);
  // 270: the page's top edge on the left.
  assert.deepEqual(pdfToScreen(letter, 270, 1, 612, 792), [0, 0]);
  assert.deepEqual(pdfToScreen(letter, 270, 1, 0, 792), [0, 612]);
});

test("screenToPdf inverts pdfToScreen for every rotation, box and scale", () => {
  for (const box of [letter, offset, { llx: -50, lly: 10, urx: 800, ury: 400 }]) {
    for (const rot of [0, 90, 180, 270]) {
      for (const scale of [0.5 * (96 / 72), 96 / 72, 2 * (96 / 72), 1.7]) {
        for (const [x, y] of [[box.llx, box.lly], [box.urx, box.ury], [box.llx + 123.4, box.lly + 56.7]]) {
          const [sx, sy] = pdfToScreen(box, rot, scale, x, y);
          const [bx, by] = screenToPdf(box, rot, scale, sx, sy);
          assert.ok(Math.abs(bx - x) < 1e-9 && Math.abs(by - y) < 1e-9, `${rot}° scale ${scale}: (${x},${y}) → (${bx},${by})`);
        }
      }
    }
  }
});

test("rectangles round-trip within 1/100 point and map their top-left corner", () => {
  const r = { x: 100, y: 500, width: 144, height: 36 };
  for (const box of [letter, offset]) {
    for (const rot of [0, 90, 180, 270]) {
      for (const scale of [0.5, 1, 2].map((z) => z * (96 / 72))) {
        const s = pdfRectToScreen(box, rot, scale, r);
        const back = screenRectToPdf(box, rot, scale, s);
        for (const k of ["x", "y", "width", "height"]) assert.ok(Math.abs(back[k] - r[k]) <= 0.01, `${rot}° ${k}: ${back[k]}`);
      }
    }
  }
  // Rotation 0: the tag's top-left corner (x, y + height) is at the screen rectangle's top-left.
  const s = pdfRectToScreen(letter, 0, 1, r);
  assert.deepEqual(s, { left: 100, top: 792 - 536, width: 144, height: 36 });
  // Rotation 90: a tag 144 wide in PDF space shows 144 tall.
  const t = pdfRectToScreen(letter, 90, 1, r);
  assert.equal(t.width, 36);
  assert.equal(t.height, 144);
});

test("display size, size on screen and nudges follow the rotation", () => {
  assert.deepEqual(displaySize(letter, 0), { width: 612, height: 792 });
  assert.deepEqual(displaySize(letter, 90), { width: 792, height: 612 });
  assert.deepEqual(displaySize(offset, 270), { width: 648, height: 540 });
  assert.deepEqual(screenSizeToPdf(90, 144, 36), { width: 36, height: 144 });
  // "Right" on screen for each rotation, checked against the mapping itself.
  for (const rot of [0, 90, 180, 270]) {
    const [x0, y0] = [300, 400];
    const [sx, sy] = pdfToScreen(letter, rot, 1, x0, y0);
    for (const [right, down] of [[1, 0], [0, 1], [-10, 0], [0, -10]]) {
      const [dx, dy] = screenDeltaToPdf(rot, right, down);
      const [nx, ny] = pdfToScreen(letter, rot, 1, x0 + dx, y0 + dy);
      assert.deepEqual([nx - sx, ny - sy], [right, down], `${rot}° nudge ${right},${down}`);
    }
  }
  assert.equal(normalizeRotation(-90), 270);
  assert.equal(normalizeRotation(450), 90);
});

test("clampRect keeps tags on the page; rectInside checks it", () => {
  assert.deepEqual(clampRect(offset, { x: 0, y: 0, width: 100, height: 20 }), { x: 36, y: 72, width: 100, height: 20 });
  assert.deepEqual(clampRect(letter, { x: 600, y: 790, width: 100, height: 20 }), { x: 512, y: 772, width: 100, height: 20 });
  assert.deepEqual(clampRect(letter, { x: -5, y: 0, width: 1000, height: 20 }), { x: 0, y: 0, width: 612, height: 20 });
  assert.ok(rectInside(offset, { x: 36, y: 72, width: 540, height: 648 }));
  assert.ok(!rectInside(offset, { x: 35, y: 72, width: 10, height: 10 }));
  assert.ok(!rectInside(letter, { x: 10, y: 10, width: 0, height: 10 }));
  assert.deepEqual(parseBox("36 72 576 720"), offset);
});

test("a move keeps width and height exactly, at any zoom and rotation", async () => {
  const { moveRect } = await import("../src/editor/coords.mjs");
  const r = { x: 100, y: 500, width: 60, height: 30 };
  for (const rot of [0, 90, 180, 270]) {
    // 0.75 × 96/72 = 1 px per point; fit-width zooms give odd fractions like these.
    for (const scale of [1, 0.7466, 1.3333333333, 1.07]) {
      const m = moveRect(letter, rot, r, 37 / scale, 13 / scale);
      assert.equal(m.width, 60, `rot ${rot} scale ${scale}`);
      assert.equal(m.height, 30, `rot ${rot} scale ${scale}`);
      assert.equal(Math.round(m.x * 100) / 100, m.x);
    }
  }
  // Right 10, down 20 points on an upright page: x + 10, y − 20.
  assert.deepEqual(moveRect(letter, 0, r, 10, 20), { x: 110, y: 480, width: 60, height: 30 });
  // Kept on the page without shrinking.
  assert.deepEqual(moveRect(letter, 0, r, 1000, -1000), { x: 552, y: 762, width: 60, height: 30 });
  assert.deepEqual(moveRect(offset, 0, r, -1000, 1000), { x: 36, y: 72, width: 60, height: 30 });
});

test("a resize moves only the dragged edges; the opposite ones stay exactly", async () => {
  const { resizeRect, pdfRectToScreen } = await import("../src/editor/coords.mjs");
  const r = { x: 100.37, y: 500.11, width: 60.2, height: 30.3 };
  for (const rot of [0, 90, 180, 270]) {
    const before = pdfRectToScreen(letter, rot, 1, r);
    for (const dir of ["n", "ne", "e", "se", "s", "sw", "w", "nw"]) {
      const out = resizeRect(letter, rot, r, dir, 7.123, 5.456);
      const after = pdfRectToScreen(letter, rot, 1, out);
      const near = (a, b) => Math.abs(a - b) < 1e-6;
      // The screen edges not dragged do not move.
      if (!dir.includes("e") && !dir.includes("w")) assert.ok(near(after.left, before.left) && near(after.width, before.width), `${rot} ${dir} horizontal`);
      if (!dir.includes("n") && !dir.includes("s")) assert.ok(near(after.top, before.top) && near(after.height, before.height), `${rot} ${dir} vertical`);
      if (dir.includes("e")) assert.ok(near(after.left, before.left) && Math.abs(after.width - (before.width + 7.123)) < 0.01, `${rot} ${dir} east`);
      if (dir.includes("w")) assert.ok(near(after.left + after.width, before.left + before.width), `${rot} ${dir} west keeps the right edge`);
      if (dir.includes("s")) assert.ok(near(after.top, before.top), `${rot} ${dir} south keeps the top edge`);
      if (dir.includes("n")) assert.ok(near(after.top + after.height, before.top + before.height), `${rot} ${dir} north keeps the bottom edge`);
    }
  }
  // Upright page, bottom-right handle: x and the top (y + height) stay exactly.
  const se = resizeRect(letter, 0, r, "se", 10, 5);
  assert.equal(se.x, r.x);
  assert.equal(se.y + se.height, 530.41);
  assert.equal(se.width, 70.2);
  // Never smaller than min, never off the page.
  assert.deepEqual(resizeRect(letter, 0, r, "e", -1000, 0, 4), { x: 100.37, y: 500.11, width: 4, height: 30.3 });
  assert.equal(resizeRect(letter, 0, r, "w", -1000, 0).x, 0);
  assert.equal(resizeRect(letter, 0, r, "w", -1000, 0).width, 160.57);
});
