import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { labelMode, tagText, TAG_ICONS, PARTS } from "../src/editor/taglabel.mjs";

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

test("tagText: a date tag previews today in its format (default MM/DD/YYYY); others say their type", () => {
  const today = new Date(2026, 10, 24);
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date", today }), "11/24/2026");
  assert.equal(tagText({ type: "DATETEMPLATE", label: "Date", dateFormat: "MMMM do, yyyy", today }), "November 24th, 2026");
  assert.equal(tagText({ type: "COMMISSIONEXPIRATIONTEMPLATE", label: "Commission expiration", dateFormat: "DD/MM/YY", today }), "24/11/26");
  assert.equal(tagText({ type: "INITIALSTEMPLATE", label: "Initials", today }), "Initials");
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
