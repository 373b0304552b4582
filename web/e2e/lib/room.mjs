// Opening a room in a browser test, in one place (docs/testing.md, "Browser
// tests"): a fresh page, its console problems collected from before the
// load, the room's URL, and a wait until a page of the document is drawn
// (the viewer's `.viewer-page--rendered` marker). Two drivers, one module:
//
//   - openRoom(browser, url, …): playwright-core (the Chromium-only files);
//   - enginePages(() => browser): the engines*.test.mjs files, which drive
//     Chromium, Firefox or WebKit through ./engine.mjs.
//
// And the waits that replace fixed sleeps: viewerIdle (the viewer has drawn
// every page and thumbnail it wants), savesDrawn (every save's answer is
// swapped in and settled), clickable (a sliding sheet has come to rest).
import assert from "node:assert/strict";
import { watchProblems } from "./server.mjs";
import { engine, SAVING } from "./engine.mjs";

/** The window most tests use. */
export const DESKTOP = { width: 1440, height: 900 };

const RENDERED = ".viewer-page--rendered";

/**
 * playwright-core: opens url in a fresh page of context (by default a new
 * context with the given viewport) and waits until a page is drawn. Resolves
 * with {page, problems, ctx}: problems collects console errors and warnings
 * and uncaught errors from before the page loads (server.mjs's watchProblems).
 */
export async function openRoom(browser, url, { context, viewport = DESKTOP } = {}) {
  const ctx = context || (await browser.newContext({ viewport }));
  const page = await ctx.newPage();
  const problems = watchProblems(page);
  await page.goto(url);
  await page.locator(RENDERED).first().waitFor();
  return { page, problems, ctx };
}

/**
 * playwright-core: waits until the viewer is idle: no render scheduled or
 * running, no page waiting to render and no other drawing (thumbnails) queued
 * (web/src/editor/viewer.mjs: pending, rendering, wanted, tasks). Two
 * animation frames first, so that a scroll or zoom just made has reached the
 * viewer's observers.
 */
export async function viewerIdle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(() => {
    const v = window.markupRoomViewer;
    return v && !v.pending && !v.rendering && v.wanted.size === 0 && v.tasks.length === 0;
  });
}

/**
 * playwright-core: waits until every save the page made is drawn — no tag
 * shows the editor's guess (tag--pending) and htmx is neither requesting,
 * swapping nor settling. A save's response arrives before htmx swaps it in
 * and, for an element that keeps its id, before its new attributes settle
 * (20 ms later): a test that reads the page after the response reads this.
 */
export async function savesDrawn(page) {
  await page.waitForFunction((sel) => !document.querySelector(sel), SAVING);
}

/**
 * playwright-core: picks a zoom in the toolbar ("fit" or a factor such as "1.25") and waits until
 * the viewer has applied it (its pages laid out at the new scale: viewer.mjs's setZoom).
 */
export async function setZoom(page, value) {
  await page.getByLabel("Zoom", { exact: true }).selectOption(value);
  await page.waitForFunction(
    (z) => {
      const v = window.markupRoomViewer;
      return z === "fit" ? v.fit : !v.fit && Math.abs(v.zoom - Number(z)) < 1e-6;
    },
    value,
  );
}

/**
 * The engines' side (./engine.mjs): the pages a test file opens on
 * getBrowser()'s engine, so that a page a failed test left open is closed
 * before the next test (WebKit drives one page at a time). Call
 * `afterEach(pages.closeAll)` once in the file.
 *
 *   newPage(size): a fresh page of that size (its viewport checked);
 *   openRoom(url, size = DESKTOP): newPage, then url, then a drawn page;
 *   closeAll(): closes what is still open.
 *
 * The page objects collect console problems themselves (page.problems()).
 */
export function enginePages(getBrowser) {
  const open = new Set();
  async function newPage(size) {
    const page = await getBrowser().newPage(size);
    const close = page.close;
    page.close = async () => {
      open.delete(page);
      await close();
    };
    open.add(page);
    if (size) assert.deepEqual(await page.viewport(), size, `${engine}: the viewport`);
    return page;
  }
  return {
    newPage,
    async openRoom(url, size = DESKTOP) {
      const page = await newPage(size);
      await page.goto(url);
      await page.waitForSelector(RENDERED);
      return page;
    },
    async closeAll() {
      for (const p of open) await p.close().catch(() => {});
      open.clear();
    },
  };
}

/** Engines: fails on console errors and warnings, uncaught errors and CSP violations the page saw (but those allowed(p) says). */
export async function assertNoProblems(page, allowed = () => false) {
  const problems = (await page.problems()).filter((p) => !allowed(p));
  assert.deepEqual(problems, [], `${engine}: console problems`);
}

/** Engines: assertNoProblems, and no red status message in the room. */
export async function assertClean(page, allowed = () => false) {
  await assertNoProblems(page, allowed);
  const status = await page.eval(() => {
    const el = document.querySelector("[data-save-status]");
    return el ? { kind: el.dataset.kind || "", text: el.textContent.trim() } : null;
  });
  if (status) assert.notEqual(status.kind, "error", `${engine}: red status "${status.text}"`);
}

/**
 * Engines: waits until the element matching sel takes a click at its centre
 * and has stopped moving (a sheet has slid in or out): the same place on two
 * polls 150 ms apart, and the element itself under its centre.
 */
export function clickable(page, sel, message = `${sel} takes a click`) {
  return page.waitFor(
    (sel) => {
      const el = document.querySelector(sel);
      const r = el?.getBoundingClientRect();
      if (!r || !r.width) return false;
      const at = `${Math.round(r.left)},${Math.round(r.top)}`;
      const still = window.__e2eLastAt === at; // not sliding any more
      window.__e2eLastAt = at;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return still && !!hit && el.contains(hit);
    },
    sel,
    { message, interval: 150 },
  );
}

/**
 * Creates the e-signature session from the open session dialog on an
 * engine page (engine.mjs) once its check is in and nothing blocks
 * ([data-checklist][data-ready]): its button, then, when the check warns
 * (the form asks once, data-confirm), "Create anyway" in the page's
 * confirm dialog.
 */
export async function createSession(page) {
  await page.waitForSelector("#session-dialog [data-checklist][data-ready]", { visible: true, timeout: 30000 });
  const asks = await page.eval(() => document.querySelector("#session-complete-form").hasAttribute("data-confirm"));
  await page.click("#session-dialog [data-control='confirm-create-session']");
  if (!asks) return;
  await page.waitForSelector("[data-confirm-dialog][open] [data-confirm-ok]", { visible: true });
  await page.click("[data-confirm-dialog][open] [data-confirm-ok]");
}
