// The admin console on every engine: sign in, audit a page with axe-core,
// and measure its navigation, through the page object of ./engine.mjs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { engine } from "./engine.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Signs page in to the console as the demo admin of srv (startServer's); resolves on the page signing in leads to. */
export async function signIn(page, srv) {
  await page.goto(srv.base + "/admin/login");
  await page.fill("#admin-email", srv.adminEmail);
  await page.fill("#admin-password", srv.adminPassword);
  await page.click('button[type="submit"]');
  await page.waitFor(() => document.readyState === "complete" && !location.pathname.endsWith("/login"), undefined, { message: `${engine}: signed in` });
  await page.hooks();
}

/**
 * axe-core's serious and critical violations on the page, as readable
 * lines (none expected). The source goes in through the driver: the
 * console's CSP forbids inline scripts and eval.
 */
export async function axeViolations(page, where) {
  await page.inject(axeSource);
  const found = await page.eval(async () =>
    (await window.axe.run(document, { resultTypes: ["violations"] })).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}×) ${v.help}: ${v.nodes.slice(0, 5).map((n) => n.target.join(" ")).join(" | ")}`));
  return found.map((line) => `${engine} ${where}: ${line}`);
}

/** Fails unless the console's navigation lies on one line, uncut, and the page is no wider than its window. */
export async function assertConsoleFits(page, where) {
  const m = await page.eval(() => {
    const list = document.querySelector(".site-nav__list");
    const tops = [...document.querySelectorAll(".site-nav__link")].map((l) => Math.round(l.getBoundingClientRect().top));
    // Right to left (docs/i18n.md) the links run from the list's right edge.
    const rtl = list && getComputedStyle(list).direction === "rtl";
    const last = list?.lastElementChild.getBoundingClientRect();
    const box = list?.getBoundingClientRect();
    return {
      tops,
      used: list ? (rtl ? box.right - last.left : last.right - box.left) : 0,
      room: list ? list.clientWidth : 0,
      overflow: Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
    };
  });
  assert.ok(m.tops.length >= 6 && m.tops.every((t) => t === m.tops[0]), `${engine} ${where}: the navigation wraps: ${m.tops}`);
  assert.ok(m.used <= m.room + 1, `${engine} ${where}: the navigation is cut: ${m.used} > ${m.room}`);
  assert.equal(m.overflow, 0, `${engine} ${where}: the page is wider than its window`);
}
