import { test } from "node:test";
import assert from "node:assert/strict";
import { SaveError } from "../src/editor/problem.mjs";
import { connect, sendJSON } from "../src/editor/server.mjs";
import "./english.mjs"; // the editor speaks English in these tests

/** A stand-in for the page's document: its csrf-token meta element, counted reads, listeners kept. */
function fakeDocument(token) {
  const doc = { reads: 0, listeners: [] };
  doc.querySelector = (sel) => {
    if (sel !== 'meta[name="csrf-token"]') return null;
    doc.reads++;
    return { content: token };
  };
  doc.addEventListener = (type) => doc.listeners.push(type);
  return doc;
}

const refusedDismissal = {
  status: 422,
  title: "Unprocessable Content",
  detail: "Suggested fields cannot be dismissed.",
  errors: [{ pointer: "#/dismiss/0/key", code: "unknown_suggestion", detail: "Document 1 offers no suggested field s_9 on page 2." }],
};

test("a refused suggestion dismissal rejects with the server's words, not the status", async (t) => {
  const calls = [];
  t.mock.method(globalThis, "fetch", async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(refusedDismissal), { status: 422, headers: { "Content-Type": "application/problem+json" } });
  });
  const doc = fakeDocument("tok-1");
  const net = connect(doc);
  const body = { dismiss: [{ documentPosition: 0, page: 2, key: "s_9" }] };
  await assert.rejects(net.decideSuggestions("/rooms/r1/suggestions", body), (e) => {
    assert.ok(e instanceof SaveError);
    assert.equal(e.status, 422);
    assert.equal(e.message, "Document 1 offers no suggested field s_9 on page 2.");
    assert.doesNotMatch(e.message, /server answered/);
    assert.equal(e.fields[0].code, "unknown_suggestion");
    return true;
  });
  await assert.rejects(net.decideSuggestions("/rooms/r1/suggestions", body), SaveError);
  assert.equal(calls.length, 2);
  assert.equal(calls[0].url, "/rooms/r1/suggestions");
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.headers["X-CSRF-Token"], "tok-1");
  assert.deepEqual(JSON.parse(calls[0].init.body), body);
  assert.equal(doc.reads, 1, "the CSRF token is read once, when the connection is made");
  assert.ok(doc.listeners.includes("htmx:beforeSwap"));
});

test("sendJSON: an answer without a problem body names the status; an unreachable server says so", async (t) => {
  t.mock.method(globalThis, "fetch", async () => new Response("<html>Bad gateway</html>", { status: 502 }));
  await assert.rejects(sendJSON("/s", "tok", {}), (e) => e instanceof SaveError && e.status === 502 && /answered 502; the change was not saved/.test(e.message));
  t.mock.restoreAll();
  t.mock.method(globalThis, "fetch", async () => {
    throw new TypeError("Failed to fetch");
  });
  await assert.rejects(sendJSON("/s", "tok", {}), (e) => e instanceof SaveError && e.status === 0 && /could not be reached/.test(e.message));
  t.mock.restoreAll();
  t.mock.method(globalThis, "fetch", async () => new Response(null, { status: 204 }));
  assert.equal(await sendJSON("/s", "tok", {}), undefined);
});
