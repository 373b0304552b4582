import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { labelMode, tagText, tagTexts, formatName, readTagTypes, PARTS } from "../src/editor/taglabel.mjs";
import "./english.mjs"; // the editor speaks English in these tests

// The tag types as the page carries them (the viewer's data-tag-types) and the
// server's words on each kind of tag: both written by the handlers' test
// TestTagTextsOfTheCatalog from models/tagtype (go test ./handlers -run
// TestTagTextsOfTheCatalog -update), which fails when they are not current.
const types = readTagTypes(readFileSync(new URL("./testdata/tag-types.json", import.meta.url), "utf8"));
const serverTexts = JSON.parse(readFileSync(new URL("./testdata/tag-texts.json", import.meta.url), "utf8"));

test("labelMode: icon, name and initials when they fit; icon and initials when not; never a cut name", () => {
  const base = { textWidth: 50, initialsWidth: 20 };
  const full = PARTS.pad + PARTS.icon + PARTS.gap + 50 + PARTS.gap + 20;
  assert.equal(labelMode({ ...base, width: full }), "full");
  assert.equal(labelMode({ ...base, width: full - 1 }), "text", "the words before the icon");
  assert.equal(labelMode({ ...base, width: full - PARTS.icon - PARTS.gap }), "text");
  // Too narrow for the words beside the initials: the words alone (the colour says whose), before any icon.
  assert.equal(labelMode({ ...base, width: full - PARTS.icon - PARTS.gap - 1 }), "name");
  assert.equal(labelMode({ ...base, width: PARTS.pad + 50 }), "name");
  assert.equal(labelMode({ ...base, width: PARTS.pad + 49 }), "compact");
  assert.equal(labelMode({ ...base, width: PARTS.pad + PARTS.icon + PARTS.gap + 20 }), "compact");
  assert.equal(labelMode({ ...base, width: PARTS.pad + PARTS.icon + PARTS.gap + 19 }), "mini");
  assert.equal(labelMode({ textWidth: 0, initialsWidth: 20, width: PARTS.pad + 5 }), "mini", "no words: never named by nothing");
  // A required marker needs its room too.
  assert.equal(labelMode({ ...base, width: full, required: true }), "text");
  // Unassigned: no initials to keep.
  assert.equal(labelMode({ textWidth: 50, width: PARTS.pad + PARTS.icon + PARTS.gap + 50 }), "full");
});

test("tagText: a date tag says what it holds and its format (default MM/DD/YYYY), never a date; others say their type", () => {
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date" }, types), "Date signed · MM/DD/YYYY");
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date", dateFormat: "MMMM do, yyyy" }, types), "Date signed · MMMM do, yyyy");
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date", dateFormat: "full" }, types), "Date signed · full date");
  assert.equal(tagText({ type: "COMMISSIONEXPIRATIONTEMPLATE", label: "Commission expiration", dateFormat: "DD/MM/YY" }, types), "Commission expiration · DD/MM/YY");
  assert.equal(tagText({ type: "INITIALSTEMPLATE", label: "Initials" }, types), "Initials");
  // A narrow tag falls back to the format alone, then to its type's short word, still no date.
  assert.deepEqual(tagTexts({ type: "DATETEMPLATE", label: "Date", dateFormat: "DD/MM/YYYY" }, types), ["Date signed · DD/MM/YYYY", "DD/MM/YYYY", "Date"]);
  assert.deepEqual(tagTexts({ type: "COMMISSIONEXPIRATIONTEMPLATE", label: "Commission expiration" }, types), ["Commission expiration · MM/DD/YYYY", "MM/DD/YYYY", "Expires"]);
  assert.deepEqual(tagTexts({ type: "SIGNATURETEMPLATE", label: "Signature" }, types), ["Signature"]);
  // A long name has a short word in the catalog for a small tag (issue 40: "Initials" showed as an icon and "*").
  assert.deepEqual(tagTexts({ type: "INITIALSTEMPLATE", label: "Initials" }, types), ["Initials", "Init."]);
  assert.deepEqual(tagTexts({ type: "INITIALHERETAGTEMPLATEANNOTATION", label: "Initial here" }, types), ["Initial here", "Initial"]);
  for (const f of ["", "MM/DD/YYYY", "DD/MM/YYYY", "MM/DD/YY", "DD/MM/YY", "MMMM do, yyyy", "full", "MMMM", "do", "yyyy", "YYYY", "MMMM do"]) {
    for (const text of tagTexts({ type: "DATETEMPLATE", label: "Date", dateFormat: f }, types)) assert.doesNotMatch(text, /\d/, `${f}: "${text}" reads as a fixed date`);
  }
  assert.equal(formatName("", types.get("DATETEMPLATE").format), "MM/DD/YYYY");
});

test("tagText says what the server's templates.TagText says (the same words on a tag drawn by either)", () => {
  assert.ok(serverTexts.length > types.size, "every type and every date format of the date types");
  for (const { type, dateFormat, text } of serverTexts) {
    assert.equal(tagText({ type, label: types.get(type).label, dateFormat }, types), text, `${type} ${dateFormat}`);
  }
});

test("every tag type the page lists has an icon drawn in static/img/tags.svg, and the facts the editor needs", () => {
  assert.equal(types.size, 18);
  const sprite = readFileSync(new URL("../../static/img/tags.svg", import.meta.url), "utf8");
  for (const [code, t] of types) {
    assert.ok(t.icon, `${code} has no icon`);
    assert.ok(sprite.includes(`<symbol id="${t.icon}"`), `${code}: #${t.icon} is not in the sprite`);
    assert.ok(t.label && t.width > 0 && t.height > 0, `${code}: label or default size missing`);
  }
  assert.deepEqual([...types.values()].filter((t) => t.date).map((t) => [t.code, t.format]), [["DATETEMPLATE", "MM/DD/YYYY"], ["COMMISSIONEXPIRATIONTEMPLATE", "MM/DD/YYYY"]]);
  assert.deepEqual([...types.values()].filter((t) => t.state).map((t) => t.code), ["NOTARYSTATETEMPLATE"]);
  assert.deepEqual(readTagTypes(""), new Map(), "a viewer without the attribute knows no types");
});
