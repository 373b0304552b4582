import { test } from "node:test";
import assert from "node:assert/strict";
import { readProblem, problemMessage } from "../src/editor/problem.mjs";

test("readProblem reads problem bodies and nothing else", () => {
  assert.deepEqual(readProblem('{"status":422,"detail":"No."}'), { status: 422, detail: "No." });
  for (const text of ["<!doctype html><p>Bad gateway", "", "null", "[1]", '"text"', undefined]) assert.equal(readProblem(text), null, String(text));
});

test("problemMessage prefers the first field's message, then the detail, then the title", () => {
  const p = { title: "Unprocessable", detail: "The tag is not valid.", errors: [{ pointer: "#/x", detail: "X is off the page." }] };
  assert.equal(problemMessage(p, "fallback"), "X is off the page.");
  assert.equal(problemMessage({ ...p, errors: [] }, "fallback"), "The tag is not valid.");
  assert.equal(problemMessage({ title: "Conflict" }, "fallback"), "Conflict");
  assert.equal(problemMessage(null, "fallback"), "fallback");
});
