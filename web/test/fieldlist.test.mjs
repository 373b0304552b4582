import { test } from "node:test";
import assert from "node:assert/strict";
import { groupFields } from "../src/editor/fieldlist.mjs";

const people = [
  { id: "p1", name: "Pat Buyer", initials: "PB", colorClass: "signer-c0" },
  { id: "p2", name: "Robin Seller", initials: "RS", colorClass: "signer-c1" },
];
const docs = [{ position: 0, title: "Purchase agreement" }, { position: 1, title: "Disclosure" }];
const tag = (id, signerId, doc, page) => ({ id, signerId, doc, page, type: "SIGNATURETEMPLATE", label: "Signature" });

test("groupFields: unassigned first, then participants in order; documents and pages in order, with counts", () => {
  const groups = groupFields([tag("a", "p2", 1, 1), tag("b", "p1", 0, 2), tag("c", "", 0, 1), tag("d", "p1", 0, 1), tag("e", "gone", 1, 1), tag("f", "p1", 0, 2)], people, docs);
  assert.deepEqual(groups.map((g) => [g.name, g.count]), [["Unassigned", 2], ["Pat Buyer", 3], ["Robin Seller", 1]]);
  assert.ok(groups[0].unassigned);
  const pat = groups[1];
  assert.deepEqual(pat.documents.map((d) => [d.title, d.count, d.pages.map((p) => [p.page, p.count])]), [["Purchase agreement", 3, [[1, 1], [2, 2]]]]);
  assert.deepEqual(groups[0].documents.map((d) => d.title), ["Purchase agreement", "Disclosure"]);
});

test("groupFields: no unassigned group when every tag has a signer; participants without tags stay, counted 0", () => {
  const groups = groupFields([tag("a", "p1", 0, 1)], people, docs);
  assert.deepEqual(groups.map((g) => [g.name, g.count]), [["Pat Buyer", 1], ["Robin Seller", 0]]);
});

import { fillSuccess } from "../src/editor/keepplace.mjs";
import "./english.mjs"; // the editor speaks English in these tests

test("fillSuccess: a confirmation filled in from the form, without stray spaces", () => {
  const values = { firstName: "Casey", middleName: "", lastName: "Witness", title: " Lease " };
  assert.equal(fillSuccess("Saved {firstName} {middleName} {lastName}.", (n) => values[n] || ""), "Saved Casey Witness.");
  assert.equal(fillSuccess("Renamed to “{title}”.", (n) => values[n] || ""), "Renamed to “Lease”.");
});
