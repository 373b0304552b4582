// Browser tests of the console's exports (issue "Admin console II", item 5)
// in Chromium: the transactions page's "Export CSV" and "Export XLSX" links
// carry the filters shown and download the files; the buttons fit the page
// at 1280, 1024 and 390 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startServer, launchBrowser, watchProblems, artifacts, horizontalOverflow } from "./lib/server.mjs";

let srv, browser, ctx, page, problems;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await ctx.newPage();
  problems = watchProblems(page);
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

/** The downloaded file of clicking link: its suggested name and bytes. */
async function download(link) {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

test("the transactions page exports what its filters show, as CSV and XLSX", async () => {
  // A transaction whose referenceId would run as a formula in a spreadsheet.
  const tx = await srv.api("POST", "/api/v1/transactions", {
    referenceId: "+1", status: "esign_pending", documents: [],
    participants: [{ id: "a", firstName: "=HYPERLINK(\"http://evil.example\")", lastName: "Tenant", email: "tenant@example.com",
      authenticationType: "none", twoFactorContact: "email" }],
  });

  await page.goto(srv.base + "/admin/transactions"); // signed out: the sign-in page, which lands back here
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill(srv.adminPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/admin\/transactions/);

  const csv = page.getByRole("link", { name: "Export CSV" });
  const xlsx = page.getByRole("link", { name: "Export XLSX" });
  assert.equal(await csv.getAttribute("href"), "/admin/transactions.csv");

  // Filtering swaps the table; the links follow the filters.
  await page.getByLabel("Status").selectOption("esign_pending");
  await page.waitForFunction(() => document.querySelector("[data-export=csv]")?.getAttribute("href").includes("status=esign_pending"));
  assert.equal(await xlsx.getAttribute("href"), "/admin/transactions.xlsx?status=esign_pending");

  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 700 });
    await page.screenshot({ path: join(artifacts, `admin-exports-${width}.png`) });
  }
  await page.setViewportSize({ width: 390, height: 800 });
  assert.equal(await horizontalOverflow(page), 0, "the export buttons widen a phone's page");
  await page.screenshot({ path: join(artifacts, "admin-exports-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  const day = new Date().toISOString().slice(0, 10);
  const file = await download(csv);
  assert.equal(file.name, `markuproom-transactions-${day}.csv`);
  const lines = file.bytes.toString("utf8").trim().split("\r\n");
  assert.equal(lines.length, 2, "one row: the filter holds (the demo room's transaction is a draft)");
  assert.match(lines[0], /^Transaction ID,Reference ID,Organization ID,Organization,Status,/);
  assert.ok(lines[1].startsWith(`${tx.id},'+1,`), lines[1]);
  assert.match(lines[1], /,"'=HYPERLINK\(""http:\/\/evil.example""\) Tenant",tenant@example.com,/);

  const book = await download(xlsx);
  assert.equal(book.name, `markuproom-transactions-${day}.xlsx`);
  assert.equal(book.bytes.subarray(0, 2).toString("latin1"), "PK", "an XLSX is a zip file");
  assert.ok(book.bytes.length > 4000);
  assert.deepEqual(problems, []);
});
