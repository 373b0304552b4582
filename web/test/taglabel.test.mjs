import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { labelMode, tagText, tagTexts, formatName, TAG_ICONS, PARTS } from "../src/editor/taglabel.mjs";

test("labelMode: icon, name and initials when they fit; icon and initials when not; never a cut name", () => {
  const base = { textWidth: 50, initialsWidth: 20 };
  const full = PARTS.pad + PARTS.icon + PARTS.gap + 50 + PARTS.gap + 20;
  assert.equal(labelMode({ ...base, width: full }), "full");
  assert.equal(labelMode({ ...base, width: full - 1 }), "text", "the words before the icon");
  assert.equal(labelMode({ ...base, width: full - PARTS.icon - PARTS.gap }), "text");
  assert.equal(labelMode({ ...base, width: full - PARTS.icon - PARTS.gap - 1 }), "compact");
  assert.equal(labelMode({ ...base, width: PARTS.pad + PARTS.icon + PARTS.gap + 20 }), "compact");
  assert.equal(labelMode({ ...base, width: PARTS.pad + PARTS.icon + PARTS.gap + 19 }), "mini");
  // A required marker needs its room too.
  assert.equal(labelMode({ ...base, width: full, required: true }), "text");
  // Unassigned: no initials to keep.
  assert.equal(labelMode({ textWidth: 50, width: PARTS.pad + PARTS.icon + PARTS.gap + 50 }), "full");
});

test("tagText: a date tag says what it holds and its format (default MM/DD/YYYY), never a date; others say their type", () => {
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date" }), "Date signed · MM/DD/YYYY");
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date", dateFormat: "MMMM do, yyyy" }), "Date signed · MMMM do, yyyy");
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date", dateFormat: "full" }), "Date signed · full date");
  assert.equal(tagText({ type: "COMMISSIONEXPIRATIONTEMPLATE", label: "Commission expiration", dateFormat: "DD/MM/YY" }), "Commission expiration · DD/MM/YY");
  assert.equal(tagText({ type: "INITIALSTEMPLATE", label: "Initials" }), "Initials");
  // A narrow tag falls back to the format alone, still no date.
  assert.deepEqual(tagTexts({ type: "DATETEMPLATE", label: "Date", dateFormat: "DD/MM/YYYY" }), ["Date signed · DD/MM/YYYY", "DD/MM/YYYY"]);
  assert.deepEqual(tagTexts({ type: "SIGNATURETEMPLATE", label: "Signature" }), ["Signature"]);
  for (const f of ["", "MM/DD/YYYY", "DD/MM/YYYY", "MM/DD/YY", "DD/MM/YY", "MMMM do, yyyy", "full", "MMMM", "do", "yyyy", "YYYY", "MMMM do"]) {
    for (const text of tagTexts({ type: "DATETEMPLATE", label: "Date", dateFormat: f })) assert.doesNotMatch(text, /\d/, `${f}: "${text}" reads as a fixed date`);
  }
  assert.equal(formatName(""), "MM/DD/YYYY");
});

test("tagText says what the server's templates.TagText says (the same words on a tag drawn by either)", () => {
  const go = readFileSync(new URL("../../templates/viewer_views.go", import.meta.url), "utf8");
  assert.match(go, /var dateWords = map\[string\]string\{"DATETEMPLATE": "Date signed"\}/);
  assert.match(go, /case "":\s+format = "MM\/DD\/YYYY"\s+case "full":\s+format = "full date"/);
  assert.match(go, /return words \+ " · " \+ format/);
});

test("every tag type of the models has an icon drawn in static/img/tags.svg", () => {
  const enums = readFileSync(new URL("../../models/transaction_enums.go", import.meta.url), "utf8");
  const codes = [...enums.matchAll(/\{"([A-Z]+)", "[^"]+", TagGroup/g)].map((m) => m[1]);
  assert.equal(codes.length, 18);
  const sprite = readFileSync(new URL("../../static/img/tags.svg", import.meta.url), "utf8");
  const palette = readFileSync(new URL("../../handlers/room_palette.go", import.meta.url), "utf8");
  for (const code of codes) {
    assert.ok(TAG_ICONS[code], `${code} has no icon`);
    assert.ok(sprite.includes(`<symbol id="${TAG_ICONS[code]}"`), `${code}: #${TAG_ICONS[code]} is not in the sprite`);
    assert.match(palette, new RegExp(`"${code}":\\s+\\{"${TAG_ICONS[code]}"`), `${code}: the palette uses another icon`);
  }
});
