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
