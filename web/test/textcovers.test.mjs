// Unit tests of textcovers.mjs: reading a document's data-text-tags.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTextTags } from "../src/editor/textcovers.mjs";

test("parseTextTags keeps the boxes it can place and drops the rest", () => {
  const good = { page: 1, x: 72, y: 330, width: 80.5, height: 11 };
  assert.deepEqual(parseTextTags(JSON.stringify([good])), [good]);
  assert.deepEqual(parseTextTags(JSON.stringify([good, { page: "1", x: 1, y: 1, width: 1, height: 1 }, { page: 2, x: 1, y: 1, width: 0, height: 1 }, null, { page: 2, x: "a", y: 1, width: 1, height: 1 }])), [good]);
  assert.deepEqual(parseTextTags(""), []);
  assert.deepEqual(parseTextTags("{not json"), []);
  assert.deepEqual(parseTextTags('{"page":1}'), [], "not a list");
});
