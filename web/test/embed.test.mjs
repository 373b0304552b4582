import { test } from "node:test";
import assert from "node:assert/strict";
import { createEmbed, tagCounts } from "../src/editor/embed.mjs";
import { roomSessionHeaders } from "../src/editor/server.mjs";

/** A stand-in for the room's document: one .room element with dataset, tags and participants. */
function fakeDocument({ origin = "", event = "", tags = [], participants = [] } = {}) {
  const dataset = { roomId: "r1", transactionId: "t1" };
  if (origin) dataset.embedOrigin = origin;
  if (event) dataset.embedEvent = event;
  const room = { dataset, querySelector: () => ({ textContent: " open " }) };
  return {
    room,
    querySelector: (sel) => (sel.startsWith(".room") ? room : null),
    querySelectorAll: (sel) => {
      if (sel === ".tag[data-tag-id]") return tags.map((signerId) => ({ dataset: { tagId: "x", signerId } }));
      if (sel === "[data-participant-id]") {
        return participants.map(([id, name]) => ({ dataset: { participantId: id }, querySelector: () => ({ textContent: name }) }));
      }
      return [];
    },
  };
}

/** A framed window: its parent records what it is sent. */
function fakeWindow(href = "http://127.0.0.1/rooms/r1?room_session=s") {
  const sent = [];
  const win = {
    parent: { postMessage: (data, origin) => sent.push({ data, origin }) },
    location: { href },
    history: { state: null, replaceState: (_s, _t, url) => (win.location.href = "http://127.0.0.1" + url) },
  };
  return { win, sent };
}

test("an embedded, framed room posts ready and completed once, to its origin only", () => {
  const { win, sent } = fakeWindow("http://127.0.0.1/rooms/r1?room_session=s&embed_event=completed");
  const doc = fakeDocument({ origin: "http://localhost:5173", event: "completed" });
  const embed = createEmbed(win, doc);
  embed.ready();
  embed.ready(); // a restart of the editor after a room swap
  assert.deepEqual(
    sent.map((m) => [m.data.type, m.origin]),
    [
      ["ready", "http://localhost:5173"],
      ["completed", "http://localhost:5173"],
    ],
  );
  assert.deepEqual(sent[0].data, { source: "markuproom", type: "ready", roomId: "r1", transactionId: "t1", detail: { status: "open" } });
  assert.equal(win.location.href, "http://127.0.0.1/rooms/r1?room_session=s", "a reload does not complete again");
});

test("a room without an embed origin, or not framed, posts nothing", () => {
  const plain = fakeWindow();
  createEmbed(plain.win, fakeDocument()).post("error", { message: "x" });
  assert.equal(plain.sent.length, 0);
  const top = fakeWindow();
  top.win.parent = top.win; // the room is the top window
  top.win.postMessage = () => assert.fail("posted to itself");
  assert.equal(createEmbed(top.win, fakeDocument({ origin: "https://app.example" })).post("ready"), false);
});

test("saves close together post one changed with the tags counted per participant", async () => {
  const { win, sent } = fakeWindow();
  const doc = fakeDocument({ origin: "https://app.example", tags: ["p1", "p1", "p2", ""], participants: [["p1", "Pat"], ["p2", "Robin"], ["p3", "Sam"]] });
  const embed = createEmbed(win, doc);
  embed.changed();
  embed.changed();
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(sent.length, 1);
  assert.equal(sent[0].data.type, "changed");
  assert.deepEqual(sent[0].data.detail, tagCounts(doc));
  assert.deepEqual(sent[0].data.detail, {
    tags: 4,
    unassigned: 1,
    participants: [
      { id: "p1", name: "Pat", tags: 2 },
      { id: "p2", name: "Robin", tags: 1 },
      { id: "p3", name: "Sam", tags: 0 },
    ],
  });
});

test("roomSessionHeaders sends an embedded page's session, and nothing elsewhere", () => {
  const page = (content) => ({ querySelector: (sel) => (sel === 'meta[name="room-session"]' && content ? { content } : null) });
  assert.deepEqual(roomSessionHeaders(page("abc")), { "X-Room-Session": "abc" });
  assert.deepEqual(roomSessionHeaders(page("")), {});
});

test("roomSessionHeaders sends an embedded page's chosen language with its session", () => {
  const metas = { 'meta[name="room-session"]': { content: "abc" }, 'meta[name="markup-lang"]': { content: "es" } };
  const page = { querySelector: (sel) => metas[sel] || null };
  assert.deepEqual(roomSessionHeaders(page), { "X-Room-Session": "abc", "X-Markup-Lang": "es" });
});
