import { test } from "node:test";
import assert from "node:assert/strict";
import { followRoom, GATHER_MS, readEvent, ROOM_EVENT_TYPES, userBusy } from "../src/editor/live.mjs";

/** A stand-in EventSource: the test dispatches events to its listeners. */
class FakeSource {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.listeners = new Map();
    this.closed = false;
  }
  addEventListener(type, fn) {
    this.listeners.set(type, [...(this.listeners.get(type) || []), fn]);
  }
  emit(type, fields = {}) {
    for (const fn of this.listeners.get(type) || []) fn({ type, ...fields });
  }
  send(type, seq, client = "other") {
    this.emit(type, { lastEventId: String(seq), data: JSON.stringify({ session: "s", client, data: {} }) });
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

/** A room document: .room with data-events-url and data-event-seq; busy(sel) marks a selector as present. */
function fakeRoom(seq = 5) {
  const room = { dataset: { eventsUrl: "/rooms/r1/events?lastEventId=5", eventSeq: String(seq) } };
  const status = { textContent: "", hidden: true };
  const present = new Set();
  const listeners = new Map();
  const doc = {
    room,
    status,
    present,
    activeElement: null,
    querySelector: (sel) => {
      if (sel.startsWith(".room")) return room;
      if (sel === "[data-live-status]") return status;
      return present.has(sel) ? {} : null;
    },
    addEventListener: (type, fn) => listeners.set(type, [...(listeners.get(type) || []), fn]),
    fire: (type) => (listeners.get(type) || []).forEach((fn) => fn({})),
  };
  return doc;
}

/** Timers the test runs by hand. */
function fakeWindow() {
  let next = 1;
  const timers = new Map();
  return {
    location: { href: "http://127.0.0.1/rooms/r1" },
    setTimeout: (fn, ms) => (timers.set(next, { fn, ms }), next++),
    clearTimeout: (id) => timers.delete(id),
    /** Runs every timer due now (and those they set), in order. */
    async run() {
      while (timers.size) {
        const [id, { fn }] = timers.entries().next().value;
        timers.delete(id);
        await fn();
      }
    },
    /** Runs the first timer only. */
    async step() {
      const [id, { fn }] = timers.entries().next().value;
      timers.delete(id);
      await fn();
    },
    pending: () => [...timers.values()].map((t) => t.ms),
  };
}

function follow(doc, win) {
  const sources = [];
  const reads = [];
  const net = { client: "mine", canStream: true, stream: (url) => (sources.push(new FakeSource(url)), sources.at(-1)) };
  const live = followRoom(doc, {
    net,
    win,
    reload: async () => {
      reads.push(doc.room.dataset.eventSeq);
      doc.room.dataset.eventSeq = String(Number(doc.room.dataset.eventSeq) + 100); // the room as it is now
    },
  });
  return { live, sources, reads };
}

test("readEvent reads the stream's JSON and nothing else", () => {
  assert.deepEqual(readEvent('{"session":"a","client":"b","data":{}}'), { session: "a", client: "b", data: {} });
  assert.equal(readEvent("not json"), null);
  assert.equal(readEvent("3"), null);
});

test("a burst of other windows' events is one read of the room, after a short wait; this page's own are not", async () => {
  const doc = fakeRoom(5);
  const win = fakeWindow();
  const { sources, reads } = follow(doc, win);
  assert.equal(sources.length, 1);
  assert.equal(sources[0].url, "/rooms/r1/events?lastEventId=5");
  for (const type of ROOM_EVENT_TYPES.filter((t) => !t.startsWith("room_"))) assert.ok(sources[0].listeners.has(type), type);

  sources[0].send("tag_updated", 6, "mine");
  assert.deepEqual(win.pending(), [], "its own change reads nothing");
  sources[0].send("tag_created", 7);
  sources[0].send("tag_updated", 8);
  sources[0].send("page_moved", 9);
  assert.deepEqual(win.pending(), [GATHER_MS], "one read for the burst");
  await win.run();
  assert.deepEqual(reads, ["5"]);
});

test("an event the markup already shows reads nothing (a room change's own answer)", async () => {
  const doc = fakeRoom(12);
  const win = fakeWindow();
  const { sources, reads } = follow(doc, win);
  sources[0].send("document_added", 12);
  await win.run();
  assert.deepEqual(reads, []);
  sources[0].send("tag_deleted", 13);
  await win.run();
  assert.deepEqual(reads, ["12"]);
});

test("the read waits while the user drags, saves or has a dialog open, and happens when they are done", async () => {
  const doc = fakeRoom(1);
  const win = fakeWindow();
  const { sources, reads } = follow(doc, win);
  doc.present.add(".tag--pending, .tag--dragging, .htmx-request, .room dialog[open], .room details[open] > form"); // (a save on its way, say)
  sources[0].send("tag_updated", 2);
  assert.equal(win.pending().length, 1);
  await win.step(); // the gather timer: busy, so it looks again later
  assert.deepEqual(reads, []);
  assert.equal(win.pending().length, 1, "it looks again");
  doc.present.clear();
  await win.run();
  assert.deepEqual(reads, ["1"]);
});

test("userBusy: a typed-in field of the room is busy, the toolbar's zoom is not", () => {
  const doc = fakeRoom();
  const field = { closest: (sel) => (sel === ".room" ? {} : null), matches: () => true };
  doc.activeElement = field;
  assert.equal(userBusy(doc, false), true);
  const zoom = { closest: () => ({}), matches: () => true }; // inside the room and inside the toolbar
  doc.activeElement = zoom;
  assert.equal(userBusy(doc, false), false);
  doc.activeElement = null;
  assert.equal(userBusy(doc, false), false);
  assert.equal(userBusy(doc, true), true, "a pressed pointer (a drag starting) is busy");
});

test("reset reads the room whatever the numbers say; the room's last event reads it and closes the stream", async () => {
  const doc = fakeRoom(50);
  const win = fakeWindow();
  const { sources, reads } = follow(doc, win);
  sources[0].emit("reset", { lastEventId: "40", data: "{}" });
  await win.run();
  assert.deepEqual(reads, ["50"]);
  sources[0].send("room_completed", 151, "mine");
  await win.run();
  assert.deepEqual(reads, ["50", "150"], "its own completion reads the room too");
  assert.equal(sources[0].closed, true);
});

test("a lost connection says Reconnecting… after a moment, and nothing once it is back", async () => {
  const doc = fakeRoom();
  const win = fakeWindow();
  const { sources } = follow(doc, win);
  sources[0].readyState = 0; // CONNECTING: EventSource tries again itself
  sources[0].emit("error");
  await win.run();
  assert.equal(doc.status.hidden, false);
  assert.equal(doc.status.textContent, "editor.live.reconnecting");
  sources[0].emit("open");
  assert.equal(doc.status.hidden, true);
  doc.fire("htmx:afterSettle");
  assert.equal(doc.status.hidden, true, "a rebuilt room says the same");
});

test("a refused stream (closed by the browser) is asked for again a little later, and the room read", async () => {
  const doc = fakeRoom(3);
  const win = fakeWindow();
  const { sources, reads } = follow(doc, win);
  sources[0].readyState = 2;
  sources[0].emit("error");
  await win.run();
  assert.equal(sources.length, 2, "a new stream");
  assert.deepEqual(reads, ["3"], "the room read: what it missed while refused");
});

test("while the pre-send check is open, it is run again on what others changed; the room is read once it closes", async () => {
  const doc = fakeRoom(1);
  const win = fakeWindow();
  const parts = [];
  const button = { getAttribute: (name) => (name === "hx-get" ? "/rooms/r1/checklist" : null) };
  const q = doc.querySelector;
  doc.querySelector = (sel) => (sel === "#session-dialog[open]" ? (doc.checkOpen ? {} : null) : sel === '[data-control="create-session"]' ? button : q(sel));
  doc.checkOpen = true;
  doc.present.add(".tag--pending, .tag--dragging, .htmx-request, .room dialog[open], .room details[open] > form");
  const sources = [];
  const reads = [];
  followRoom(doc, {
    net: { client: "mine", canStream: true, stream: (url) => (sources.push(new FakeSource(url)), sources.at(-1)), reloadPart: (url, target) => parts.push([url, target]) },
    win,
    reload: async () => {
      reads.push("room");
      doc.room.dataset.eventSeq = "2"; // the room as it is now
    },
  });
  sources[0].send("participant_removed", 2);
  await win.step();
  await win.step();
  assert.deepEqual(parts, [["/rooms/r1/checklist", "#session-checklist"]], "run again once for that change");
  assert.deepEqual(reads, []);
  doc.checkOpen = false;
  doc.present.clear();
  await win.run();
  assert.deepEqual(reads, ["room"]);
});
