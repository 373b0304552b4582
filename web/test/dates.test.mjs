import { test } from "node:test";
import assert from "node:assert/strict";
import { formatDate, ordinal } from "../src/editor/dates.mjs";

test("every date format of the OpenAPI DateFormat enum", () => {
  const d = new Date(2026, 10, 22); // Sunday 22 November 2026
  const want = {
    "MM/DD/YYYY": "11/22/2026", "DD/MM/YYYY": "22/11/2026", "MM/DD/YY": "11/22/26", "DD/MM/YY": "22/11/26",
    "MMMM do, yyyy": "November 22nd, 2026", "MMMM do": "November 22nd", full: "Sunday, November 22, 2026",
    MMMM: "November", do: "22nd", yyyy: "2026", YYYY: "2026",
  };
  for (const [f, s] of Object.entries(want)) assert.equal(formatDate(d, f), s, f);
  assert.equal(formatDate(d, "nonsense"), "");
});

test("ordinals", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31, 101, 111].map(ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "31st", "101st", "111th"]);
});
