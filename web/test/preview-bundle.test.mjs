// "Preview as…" is a bundle of its own (web/scripts/build.mjs): the room's
// script holds only its loader, and the lazily loaded script and stylesheet
// stay small (docs/review.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const read = (p) => readFileSync(new URL(`../../${p}`, import.meta.url));
const gz = (p) => gzipSync(read(p), { level: 9 }).length;

test("the preview's own script and stylesheet are under 15 KB gzipped together", () => {
  const size = gz("static/js/preview.js") + gz("static/css/preview.css");
  assert.ok(size < 15 * 1024, `preview.js + preview.css: ${size} bytes gzipped`);
});

test("the room's script loads the preview on demand and does not carry it", () => {
  const room = read("static/js/editor.js").toString();
  const preview = read("static/js/preview.js").toString();
  assert.match(room, /\[data-preview\]/, "the loader is in the room's script");
  assert.match(room, /import\(/, "…and imports the preview's module");
  assert.doesNotMatch(room, /data-preview-current/, "the walk itself is not");
  assert.match(preview, /data-preview-current/);
  assert.match(preview, /export\s*\{/, "preview.js is an ES module (import() of it gives open)");
});
