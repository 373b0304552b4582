// The console's overview (issue 29, item 4) on three browser engines, run
// once per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-admin-overview.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// An admin signs in and opens /admin: five charts drawn on the server as
// SVG (role="img", named and described), each with its figures in a table
// under "Show the figures" whose numbers are the API's own doings; the
// organization filter is a URL; axe finds nothing serious; the page fits
// 1280, 1024 and a phone's width without a horizontal scroll, and the
// navigation stays on one line on the desktop widths.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertNoProblems } from "./lib/room.mjs";
import { signIn, axeViolations } from "./lib/admin.mjs";

const T = { timeout: 240000 };
// WebKit's window (MiniBrowser) is no narrower than about 450 px, as in engines-polish.
const PHONE = engine === "webkit" ? { width: 460, height: 844 } : { width: 390, height: 844 };
let srv, browser;

before(async () => {
  // Every instance flushes the API requests it counted each second here (a minute by default).
  srv = await startServer({ MARKUPROOM_ROLLUP_INTERVAL: "1s" });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

/** Signs in to the console on a fresh page of size and opens /admin (plus query). */
async function overview(size, query = "") {
  const page = await pages.newPage(size);
  await signIn(page, srv);
  await page.goto(srv.base + "/admin" + query);
  await page.waitForSelector("[data-chart]");
  return page;
}

/** The cells of the row labelled label in chart id's table. */
function row(page, id, label) {
  return page.eval(
    ({ id, label }) => {
      const tr = [...document.querySelectorAll(`[data-chart-table="${id}"] tbody tr`)].find((r) => r.querySelector("th").textContent === label);
      return tr ? [...tr.querySelectorAll("td")].map((td) => td.textContent) : null;
    },
    { id, label },
  );
}

test(`${engine}: the overview charts the figures, with tables, a filter URL and no overflow`, T, async () => {
  // Two transactions (one sent for signing) and a refused request, besides the demo's room.
  for (const status of ["draft", "esign_pending"]) {
    await srv.api("POST", "/api/v1/transactions", {
      status, referenceId: "OV-" + status, documents: [],
      participants: [{ id: "c1", email: "carol@example.net", firstName: "Carol", lastName: "Client", authenticationType: "none", twoFactorContact: "email" }],
    });
  }
  await fetch(srv.base + "/api/v1/transactions/01900000-0000-7000-8000-00000000a2a2", { headers: { Authorization: `Bearer ${srv.token}` } });
  await new Promise((r) => setTimeout(r, 2500)); // two flushes

  const page = await overview({ width: 1280, height: 900 });
  const charts = await page.eval(() =>
    [...document.querySelectorAll("[data-chart]")].map((c) => ({
      id: c.dataset.chart,
      title: c.querySelector("h2").textContent,
      svg: c.querySelector("svg[role=img]") ? c.querySelector("svg[role=img]").getAttribute("aria-labelledby") : null,
      empty: Boolean(c.querySelector("[data-chart-empty]")),
      rows: c.querySelectorAll("tbody tr").length,
    })),
  );
  assert.deepEqual(charts.map((c) => c.id), ["chart-transactions", "chart-rooms", "chart-outbox", "chart-api", "chart-latency"], `${engine}: the charts`);
  assert.deepEqual(charts.map((c) => c.rows), [30, 30, 48, 48, 48], `${engine}: a table row per day or hour`);
  for (const id of ["chart-transactions", "chart-rooms", "chart-api", "chart-latency"]) {
    const c = charts.find((c) => c.id === id);
    assert.equal(c.empty, false, `${engine}: ${id} is drawn`);
    assert.equal(c.svg, `${id}-title`, `${engine}: ${id}'s SVG is named by its title`);
  }
  const today = await page.eval(() => document.querySelector('[data-chart-table="chart-transactions"] tbody tr:last-child th').textContent);
  const [created, sent] = (await row(page, "chart-transactions", today)).map(Number);
  assert.ok(created >= 3 && sent === 1, `${engine}: today ${created} created (the demo's and 2), ${sent} sent`);
  const hour = await page.eval(() => document.querySelector('[data-chart-table="chart-api"] tbody tr:last-child th').textContent);
  const [requests, clientErrors] = (await row(page, "chart-api", hour)).map(Number);
  assert.ok(requests >= 3 && clientErrors >= 1, `${engine}: this hour ${requests} requests, ${clientErrors} client errors`);
  // The figures open under their summary.
  await page.click('[data-chart="chart-transactions"] summary');
  await page.waitFor(() => document.querySelector('[data-chart="chart-transactions"] details').open);
  assert.deepEqual(await axeViolations(page, "/admin"), [], `${engine}: axe`);
  assert.equal(await page.eval(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, `${engine}: no overflow at 1280`);
  const navLines = () =>
    page.eval(() => new Set([...document.querySelectorAll(".site-nav__link")].map((a) => Math.round(a.getBoundingClientRect().top))).size);
  assert.equal(await navLines(), 1, `${engine}: the navigation is one line at 1280`);
  assert.equal(await page.eval(() => document.querySelector(".site-nav__link[aria-current=page]").textContent), "Overview");
  await page.screenshot("admin-overview-1280");
  await page.eval(() => document.querySelector('[data-chart="chart-outbox"]').scrollIntoView());
  await page.screenshot("admin-overview-1280-hourly");

  // The filter is a URL: the demo's organization is the only one.
  const org = await page.eval(() => document.querySelector("#overview-org option:not([value=''])").value);
  await page.select("#overview-org", org);
  await page.waitFor((org) => location.search === "?org=" + org, org, { message: `${engine}: the filter's URL` });
  await page.waitFor(() => document.querySelector("[data-overview-org]").dataset.overviewOrg !== "");
  assert.match(await page.eval(() => document.querySelector(".overview__scope").textContent), /Showing: \S/);
  await assertNoProblems(page);
  await page.close();

  const narrow = await overview({ width: 1024, height: 768 }, "?org=" + org);
  assert.equal(await narrow.eval(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, `${engine}: no overflow at 1024`);
  assert.equal(await narrow.eval(() => new Set([...document.querySelectorAll(".site-nav__link")].map((a) => Math.round(a.getBoundingClientRect().top))).size), 1,
    `${engine}: the navigation is one line at 1024`);
  await narrow.screenshot("admin-overview-1024");
  await narrow.close();

  const phone = await overview(PHONE);
  assert.equal(await phone.eval(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, `${engine}: no overflow on a phone`);
  const svgFits = await phone.eval(() => [...document.querySelectorAll(".chart__svg")].every((s) => s.getBoundingClientRect().right <= innerWidth));
  assert.ok(svgFits, `${engine}: every chart fits the phone`);
  await phone.screenshot("admin-overview-390");
  await assertNoProblems(phone);
});
