// Browser test of the batch client (web/src/editor/batch.mjs, sent by server.mjs) against the real
// server: the module, bundled as the editor's build does, runs in a room page
// with the page's own cookies and CSRF token; one batch creates, updates and
// deletes tags, the answer's elements come back in request order, and the
// stored transaction is read back through GET /api/v1/transactions/{id}. A
// refused batch rejects with the server's words and changes nothing. The
// editor UI that calls it is tested by the multi-select tests.
//
// Run: CHROMIUM_PATH=/usr/lib/chromium/chromium node --test --test-concurrency=1 web/e2e/batch.test.mjs
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, watchProblems } from "./lib/server.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let srv, browser, room, bundle;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
  const doc = await srv.upload(mixedPDF(), "Mixed pages");
  room = await srv.room([doc]);
  const out = await build({
    stdin: { contents: 'export * from "./batch.mjs"; export * from "./server.mjs"; export * from "./pagecopy.mjs";', resolveDir: join(repo, "web/src/editor"), loader: "js" },
    bundle: true,
    format: "iife",
    globalName: "batchClient",
    write: false,
    logLevel: "silent",
  });
  bundle = out.outputFiles[0].text;
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

test("one batch creates, updates and deletes tags; a refused one changes nothing", async () => {
  // bypassCSP: the test injects the bundled module as an inline script, which the room's CSP rightly refuses.
  const ctx = await browser.newContext({ bypassCSP: true });
  const page = await ctx.newPage();
  const problems = watchProblems(page);
  await page.goto(room.url);
  await page.locator(".viewer-page").first().waitFor();
  await page.addScriptTag({ content: bundle });
  const tx0 = await srv.transaction(room.transactionId);
  const signer = tx0.participants[0].id;
  const tag = { type: "SIGNATURETEMPLATE", signerId: signer, page: 1, x: 72, y: 100, width: 150, height: 30, required: true };

  // Two tags by batch (copied to pages 1-2 with copyToPage, as the copy dialog does), then one more batch moving one and deleting the other.
  const first = await page.evaluate(async (tag) => {
    const b = window.batchClient;
    const url = document.querySelector("[data-tag-batch-url]").dataset.tagBatchUrl;
    const pageOf = (n) => {
      const el = document.querySelector(`.viewer-page[data-page="${n}"]`);
      return { box: el.dataset.box, rotate: Number(el.dataset.rotate || 0) };
    };
    const { pages } = b.parsePages("1-2", 3);
    const create = pages.map((n) => ({ ...tag, documentPosition: 0, page: n, ...b.copyToPage(tag, pageOf(1), pageOf(n)) }));
    const { created, updated } = await b.sendBatch(url, "", { create });
    return { ids: created.map((el) => el.dataset.tagId), pages: created.map((el) => el.dataset.tagPage), updated: updated.length, url };
  }, tag);
  assert.equal(first.ids.length, 2);
  assert.deepEqual(first.pages, ["1", "2"]);
  assert.equal(first.updated, 0);

  const second = await page.evaluate(
    async ({ url, ids, tag }) => {
      const { created, updated } = await window.batchClient.sendBatch(url, "", {
        create: [{ ...tag, documentPosition: 0, type: "DATETEMPLATE", x: 300, width: 96, height: 20, dateFormat: "MM/DD/YYYY" }],
        update: [{ ...tag, id: ids[0], x: 80.5, y: 120.25 }],
        delete: [ids[1]],
      });
      return { created: created.map((el) => el.dataset.tagType), updated: updated.map((el) => [el.dataset.tagId, el.dataset.x]) };
    },
    { url: first.url, ids: first.ids, tag },
  );
  assert.deepEqual(second.created, ["DATETEMPLATE"]);
  assert.deepEqual(second.updated, [[first.ids[0], "80.5"]]);

  const tx = await srv.transaction(room.transactionId);
  const tags = tx.documents[0].tags;
  assert.equal(tags.length, 2, JSON.stringify(tags));
  assert.ok(tags.some((t) => t.type === "SIGNATURETEMPLATE" && t.x === 80.5 && t.y === 120.25 && t.page === 1));
  assert.ok(tags.some((t) => t.type === "DATETEMPLATE" && t.x === 300 && t.dateFormat === "MM/DD/YYYY"));
  assert.equal(tx.version, tx0.version + 2, "one version per batch");

  // A refusal: the server's words, the status and the pointer; nothing stored.
  const refused = await page.evaluate(
    async ({ url, tag }) => {
      try {
        await window.batchClient.sendBatch(url, "", { create: [{ ...tag, documentPosition: 0 }, { ...tag, documentPosition: 0, x: 5000 }] });
        return null;
      } catch (e) {
        return { name: e.constructor.name, status: e.status, message: e.message, pointers: e.fields.map((f) => f.pointer) };
      }
    },
    { url: first.url, tag },
  );
  assert.ok(refused, "the batch was accepted");
  assert.equal(refused.name, "SaveError");
  assert.ok(refused.status === 400 || refused.status === 422, String(refused.status));
  assert.ok(refused.pointers.some((p) => p.startsWith("#/create/1")), JSON.stringify(refused));
  assert.equal((await srv.transaction(room.transactionId)).documents[0].tags.length, 2);
  assert.deepEqual(problems.filter((p) => !p.includes("422") && !p.includes("400")), []);
  await ctx.close();
});
