// Browser test of the room's rate limit (issue 15, item 2): a room session
// over its burst is told so in the editor's status line (an htmx edit) and by
// the error page (a reload), both 429 with Retry-After; another browser on the
// same room, with a session of its own, keeps working.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, watchProblems } from "./lib/server.mjs";
import { openRoom } from "./lib/room.mjs";

let srv, browser, doc;

before(async () => {
  // A small room bucket that does not refill during the test.
  srv = await startServer({ MARKUPROOM_RATE_ROOM_RPS: "0.001", MARKUPROOM_RATE_ROOM_BURST: "40" });
  browser = await launchBrowser();
  doc = await srv.upload(mixedPDF(), "Mixed pages");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

test("a room session over its rate limit is told to wait; another browser is not", async () => {
  const r = await srv.room([doc]);
  const { ctx, page, problems } = await openRoom(browser, r.url);

  // Spend what is left of this session's bucket.
  const refused = await page.evaluate(async () => {
    for (let i = 0; i < 100; i++) {
      const res = await fetch(location.pathname + "/checklist", { headers: { "HX-Request": "true" } });
      if (res.status === 429) return { retryAfter: res.headers.get("Retry-After"), limit: res.headers.get("RateLimit-Limit"), body: await res.json() };
    }
    return null;
  });
  assert.ok(refused, "the session was never refused");
  assert.equal(refused.body.errors[0].code, "rate_limited");
  assert.equal(refused.limit, "40");
  assert.ok(Number(refused.retryAfter) >= 1, `Retry-After ${refused.retryAfter}`);

  // An edit (an htmx post): refused, and the status line says why.
  const [res] = await Promise.all([
    page.waitForResponse((x) => /\/pages\/\d+\/move$/.test(x.url())),
    page.locator('.room-thumb[data-page="1"]').getByRole("button", { name: "Move page 1 down" }).click(),
  ]);
  assert.equal(res.status(), 429);
  await page.locator('[data-save-status][data-kind="error"]').waitFor();
  // The bucket refills 0.001 a second: the wait is 1,000 s, or 999 once a
  // second has passed; English groups the thousand ("1,000").
  assert.match(await page.locator("[data-save-status]").textContent(), /Not saved: You are making changes faster than this Markup Room can take them\. Wait [\d,]+ seconds and try again\./);

  // A reload (a navigation): the error page, same status.
  const nav = await page.reload();
  assert.equal(nav.status(), 429);
  assert.ok(Number(nav.headers()["retry-after"]) >= 1);
  await page.getByRole("heading", { name: "Too many requests" }).waitFor();
  assert.match(await page.locator("main").textContent(), /faster than this Markup Room/);

  // Another browser opens the same room: its own session, its own bucket.
  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page2 = await other.newPage();
  const problems2 = watchProblems(page2);
  assert.equal((await page2.goto(r.url)).status(), 200);
  await page2.locator(".viewer-page--rendered").first().waitFor();

  assert.deepEqual(problems.filter((p) => !p.includes("status of 429")), []);
  assert.deepEqual(problems2, []);
  await ctx.close();
  await other.close();
});
