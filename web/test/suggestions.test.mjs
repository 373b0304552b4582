import assert from "node:assert/strict";
import { test } from "node:test";
import { covers, parseSuggestions, suggestionName } from "../src/editor/suggestions.mjs";
import "./english.mjs"; // the editor speaks English in these tests

test("covers: a tag hides a suggestion when they overlap by half the smaller one", () => {
  const s = { x: 100, y: 100, width: 200, height: 20 };
  assert.equal(covers({ ...s }, s), true, "the accepted tag itself");
  assert.equal(covers({ x: 110, y: 104, width: 200, height: 20 }, s), true, "nudged a little");
  assert.equal(covers({ x: 150, y: 105, width: 30, height: 10 }, s), true, "a small tag inside it");
  assert.equal(covers({ x: 250, y: 100, width: 200, height: 20 }, s), false, "overlapping a quarter");
  assert.equal(covers({ x: 100, y: 120, width: 200, height: 20 }, s), false, "touching edges");
  assert.equal(covers({ x: 400, y: 400, width: 10, height: 10 }, s), false, "elsewhere");
});

test("parseSuggestions reads a document's list and gives each an id of its own", () => {
  const list = parseSuggestions(
    JSON.stringify([
      { key: "SIGNATURETEMPLATE@72,90,180,20", page: 2, type: "SIGNATURETEMPLATE", label: "Signature", text: "Signature", x: 72, y: 90, width: 180, height: 20 },
      { key: "bad", page: "2", x: 1, y: 1, width: 1, height: 1 },
      { key: "DATETEMPLATE@300,90,90,20", page: 2, type: "DATETEMPLATE", x: 300, y: 90, width: 90, height: null },
    ]),
    1,
  );
  assert.equal(list.length, 1);
  assert.equal(list[0].id, "1/2/SIGNATURETEMPLATE@72,90,180,20");
  assert.equal(list[0].doc, 1);
  assert.deepEqual(parseSuggestions("not json", 0), []);
  assert.deepEqual(parseSuggestions('{"key": "x"}', 0), []);
  assert.deepEqual(parseSuggestions("", 0), []);
});

test("suggestionName says the type and the page, and the document when given", () => {
  assert.equal(suggestionName({ label: "Signature", type: "SIGNATURETEMPLATE", page: 3 }), "Signature, page 3");
  assert.equal(suggestionName({ type: "DATETEMPLATE", page: 1 }), "DATETEMPLATE, page 1");
  assert.equal(suggestionName({ label: "Signature", page: 1 }, "Lease"), "Signature, page 1 of Lease");
  assert.notEqual(suggestionName({ label: "Signature", page: 1 }, "Lease"), suggestionName({ label: "Signature", page: 1 }, "Loan"));
});
