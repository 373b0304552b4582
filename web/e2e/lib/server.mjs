// Starts the real server for browser tests: built once, a fresh data dir,
// demo data on; exposes the demo token, sender and room URL it prints, and
// helpers to call its API.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";
import { chromium } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH || "/usr/lib/chromium/chromium";
export const artifacts = join(dirname(fileURLToPath(import.meta.url)), "..", "artifacts");
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A fresh PostgreSQL database for one server when E2E_POSTGRES_URL is set
 * (any database URL on the server the tests may create databases on): the
 * browser tests then run against PostgreSQL instead of the embedded SQLite.
 */
function freshPostgres() {
  const admin = process.env.E2E_POSTGRES_URL;
  if (!admin) return null;
  const name = `markuproom_e2e_${process.pid}_${Date.now().toString(36)}`;
  execFileSync("psql", [admin, "-qc", `CREATE DATABASE ${name}`], { stdio: "inherit" });
  const url = new URL(admin);
  url.pathname = "/" + name;
  return {
    url: url.toString(),
    drop: () => {
      try {
        execFileSync("psql", [admin, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], { stdio: "ignore" });
      } catch {}
    },
  };
}

/**
 * The server binary: E2E_SERVER_BIN when set (make test-browser links it once
 * for every file and engine), else .e2e/markuproom in this checkout, built by
 * each test file after checking that what it embeds from web/src (the editor's
 * bundle, the stylesheets) is built: a test of an unbuilt change would test the
 * old one. go build leaves a binary that is up to date as it is, so only the
 * first file after a change pays for the link (seconds: the binary is 118 MB).
 */
function serverBinary() {
  if (process.env.E2E_SERVER_BIN) return process.env.E2E_SERVER_BIN;
  const bin = join(repoRoot, ".e2e", "markuproom");
  mkdirSync(dirname(bin), { recursive: true });
  execFileSync("node", ["web/scripts/build.mjs", "--check"], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync("go", ["build", "-o", bin, "./cmd/markuproom"], { stdio: "inherit" });
  return bin;
}

/**
 * Starts the server (serverBinary); resolves with {base, token, senderId,
 * roomURL, databaseURL, dataDir, stop()}. extraEnv.DATABASE_URL set: no
 * fresh database, that one (a second instance of a first's, with its
 * MARKUPROOM_DATA_DIR).
 */
export async function startServer(extraEnv = {}) {
  // A second instance on another's database names it (DATABASE_URL: the first's databaseURL).
  const pg = extraEnv.DATABASE_URL ? null : freshPostgres();
  // Demo data is off by default once DATABASE_URL is set: these tests use it.
  if (pg) extraEnv = { DATABASE_URL: pg.url, MARKUPROOM_DEMO: "true", ...extraEnv };
  // A second instance shares the first's files too (extraEnv.MARKUPROOM_DATA_DIR: the first's dataDir), and leaves them.
  const ownDir = !extraEnv.MARKUPROOM_DATA_DIR;
  const dataDir = extraEnv.MARKUPROOM_DATA_DIR || mkdtempSync(join(tmpdir(), "markuproom-e2e-"));
  const bin = serverBinary();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, MARKUPROOM_DATA_DIR: dataDir, MARKUPROOM_ADDR: `127.0.0.1:${port}`, MARKUPROOM_BASE_URL: base, MARKUPROOM_LOG_LEVEL: "warn", ...extraEnv };
  const proc = spawn(bin, [], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start:\n" + out)), 60000);
    proc.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  const token = /API token\s+(\S+)/.exec(out)?.[1];
  const senderId = /senderId "(\d+)"/.exec(out)?.[1];
  const roomURL = /(http:\/\/\S+\/markup-room\/\S+)/.exec(out)?.[1];
  const [, adminEmail, adminPassword] = /Admin user\s+(\S+)\s+password (\S+)/.exec(out) || [];
  const orgId = /Organization\s+.*\(id (\d+)\)/.exec(out)?.[1];
  mkdirSync(artifacts, { recursive: true });

  const call = async (method, path, body, headers = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body && !(body instanceof Buffer) ? { "Content-Type": "application/json" } : {}), ...headers },
      body: body instanceof Buffer ? body : body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {}
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return json;
  };
  return {
    base, token, senderId, roomURL, adminEmail, adminPassword, orgId, output: () => out,
    /** The PostgreSQL database this server uses (null on SQLite): another instance started on it shares its data. */
    databaseURL: pg?.url || null,
    /** The server's data directory (uploaded files). */
    dataDir,
    /** The environment that names the server's database, for a command that opens it too (cmd/auditseed). */
    dbEnv: extraEnv.DATABASE_URL ? { DATABASE_URL: extraEnv.DATABASE_URL } : { MARKUPROOM_DATA_DIR: dataDir },
    /** Runs an operator command of the same server (same data); resolves with its standard output. */
    cli: (...args) => execFileSync(bin, args, { env, encoding: "utf8" }),
    api: call,
    /** Uploads a PDF; resolves with the upload response. */
    upload: (pdf, title) => call("POST", `/api/v1/documents/upload?title=${encodeURIComponent(title)}`, pdf, { "Content-Type": "application/pdf" }),
    /** Creates a room on the uploaded documents with two participants. */
    room: (docs, config) =>
      call("POST", "/api/v1/markup-rooms", {
        senderId,
        documents: docs.map((d) => d.location),
        participants: [
          { firstName: "Pat", lastName: "Buyer", email: "pat@example.com" },
          { firstName: "Robin", lastName: "Seller", email: "robin@example.com" },
        ],
        ...(config ? { config } : {}),
      }),
    transaction: (id) => call("GET", `/api/v1/transactions/${id}`),
    stop: () => {
      proc.kill("SIGTERM");
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      if (pg) proc.once("exit", pg.drop);
    },
  };
}

/** How many CSS pixels the page is wider than its window (0 when it fits). */
export function horizontalOverflow(page) {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

/** startServer's environment that offers the pseudo-language en-XA (docs/i18n.md, "The pseudo-language"). */
export const PSEUDO_LOCALE_ENV = { MARKUPROOM_PSEUDO_LOCALE: "true" };

/**
 * playwright-core: a new context of browser whose requests say
 * `Accept-Language: acceptLanguage` (the browser's own language, as a person's
 * browser set to Arabic sends it), with the given viewport.
 */
export function languageContext(browser, acceptLanguage, { viewport = { width: 1440, height: 900 } } = {}) {
  return browser.newContext({ viewport, locale: acceptLanguage, extraHTTPHeaders: { "Accept-Language": acceptLanguage } });
}

/** Launches Debian's Chromium headless. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/**
 * Runs action (a click that submits a room form) and waits until the server has answered the POST it sends.
 * Waiting for a /rooms/ URL instead raced: the address bar already shows the room, so such a wait ended
 * before the save (a flaky read of the server's state right after).
 */
export async function submitted(page, action) {
  await Promise.all([page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/rooms/")), action()]);
}

/**
 * Creates the e-signature session from the open session dialog once its
 * check is in ([data-checklist][data-ready]: nothing blocks): its button,
 * then — when the check warns, the form asks once (data-confirm) — "Create
 * anyway" in the page's confirm dialog; resolves once the POST answered.
 */
export async function createSession(page) {
  const dialog = page.locator("#session-dialog");
  await dialog.locator("[data-checklist][data-ready]").waitFor();
  const button = dialog.locator('[data-control="confirm-create-session"]');
  if (!(await page.locator("#session-complete-form").evaluate((f) => f.hasAttribute("data-confirm")))) {
    await submitted(page, () => button.click());
    return;
  }
  await button.click();
  await submitted(page, () => page.locator("[data-confirm-dialog][open] [data-confirm-ok]").click());
}

/** Collects console errors/warnings and page errors of a page. */
export function watchProblems(page) {
  const problems = [];
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    // A failed load names its resource only in the location: keep it, so a failure says which URL.
    const where = m.text().startsWith("Failed to load resource") && m.location()?.url ? ` (${new URL(m.location().url).pathname})` : "";
    problems.push(`${m.type()}: ${m.text()}${where}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/**
 * Answers the next confirmation the page asks — in its own dialog
 * ([data-confirm-dialog]: no page calls window.confirm) — with yes (its action
 * button) or no (Cancel); resolves with the question. Start it before the
 * click that asks, as page.once("dialog") was.
 */
export async function answerConfirm(page, yes = true) {
  const dialog = page.locator("[data-confirm-dialog][open]");
  await dialog.waitFor();
  const question = await dialog.locator(".dialog__title").textContent();
  await dialog.locator(yes ? "[data-confirm-ok]" : "[data-confirm-cancel]").click();
  return question;
}

/** Confirms every confirmation the page asks in its dialog from now on, until the page closes or the returned stop is called. */
export function acceptConfirms(page) {
  let on = true;
  (async () => {
    while (on && !page.isClosed()) {
      await page
        .locator("[data-confirm-dialog][open] [data-confirm-ok]")
        .click({ timeout: 500 })
        .catch(() => {});
    }
  })();
  return () => (on = false);
}
