import { test } from "node:test";
import assert from "node:assert/strict";
import { colourOf, createPresence, initials, personName, PRESENCE_COLOURS } from "../src/editor/presence.mjs";

test("a person is named after the sender when first, else Guest n; initials and colours follow", () => {
  assert.equal(personName(1, "Sam Sender"), "Sam Sender");
  assert.equal(personName(3, "Sam Sender"), "editor.presence.guest"); // (no catalog outside a page: the id)
  assert.equal(initials("Sam Sender"), "SS");
  assert.equal(initials("Guest 2"), "G2");
  assert.equal(initials("  ضيف 2 "), "ض2");
  assert.equal(initials("Émile"), "É");
  assert.equal(colourOf(1), "presence-c0");
  assert.equal(colourOf(PRESENCE_COLOURS + 1), "presence-c0");
  assert.equal(colourOf(2), "presence-c1");
});

test("this page's selection is sent once it settles, and only when it changed", async () => {
  const sent = [];
  const timers = [];
  const win = { setTimeout: (fn) => (timers.push(fn), timers.length), clearTimeout: (id) => (timers[id - 1] = null) };
  const box = { dataset: { presenceUrl: "/rooms/r1/presence" } };
  const doc = { querySelector: (sel) => (sel === "[data-presence]" ? box : null), addEventListener: () => {} };
  const net = { sendPresence: async (url, ids) => sent.push([url, ids]) };
  const p = createPresence(doc, { net, win });
  p.selected(["a"]);
  p.selected(["a", "b"]);
  for (const fn of timers.splice(0)) fn?.();
  assert.deepEqual(sent, [["/rooms/r1/presence", ["a", "b"]]], "one send, the settled selection");
  p.selected(["a", "b"]);
  for (const fn of timers.splice(0)) fn?.();
  assert.equal(sent.length, 1, "the same selection is not sent again");
  p.selected([]);
  for (const fn of timers.splice(0)) fn?.();
  assert.deepEqual(sent.at(-1), ["/rooms/r1/presence", []]);
});
