// Unit tests of the template dialogs' pure parts: node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { count, prefillRoles } from "../src/editor/templates.mjs";
import "./english.mjs"; // the editor speaks English in these tests

const people = [
  { id: "p1", name: "Pat Buyer" },
  { id: "p2", name: "Robin Seller" },
];

test("roles go to the participant of the same name, any case and spaces", () => {
  assert.deepEqual(prefillRoles(["robin seller ", "Pat Buyer"], people), ["p2", "p1"]);
});

test("else in order, never to a participant another role has", () => {
  assert.deepEqual(prefillRoles(["Buyer", "Seller"], people), ["p1", "p2"]);
  // "Robin Seller" takes p2 by name, so the second role's place (p2) is taken: unassigned.
  assert.deepEqual(prefillRoles(["Buyer", "Agent", "Robin Seller"], people), ["p1", "", "p2"]);
});

test("more roles than participants leave the rest unassigned", () => {
  assert.deepEqual(prefillRoles(["A", "B", "C"], people), ["p1", "p2", ""]);
  assert.deepEqual(prefillRoles(["A"], []), [""]);
});

test("count says one or many", () => {
  assert.equal(count(1, "tag"), "1 tag");
  assert.equal(count(0, "tag"), "0 tags");
  assert.equal(count(3, "document"), "3 documents");
});
