// A thin adapter over three browser engines, so one test file runs on each:
// Chromium and Firefox through puppeteer-core (Firefox over WebDriver BiDi),
// WebKit (WebKitGTK's MiniBrowser) through selenium-webdriver connected to a
// WebKitWebDriver this module starts. Debian's browsers only: nothing is
// downloaded (no Selenium Manager, no bundled browser).
//
//   ENGINE=chromium|firefox|webkit   (default chromium)
//   WebKit needs a display: run under `xvfb-run -a -s "-screen 0 1280x1024x24"`.
//
// The page object speaks viewport coordinates (rounded to whole pixels on
// every engine, as WebDriver actions need them) and CSS selectors; anything
// richer is done in the page with eval. What each engine lacks is filled in
// inside the page: WebKit has no console or network events, so a hook
// installed after each navigation records console errors, uncaught errors and
// CSP violations, and every engine records htmx's requests (method, path,
// status, answer, times) in the page, which is where save round trips are timed.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { artifacts, chromiumPath } from "./server.mjs";

export const engine = process.env.ENGINE || "chromium";
if (!["chromium", "firefox", "webkit"].includes(engine)) throw new Error(`ENGINE=${engine}: use chromium, firefox or webkit`);

const FIREFOX = process.env.FIREFOX_PATH || "/usr/bin/firefox-esr";
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH || "/usr/bin/WebKitWebDriver";
const MINIBROWSER = process.env.MINIBROWSER_PATH || "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/** Runs in the page after every navigation: records requests, and console problems where the engine cannot report them. */
function installHooks(captureConsole) {
  if (window.__e2e) return;
  const e2e = (window.__e2e = { requests: [], problems: [], lastKey: 0 });
  const text = (args) => args.map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : (() => { try { return JSON.stringify(a); } catch { return String(a); } })())).join(" ");
  if (captureConsole) {
    for (const level of ["error", "warn"]) {
      const orig = console[level].bind(console);
      console[level] = (...args) => {
        e2e.problems.push(`${level === "warn" ? "warning" : "error"}: ${text(args)}`);
        orig(...args);
      };
    }
    window.addEventListener("error", (e) => e2e.problems.push(`pageerror: ${e.message}`));
    window.addEventListener("unhandledrejection", (e) => e2e.problems.push(`pageerror: ${e.reason?.message || e.reason}`));
  }
  document.addEventListener("securitypolicyviolation", (e) => e2e.problems.push(`csp: ${e.violatedDirective} ${e.blockedURI}`));
  document.addEventListener("keydown", () => (e2e.lastKey = performance.now()), true);
  document.addEventListener("pointerdown", () => (e2e.lastKey = performance.now()), true);
  // The editor's batch saves and suggestion decisions go out by fetch, not htmx: those are recorded apart.
  e2e.fetches = [];
  const fetch0 = window.fetch.bind(window);
  window.fetch = async (input, init = {}) => {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (!/\/(tags|suggestions|templates)(\/|$)/.test(url.pathname)) return fetch0(input, init);
    const entry = { method: String(init.method || input.method || "GET").toUpperCase(), path: url.pathname, status: 0 };
    e2e.fetches.push(entry);
    const res = await fetch0(input, init);
    entry.status = res.status;
    return res;
  };
  document.addEventListener("htmx:beforeRequest", (e) => {
    if (e.detail.xhr) e.detail.xhr.__e2eStart = performance.now();
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    const xhr = e.detail.xhr;
    const url = new URL(xhr?.responseURL || e.detail.requestConfig?.path || "", location.href);
    e2e.requests.push({
      method: String(e.detail.requestConfig?.verb || "").toUpperCase(),
      path: e.detail.requestConfig?.path || url.pathname,
      status: xhr?.status || 0,
      body: String(xhr?.responseText || "").slice(0, 4000),
      start: xhr?.__e2eStart ?? 0,
      input: e2e.lastKey,
      end: performance.now(),
    });
  });
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/** What a room shows while a save is not drawn yet: the editor's guess, and htmx at work (room.mjs's savesDrawn too). */
export const SAVING = ".tag--pending, .htmx-request, .htmx-swapping, .htmx-settling";

/** Polls fn (in Node) until it returns a truthy value. */
async function poll(fn, { timeout = 15000, interval = 50, message = "condition" } = {}) {
  const until = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeout} ms waiting for ${message}${last instanceof Error ? `: ${last.message}` : ""}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Launches the engine named by ENGINE; resolves with {engine, newPage({width, height}), close()}. */
export async function launch() {
  return engine === "webkit" ? launchWebKit() : launchPuppeteer();
}

// ---------------------------------------------------------------- puppeteer

async function launchPuppeteer() {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser =
    engine === "firefox"
      ? await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true })
      : await puppeteer.launch({
          executablePath: chromiumPath,
          headless: true,
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
        });
  return {
    engine,
    async newPage({ width = 1440, height = 900 } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height });
      const problems = [];
      page.on("console", (m) => {
        if (m.type() !== "error" && m.type() !== "warn" && m.type() !== "warning") return;
        const url = m.location()?.url;
        const where = m.text().startsWith("Failed to load resource") && url ? ` (${new URL(url).pathname})` : "";
        problems.push(`${m.type() === "error" ? "error" : "warning"}: ${m.text()}${where}`);
      });
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      let dialog = null;
      page.on("dialog", async (d) => {
        const message = d.message();
        if (dialog) {
          dialog.messages.push(message);
          await d.accept();
        } else {
          problems.push(`unexpected dialog: ${message}`);
          await d.dismiss();
        }
      });
      const keys = { ContextMenu: "ContextMenu" };
      return makePage({
        goto: (url) => page.goto(url, { waitUntil: "load" }),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        inject: (source) => page.evaluate(source),
        frameEvaluate: (fn, arg) => {
          const frame = page.mainFrame().childFrames()[0];
          if (!frame) throw new Error("the page has no frame");
          return frame.evaluate(fn, arg);
        },
        move: (x, y, steps = 1) => page.mouse.move(x, y, { steps }),
        down: (button) => page.mouse.down({ button }),
        up: (button) => page.mouse.up({ button }),
        keyDown: (k) => page.keyboard.down(keys[k] || k),
        keyUp: (k) => page.keyboard.up(keys[k] || k),
        async chord(mods, key) {
          for (const m of mods) await page.keyboard.down(m);
          await page.keyboard.press(keys[key] || key);
          for (const m of [...mods].reverse()) await page.keyboard.up(m);
        },
        async gesture(mods, ops) {
          for (const m of mods) await page.keyboard.down(m);
          try {
            for (const [op, x, y, steps] of ops) {
              if (op === "move") await page.mouse.move(x, y, { steps: steps || 1 });
              else if (op === "down") await page.mouse.down({ button: "left" });
              else await page.mouse.up({ button: "left" });
            }
          } finally {
            for (const m of [...mods].reverse()) await page.keyboard.up(m);
          }
        },
        type: (text) => page.keyboard.type(text),
        screenshot: (path) => page.screenshot({ path }),
        nativeProblems: () => problems,
        async acceptDialogs(action) {
          dialog = { messages: [] };
          try {
            await action();
            await poll(() => dialog.messages.length > 0, { message: "a dialog" });
            return dialog.messages;
          } finally {
            dialog = null;
          }
        },
        close: () => context.close(),
      });
    },
    close: () => browser.close(),
  };
}

// ---------------------------------------------------------------- selenium (WebKit)

async function launchWebKit() {
  const { Builder, Key, Button, Origin, until } = await import("selenium-webdriver");
  // A WebKitWebDriver of our own, on a free port (started again when a session will not come).
  let driverProc, server, driverErr;
  const startDriver = async () => {
    const port = await freePort();
    driverErr = "";
    driverProc = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: ["ignore", "ignore", "pipe"] });
    driverProc.stderr.on("data", (c) => (driverErr += c));
    server = `http://127.0.0.1:${port}`;
    await poll(async () => (await fetch(server + "/status")).ok, { timeout: 20000, message: `WebKitWebDriver on ${port} ${driverErr}` });
  };
  await startDriver();
  const capabilities = {
    browserName: "MiniBrowser",
    "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
  };
  // Without a display MiniBrowser hangs silently: the session gets its own deadline.
  const sessionOnce = async (seconds) => {
    let timer;
    const d = await Promise.race([
      new Builder().usingServer(server).withCapabilities(capabilities).build(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no WebKit session within ${seconds} s: is there a display (xvfb-run)?`)), seconds * 1000))),
    ]).finally(() => clearTimeout(timer));
    await d.manage().setTimeouts({ script: 30000, pageLoad: 60000 });
    return d;
  };
  // A session that replaces one (after a right-click) sometimes never came on a busy machine:
  // after 30 s the driver is killed, a new one started and asked once more.
  const session = async (replacing = false) => {
    if (!replacing) return sessionOnce(60);
    try {
      return await sessionOnce(30);
    } catch (err) {
      console.log(`# webkit: ${err.message}; WebKitWebDriver started again`);
      driverProc.kill("SIGKILL");
      await startDriver();
      return sessionOnce(60);
    }
  };
  let driver = await session();
  // A session WebKitWebDriver lost (seen once in CI: "Could not parse script result", then
  // NoSuchSessionError for the rest of the file) is replaced by the next page, so one crash
  // fails one test, not every test after it.
  const lost = (err) => err?.name === "NoSuchSessionError" || /no such session|invalid session id/i.test(err?.message || "");
  // After a right-button press WebKitWebDriver's input state is off for good (its release is
  // sent as the left button's, and later keys come out as if Shift were held): such a page's
  // session is replaced when the page closes.
  let spoiled = false;
  const keys = {
    Control: Key.CONTROL, Shift: Key.SHIFT, Alt: Key.ALT, Meta: Key.META,
    ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT, ArrowUp: Key.ARROW_UP, ArrowDown: Key.ARROW_DOWN,
    Delete: Key.DELETE, Backspace: Key.BACK_SPACE, Escape: Key.ESCAPE, Enter: Key.ENTER, Tab: Key.TAB,
    Home: Key.HOME, End: Key.END, F10: Key.F10, PageDown: Key.PAGE_DOWN, PageUp: Key.PAGE_UP,
  };
  const buttons = { left: Button.LEFT, right: Button.RIGHT, middle: Button.MIDDLE };
  const act = (build) => build(driver.actions({ async: true })).perform();
  let pos = { x: 0, y: 0 };
  let open = false;
  return {
    engine,
    async newPage({ width = 1440, height = 900 } = {}) {
      if (open) throw new Error("the WebKit adapter drives one page at a time");
      if (driver) {
        try {
          await driver.getTitle();
        } catch (err) {
          if (!lost(err)) throw err;
          console.log("# webkit: the session was lost; a new one");
          await driver.quit().catch(() => {});
          driver = null;
        }
      }
      if (!driver) driver = await session(true);
      open = true;
      // The viewport is the window minus MiniBrowser's chrome: size the window, measure, correct.
      // Again after each navigation: the window manager may apply a resize late (seen once in CI:
      // 862 px high after the page loaded where about:blank measured 900).
      // The size must then hold for 100 ms: a late resize landed right after a single good
      // measurement often on a busy machine (900 measured, 862 a moment later).
      const fit = async () => {
        for (let i = 0, good = 0; ; i++) {
          const [w, h] = await driver.executeScript("return [innerWidth, innerHeight]");
          if (w === width && h === height) {
            if (++good === 3) return;
            await driver.sleep(50);
            continue;
          }
          good = 0;
          // Measured while a navigation settles, the viewport can read 0 or a fraction, and the rectangle
          // can be fractional: WebDriver refuses a width that is not a positive whole number ("Invalid
          // width value"), so ask for a whole one and measure again when the reading makes no sense.
          if (i >= 12) throw new Error(`WebKit's viewport is ${w}×${h}, not ${width}×${height}`);
          if (!(w > 0 && h > 0)) {
            await driver.sleep(50 * (i + 1));
            continue;
          }
          const got = await driver.manage().window().getRect();
          const whole = (v, min) => Math.max(min, Math.round(v));
          await driver.manage().window().setRect({ width: whole(got.width + width - w, 200), height: whole(got.height + height - h, 200) });
          await driver.sleep(50 * i); // let a late resize land before measuring again
        }
      };
      try {
        await driver.get("about:blank");
        await driver.manage().window().setRect({ width, height });
        await fit();
      } catch (err) {
        open = false;
        throw err;
      }
      return makePage({
        async goto(url) {
          await driver.get(url);
          await fit();
        },
        evaluate: (fn, arg) => driver.executeScript(`return (${fn}).apply(null, arguments)`, arg === undefined ? null : arg),
        inject: (source) => driver.executeScript(source),
        async frameEvaluate(fn, arg) {
          await driver.switchTo().frame(0);
          try {
            return await driver.executeScript(`return (${fn}).apply(null, arguments)`, arg === undefined ? null : arg);
          } finally {
            await driver.switchTo().defaultContent();
          }
        },
        async move(x, y, steps = 1) {
          const from = pos;
          pos = { x, y };
          await act((a) => {
            for (let i = 1; i <= steps; i++) {
              a = a.move({ x: Math.round(from.x + ((x - from.x) * i) / steps), y: Math.round(from.y + ((y - from.y) * i) / steps), origin: Origin.VIEWPORT, duration: 16 });
            }
            return a;
          });
        },
        async down(button = "left") {
          if (button !== "left") spoiled = true;
          await act((a) => a.press(buttons[button]));
        },
        async up(button = "left") {
          if (button === "left") return act((a) => a.release(buttons[button]));
          // WebKitWebDriver releases any button as the left one (a mouseup with button 0 and a
          // click: https://bugs.webkit.org/show_bug.cgi?id=213060); a user's right-click makes
          // neither, so the page does not get to see those two.
          await driver.executeScript(`
            const swallow = (e) => { if (e.button === 0) { e.stopImmediatePropagation(); e.preventDefault(); } };
            for (const t of ["pointerup", "mouseup", "click"]) window.addEventListener(t, swallow, { capture: true });
            window.__e2eUnswallow = () => { for (const t of ["pointerup", "mouseup", "click"]) window.removeEventListener(t, swallow, { capture: true }); };`);
          try {
            await act((a) => a.release(buttons[button]));
            await driver.actions().clear();
          } finally {
            await driver.executeScript("window.__e2eUnswallow?.()");
          }
        },
        keyDown: (k) => act((a) => a.keyDown(keys[k] ?? k)),
        keyUp: (k) => act((a) => a.keyUp(keys[k] ?? k)),
        async chord(mods, key) {
          // One action chain, then a release of everything: WebKit keeps a modifier pressed
          // across separate chains otherwise (Shift stuck: later typing comes out inverted).
          await act((a) => {
            for (const m of mods) a = a.keyDown(keys[m]);
            a = a.keyDown(keys[key] ?? key).keyUp(keys[key] ?? key);
            for (const m of [...mods].reverse()) a = a.keyUp(keys[m]);
            return a;
          });
          if (mods.length) await driver.actions().clear();
        },
        async gesture(mods, ops) {
          // The modifiers go down in a chain of their own: in one chain with the pointer's actions,
          // WebKit gives them to the first pointermove only (not to pointerdown, later moves, click).
          // Released, and the input state cleared, in the end (else Shift sticks: see chord).
          await act((a) => {
            for (const m of mods) a = a.keyDown(keys[m]);
            return a;
          });
          await act((a) => {
            for (const [op, x, y, steps = 1] of ops) {
              if (op === "move") {
                const from = pos;
                pos = { x, y };
                for (let i = 1; i <= steps; i++) {
                  a = a.move({ x: Math.round(from.x + ((x - from.x) * i) / steps), y: Math.round(from.y + ((y - from.y) * i) / steps), origin: Origin.VIEWPORT, duration: 16 });
                }
              } else if (op === "down") a = a.press(Button.LEFT);
              else a = a.release(Button.LEFT);
            }
            return a;
          });
          await act((a) => {
            for (const m of [...mods].reverse()) a = a.keyUp(keys[m]);
            return a;
          });
          await driver.actions().clear();
        },
        type: (text) => act((a) => a.sendKeys(text)),
        async screenshot(path) {
          writeFileSync(path, Buffer.from(await driver.takeScreenshot(), "base64"));
        },
        nativeProblems: () => [],
        captureConsole: true,
        async acceptDialogs(action) {
          await action();
          await driver.wait(until.alertIsPresent(), 15000);
          const alert = await driver.switchTo().alert();
          const message = await alert.getText();
          await alert.accept();
          // The click that opened the dialog leaves WebKit's input state half done: reset it.
          await driver.actions().clear();
          return [message];
        },
        async close() {
          open = false;
          if (spoiled) {
            spoiled = false;
            await driver.quit().catch(() => {});
            pos = { x: 0, y: 0 };
            driver = null; // (the next page tries again when this fails)
            driver = await session(true);
            return;
          }
          await driver.manage().deleteAllCookies().catch(() => {});
          await driver.get("about:blank").catch(() => {});
        },
      });
    },
    async close() {
      await driver?.quit().catch(() => {});
      driverProc.kill("SIGTERM");
    },
  };
}

// ---------------------------------------------------------------- the page object

function makePage(b) {
  const page = {
    engine,
    /** Opens url and installs the in-page hooks. */
    async goto(url) {
      await b.goto(url);
      await page.hooks();
    },
    /** (Re)installs the in-page hooks (idempotent; needed after every full navigation). */
    hooks: () => b.evaluate(installHooks, Boolean(b.captureConsole)),
    /**
     * Runs a script's source in the page through the driver (CDP, BiDi or
     * WebDriver), which the page's CSP does not govern: how a test loads
     * axe-core into a page that forbids inline scripts and eval.
     */
    inject: (source) => b.inject(source),
    /** Runs fn(arg) in the page (arg and result are JSON). */
    eval: (fn, arg) => b.evaluate(fn, arg),
    /** Runs fn(arg) in the page's first frame (an embedded room), whatever its origin. */
    frameEval: (fn, arg) => b.frameEvaluate(fn, arg),
    /** Waits until fn(arg), run in the page's first frame, is truthy; resolves with its value. */
    frameWaitFor: (fn, arg, opts = {}) => poll(() => b.frameEvaluate(fn, arg), { message: opts.message || String(fn).slice(0, 120), ...opts }),
    /** Waits until fn(arg), run in the page, is truthy; resolves with its value. */
    waitFor: (fn, arg, opts = {}) => poll(() => b.evaluate(fn, arg), { message: opts.message || String(fn).slice(0, 120), ...opts }),
    /** Waits for an element matching sel (visible: with a box and not hidden). */
    waitForSelector: (sel, { visible = false, hidden = false, ...opts } = {}) =>
      poll(
        () =>
          b.evaluate(
            ({ sel, visible, hidden }) => {
              const el = document.querySelector(sel);
              const shown = !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
              if (hidden) return !el || !shown;
              return visible ? shown : !!el;
            },
            { sel, visible, hidden },
          ),
        { message: `${sel}${hidden ? " hidden" : visible ? " visible" : ""}`, ...opts },
      ),
    /** The viewport box of the first element matching sel (null when absent); scroll: "nearest" | "center" | "start". */
    box: (sel, scroll) =>
      b.evaluate(
        ({ sel, scroll }) => {
          const el = document.querySelector(sel);
          if (!el) return null;
          if (scroll) el.scrollIntoView({ block: scroll, inline: "nearest" });
          const r = el.getBoundingClientRect();
          return { x: r.left, y: r.top, width: r.width, height: r.height };
        },
        { sel, scroll },
      ),
    /** Moves the pointer to the viewport point (x, y). */
    move: (x, y, steps) => b.move(Math.round(x), Math.round(y), steps),
    down: (button = "left") => b.down(button),
    up: (button = "left") => b.up(button),
    /**
     * Clicks the viewport point (x, y); modifiers (["Shift"], ["Control"], ["Alt"], ["Meta"])
     * are held through the click (left button only).
     */
    async clickAt(x, y, { button = "left", modifiers = [] } = {}) {
      if (modifiers.length) {
        if (button !== "left") throw new Error("modifiers are held for a left click only");
        return b.gesture(modifiers, [["move", Math.round(x), Math.round(y)], ["down"], ["up"]]);
      }
      await b.move(Math.round(x), Math.round(y));
      await b.down(button);
      await b.up(button);
    },
    /**
     * Clicks the element matching sel, scrolled into view, at offset (from its
     * top-left corner; its centre by default). Resolves with the point clicked,
     * relative to the element (whole viewport pixels, so maybe off by < 1 px).
     */
    async click(sel, { offset, button = "left", modifiers = [] } = {}) {
      await page.waitForSelector(sel, { visible: true });
      const r = await page.reveal(sel, offset);
      const x = Math.round(r.x + (offset ? offset.x : r.width / 2));
      const y = Math.round(r.y + (offset ? offset.y : r.height / 2));
      await page.clickAt(x, y, { button, modifiers });
      return { x: x - r.x, y: y - r.y };
    },
    /**
     * Scrolls the element matching sel so that its point at offset (its centre
     * by default) is in view and not covered; resolves with the element's box.
     * Fails when another element would take the click.
     */
    async reveal(sel, offset) {
      const r = await b.evaluate(
        ({ sel, offset }) => {
          const el = document.querySelector(sel);
          el.scrollIntoView({ block: "nearest", inline: "nearest" });
          const at = () => {
            const r = el.getBoundingClientRect();
            return { r, x: Math.round(r.left + (offset ? offset.x : r.width / 2)), y: Math.round(r.top + (offset ? offset.y : r.height / 2)) };
          };
          let p = at();
          const hit = () => {
            const t = document.elementFromPoint(p.x, p.y);
            return t && (t === el || el.contains(t) || t.contains(el) && false);
          };
          if (!hit()) {
            // Bring the point to the middle of each scrolling ancestor, innermost first.
            for (let s = el.parentElement; s && !hit(); s = s.parentElement) {
              const cs = getComputedStyle(s);
              if (!/(auto|scroll)/.test(cs.overflow + cs.overflowX + cs.overflowY) && s !== document.scrollingElement) continue;
              const sr = s === document.scrollingElement ? { left: 0, top: 0, width: innerWidth, height: innerHeight } : s.getBoundingClientRect();
              s.scrollLeft += p.x - (sr.left + sr.width / 2);
              s.scrollTop += p.y - (sr.top + sr.height / 2);
              p = at();
            }
          }
          const t = document.elementFromPoint(p.x, p.y);
          const ok = !!t && (t === el || el.contains(t));
          return { x: p.r.left, y: p.r.top, width: p.r.width, height: p.r.height, covered: ok ? "" : t ? t.outerHTML.slice(0, 120) : "nothing" };
        },
        { sel, offset: offset || null },
      );
      if (r.covered) throw new Error(`${sel}${offset ? ` at ${offset.x},${offset.y}` : ""} is covered by ${r.covered}`);
      return r;
    },
    /** Presses the pointer at from, moves to to in steps, releases; modifiers (e.g. ["Alt"]) are held throughout. */
    async drag(from, to, { steps = 8, modifiers = [] } = {}) {
      if (modifiers.length) {
        const [fx, fy, tx, ty] = [from.x, from.y, to.x, to.y].map(Math.round);
        return b.gesture(modifiers, [["move", fx, fy], ["down"], ["move", Math.round(from.x + (to.x - from.x) / 4), Math.round(from.y + (to.y - from.y) / 4), 2], ["move", tx, ty, steps], ["up"]]);
      }
      await b.move(Math.round(from.x), Math.round(from.y));
      await b.down("left");
      await b.move(Math.round(from.x + (to.x - from.x) / 4), Math.round(from.y + (to.y - from.y) / 4), 2);
      await b.move(Math.round(to.x), Math.round(to.y), steps);
      await b.up("left");
    },
    /** Presses a key chord such as "Control+z", "Shift+F10", "ArrowRight". */
    async press(chord) {
      const parts = chord === "+" ? ["+"] : chord.split("+");
      const key = parts.pop();
      await b.chord(parts, key);
    },
    /** Types text into the focused element. */
    type: (text) => b.type(text),
    /** Focuses the element matching sel. */
    focus: (sel) => b.evaluate((sel) => document.querySelector(sel).focus(), sel),
    /** Replaces the value of the input matching sel by typing (focus, select all, type). */
    async fill(sel, value) {
      await b.evaluate((sel) => {
        const el = document.querySelector(sel);
        el.focus();
        el.select?.();
      }, sel);
      if (value === "") await b.keyDown("Backspace").then(() => b.keyUp("Backspace"));
      else await b.type(value);
    },
    /** Picks an option of the select matching sel, as a user's choice does (input and change events). */
    select: (sel, value) =>
      b.evaluate(
        ({ sel, value }) => {
          const el = document.querySelector(sel);
          el.focus();
          el.value = value;
          el.dispatchEvent(new Event("input", { bubbles: true }));
          el.dispatchEvent(new Event("change", { bubbles: true }));
        },
        { sel, value },
      ),
    /** The fetch requests to a /tags or /suggestions route (batch saves, dismissals) since the page's last full load: {method, path, status}. */
    fetches: () => b.evaluate(() => window.__e2e?.fetches || []),
    /** The htmx requests the page made (since its last full load). */
    requests: () => b.evaluate(() => window.__e2e?.requests || []),
    /**
     * Runs action and waits for the next htmx request matching method and path
     * (a RegExp) to end and its answer to be drawn: swapped in and settled (an
     * element that keeps its id gets its new attributes 20 ms after the swap),
     * no tag left showing the editor's guess. Resolves with {method, path,
     * status, body, start, input, end}.
     */
    async request(method, path, action) {
      const before = (await page.requests()).length;
      await action();
      try {
        const req = await poll(async () => (await page.requests()).slice(before).find((r) => r.method === method && path.test(r.path)), { message: `${method} ${path}` });
        await poll(() => b.evaluate((sel) => !document.querySelector(sel), SAVING), { message: `${method} ${path} drawn` });
        return req;
      } catch (err) {
        const seen = (await page.requests().catch(() => [])).slice(before).map((r) => `${r.method} ${r.path} ${r.status}`);
        await page.screenshot("failed-request").catch(() => {});
        throw new Error(`${err.message}; requests since: ${JSON.stringify(seen)} (screenshot failed-request-${engine}.png)`);
      }
    },
    /**
     * Runs action, which opens the page's own confirm dialog ([data-confirm-dialog]:
     * the room never calls window.confirm), confirms it; resolves with its question.
     */
    async acceptDialogs(action) {
      await action();
      const ok = "[data-confirm-dialog][open] [data-confirm-ok]";
      await page.waitForSelector(ok, { visible: true });
      const question = await b.evaluate(() => document.querySelector("[data-confirm-dialog][open] .dialog__title").textContent);
      await page.click(ok);
      return [question];
    },
    /** Console errors and warnings, uncaught errors and CSP violations seen so far. */
    async problems() {
      const inPage = await b.evaluate(() => window.__e2e?.problems || []).catch(() => []);
      return [...b.nativeProblems(), ...inPage];
    },
    /** The viewport's size in CSS pixels. */
    viewport: () => b.evaluate(() => ({ width: innerWidth, height: innerHeight })),
    /** Saves a viewport screenshot as web/e2e/artifacts/<name>-<engine>.png. */
    screenshot: (name) => b.screenshot(join(artifacts, `${name}-${engine}.png`)),
    /** Saves a viewport screenshot as web/e2e/artifacts/<file> (the caller names the engine where it wants). */
    screenshotAs: (file) => b.screenshot(join(artifacts, file)),
    close: () => b.close(),
  };
  return page;
}
