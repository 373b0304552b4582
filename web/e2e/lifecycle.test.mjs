// Browser tests of the editor's lifecycle (issue "Markup Room editor III",
// item 5): rebuilding the room after page edits (and their undos) 20 times
// leaves no listener behind on document or window and logs nothing; the
// viewer renders the page most in view first, not the oldest request.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { longPDF, mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, watchProblems } from "./lib/server.mjs";

let srv, browser;

before(async () => {
  srv = await startServer({});
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

/** Counts the live listeners on document and window (added and not yet removed or aborted). */
function countListeners() {
  const entries = [];
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  const watched = (t) => t === window || t === document;
  const captureOf = (opts) => (typeof opts === "boolean" ? opts : !!opts?.capture);
  const find = (t, type, fn, capture) => entries.findIndex((e) => e.target === t && e.type === type && e.fn === fn && e.capture === capture);
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (watched(this) && fn) {
      const capture = captureOf(opts);
      const signal = typeof opts === "object" ? opts?.signal : undefined;
      if (!signal?.aborted && find(this, type, fn, capture) < 0) {
        const entry = { target: this, type, fn, capture };
        entries.push(entry);
        signal?.addEventListener("abort", () => {
          const i = entries.indexOf(entry);
          if (i >= 0) entries.splice(i, 1);
        });
      }
    }
    return add.call(this, type, fn, opts);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, opts) {
    if (watched(this)) {
      const i = find(this, type, fn, captureOf(opts));
      if (i >= 0) entries.splice(i, 1);
    }
    return remove.call(this, type, fn, opts);
  };
  window.liveListeners = () => ({
    document: entries.filter((e) => e.target === document).length,
    window: entries.filter((e) => e.target === window).length,
  });
}

test("rebuilding the room 20 times (page edits and their undos) leaves no listener behind and logs nothing", async () => {
  const doc = await srv.upload(mixedPDF(), "Mixed pages");
  const r = await srv.room([doc]);
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.addInitScript(countListeners);
  const page = await ctx.newPage();
  const problems = watchProblems(page);
  await page.goto(r.url);
  await page.locator(".viewer-page--rendered").first().waitFor();
  const rebuild = async (action) => {
    await page.evaluate(() => (window.markupRoomViewer.stale = true));
    await action();
    await page.waitForFunction(() => window.markupRoomViewer && !window.markupRoomViewer.stale && !window.markupRoomHistory.busy);
    return page.evaluate(() => window.liveListeners());
  };
  const counts = [];
  for (let i = 0; i < 10; i++) {
    counts.push(await rebuild(() => page.locator('.room-thumb[data-page="1"]').getByRole("button", { name: "Move page 1 down" }).click()));
    counts.push(await rebuild(() => page.keyboard.press("Control+z")));
  }
  assert.equal(counts.length, 20);
  for (const c of counts) assert.deepEqual(c, counts[0], `listeners after each rebuild: ${JSON.stringify(counts)}`);
  // The room still works: pages render, and the history holds the ten moves for redo.
  await page.locator(".viewer-page--rendered").first().waitFor();
  assert.equal(await page.evaluate(() => window.markupRoomHistory.redoSize), 1);
  assert.equal((await srv.transaction(r.transactionId)).documents[0].pages, 5);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test("the viewer renders the page most in view first, not the oldest request", async () => {
  const doc = await srv.upload(longPDF(30), "Long");
  const r = await srv.room([doc]);
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  const problems = watchProblems(page);
  await page.goto(r.url);
  await page.locator('.viewer-page[data-page="1"].viewer-page--rendered').waitFor();
  // Record the order pages finish rendering from now on.
  await page.evaluate(() => {
    window.renderedOrder = [];
    new MutationObserver((records) => {
      for (const rec of records) {
        const el = rec.target;
        if (el.classList.contains("viewer-page--rendered") && !rec.oldValue?.includes("viewer-page--rendered")) window.renderedOrder.push(Number(el.dataset.page));
      }
    }).observe(document.querySelector("[data-viewer]"), { subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true });
  });
  // Page 20 fills the view; the last 30 pixels of page 19 show above it (page 19 comes first in the document).
  await page.evaluate(() => {
    const scroller = document.querySelector("[data-viewer]");
    scroller.scrollTop = document.querySelector('.viewer-page[data-page="20"]').offsetTop - 30;
  });
  await page.locator('.viewer-page[data-page="19"].viewer-page--rendered').waitFor();
  await page.locator('.viewer-page[data-page="20"].viewer-page--rendered').waitFor();
  const order = await page.evaluate(() => window.renderedOrder.filter((n) => n >= 18 && n <= 21));
  assert.equal(order[0], 20, `render order ${order}`);
  assert.ok(order.indexOf(20) < order.indexOf(19), `render order ${order}`);
  assert.deepEqual(problems, []);
  await ctx.close();
});
