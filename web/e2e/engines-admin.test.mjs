// The admin console on three browser engines (issue 29, item 8), run once
// per engine through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-admin.test.mjs
//   (WebKit under xvfb-run -a -s "-screen 0 1280x1024x24"; `make test-engines ENGINE=…`)
//
// At 1280 and 1024 px wide, every console page (the transaction list, a
// transaction, the rooms, the organizations and one of them, the outgoing
// messages, the activity, the templates) shows its navigation on one line
// and nothing wider than the window, has no serious or critical axe
// violation and logs no console problem; each is saved as
// admin-<page>-<width>-<engine>.png.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertNoProblems } from "./lib/room.mjs";
import { signIn, axeViolations, assertConsoleFits } from "./lib/admin.mjs";

const T = { timeout: 300000 };
let srv, browser;

before(async () => {
  srv = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

for (const width of [1280, 1024]) {
  test(`${engine}: every console page at ${width} px: one line of navigation, no overflow, axe clean`, T, async () => {
    const rooms = await srv.api("GET", "/api/v1/markup-rooms");
    const demo = rooms.items[rooms.items.length - 1];
    const page = await pages.newPage({ width, height: 900 });
    await signIn(page, srv);
    const visits = [
      ["transactions", "/admin/transactions", "[data-transaction-id]"],
      ["transaction", `/admin/transactions/${demo.transactionId}`, "h1"],
      ["rooms", "/admin/rooms", "[data-room-id]"],
      ["organizations", "/admin/organizations", "[data-org-id]"],
      ["outbox", "/admin/outbox", "h1"],
      ["activity", "/admin/activity", "h1"],
      ["templates", "/admin/templates", "h1"],
    ];
    const found = [];
    for (const [name, path, ready] of visits) {
      await page.goto(srv.base + path);
      await page.waitForSelector(ready, { message: `${engine}: ${path} shows ${ready}` });
      await assertConsoleFits(page, `${path} at ${width}`);
      found.push(...(await axeViolations(page, `${path} at ${width}`)));
      await page.screenshot(`admin-${name}-${width}`);
      await assertNoProblems(page);
    }
    await page.goto(srv.base + "/admin/organizations");
    const orgPath = await page.eval(() => document.querySelector("[data-org-id] a")?.getAttribute("href"));
    assert.ok(orgPath, `${engine}: an organization's page is linked`);
    await page.goto(srv.base + orgPath);
    await page.waitForSelector("h1");
    await assertConsoleFits(page, `organization at ${width}`);
    found.push(...(await axeViolations(page, `organization at ${width}`)));
    await page.screenshot(`admin-organization-${width}`);
    await assertNoProblems(page);
    assert.deepEqual(found, [], "\n" + found.join("\n"));
  });
}
