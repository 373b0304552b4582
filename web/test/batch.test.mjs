import { test } from "node:test";
import assert from "node:assert/strict";
import { batchBody, batchError } from "../src/editor/batch.mjs";
import { SaveError } from "../src/editor/problem.mjs";
import { sendBatch } from "../src/editor/server.mjs";
import "./english.mjs"; // the editor speaks English in these tests

const tag = { type: "SIGNATURETEMPLATE", signerId: "p1", page: 2, x: 72, y: 100, width: 150, height: 30, required: true, dateFormat: "", stateFormat: "", fontSize: "" };

test("batchBody sends numbers as numbers and required as a boolean", () => {
  const body = JSON.parse(
    batchBody({
      create: [{ ...tag, documentPosition: 0 }, { ...tag, type: "DATETEMPLATE", documentPosition: "1", page: "3", x: "10.5", required: "false", dateFormat: "MM/dd/yyyy", fontSize: "12" }],
      update: [{ ...tag, id: "t_a", signerId: "", required: false, fontSize: 9 }],
      delete: ["t_b", { id: "t_c" }],
    }),
  );
  assert.deepEqual(body.create[0], { documentPosition: 0, type: "SIGNATURETEMPLATE", signerId: "p1", page: 2, x: 72, y: 100, width: 150, height: 30, required: true });
  assert.deepEqual(body.create[1], {
    documentPosition: 1, type: "DATETEMPLATE", signerId: "p1", page: 3, x: 10.5, y: 100, width: 150, height: 30, required: false, dateFormat: "MM/dd/yyyy", fontSize: 12,
  });
  assert.deepEqual(body.update, [{ id: "t_a", type: "SIGNATURETEMPLATE", signerId: "", page: 2, x: 72, y: 100, width: 150, height: 30, required: false, fontSize: 9 }]);
  assert.deepEqual(body.delete, ["t_b", "t_c"]);
  assert.equal("documentPosition" in body.update[0], false, "an update stays in its document");
});

test("batchBody keeps absent lists empty and refuses what the server could only refuse", () => {
  assert.deepEqual(JSON.parse(batchBody({ delete: ["t_a"] })), { create: [], update: [], delete: ["t_a"] });
  assert.throws(() => batchBody({ create: [{ ...tag, documentPosition: 0, x: "left" }] }), /create\[0\]\.x must be a finite number/);
  assert.throws(() => batchBody({ create: [{ ...tag, documentPosition: 0, width: NaN }] }), /create\[0\]\.width/);
  assert.throws(() => batchBody({ create: [{ ...tag, documentPosition: 0, y: "" }] }), /create\[0\]\.y/);
  assert.throws(() => batchBody({ create: [{ ...tag, documentPosition: -1 }] }), /documentPosition/);
  assert.throws(() => batchBody({ update: [{ ...tag }] }), /update\[0\]\.id must be a tag id/);
  assert.throws(() => batchBody({ delete: [""] }), /delete\[0\]/);
});

test("batchError keeps the status and the server's words", () => {
  const e = batchError(422, JSON.stringify({ status: 422, detail: "Tags cannot be placed.", errors: [{ pointer: "#/create/3/x", code: "outside_page", detail: "The tag does not lie inside page 2." }] }));
  assert.ok(e instanceof SaveError);
  assert.equal(e.status, 422);
  assert.equal(e.message, "The tag does not lie inside page 2.");
  assert.equal(e.fields[0].pointer, "#/create/3/x");
  const page = batchError(502, "<html>Bad gateway</html>");
  assert.equal(page.status, 502);
  assert.match(page.message, /502; none of the changes was saved/);
});

test("sendBatch posts JSON with the CSRF token and rejects a refusal with a SaveError", async (t) => {
  const calls = [];
  t.mock.method(globalThis, "fetch", async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify({ status: 404, detail: "Unknown tags.", errors: [{ pointer: "#/delete/0", code: "unknown_tag", detail: 'No tag of this room has the id "t_x".' }] }), {
      status: 404,
      headers: { "Content-Type": "application/problem+json" },
    });
  });
  await assert.rejects(sendBatch("/rooms/r1/tags/batch", "tok", { delete: ["t_x"] }), (e) => e instanceof SaveError && e.status === 404 && e.fields[0].pointer === "#/delete/0");
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, "/rooms/r1/tags/batch");
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.headers["Content-Type"], "application/json");
  assert.equal(calls[0].init.headers["X-CSRF-Token"], "tok");
  assert.deepEqual(JSON.parse(calls[0].init.body), { create: [], update: [], delete: ["t_x"] });
});

test("sendBatch tells an unreachable server apart from an abort", async (t) => {
  t.mock.method(globalThis, "fetch", async () => {
    throw new TypeError("Failed to fetch");
  });
  await assert.rejects(sendBatch("/b", "tok", { delete: ["t_a"] }), (e) => e instanceof SaveError && e.status === 0);
  t.mock.restoreAll();
  const ctl = new AbortController();
  ctl.abort();
  t.mock.method(globalThis, "fetch", async (_url, init) => {
    init.signal.throwIfAborted();
    return new Response("");
  });
  await assert.rejects(sendBatch("/b", "tok", { delete: ["t_a"] }, { signal: ctl.signal }), (e) => e.name === "AbortError");
});

test("batchBody names the suggested field a create accepts, and only then", () => {
  const body = JSON.parse(batchBody({
    create: [
      { documentPosition: 0, type: "SIGNATURETEMPLATE", signerId: "p1", page: 1, x: 72, y: 90, width: 180, height: 20, required: true, suggestion: "SIGNATURETEMPLATE@72,90,180,20" },
      { documentPosition: 0, type: "DATETEMPLATE", signerId: "p1", page: 1, x: 300, y: 90, width: 90, height: 20, required: true, dateFormat: "MM/DD/YYYY" },
    ],
  }));
  assert.equal(body.create[0].suggestion, "SIGNATURETEMPLATE@72,90,180,20");
  assert.equal("suggestion" in body.create[1], false);
});
