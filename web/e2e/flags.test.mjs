// Browser test of the ten Markup Room flags (RoomConfig in the OpenAPI
// document, all but detectTags): with each
// flag off its control is absent from the page AND a request forged from the
// page (with the session and a valid CSRF token) is refused with 403; rules 1
// and 2 (models.ApplyParticipantRules) hold in what the API returns for
// participants added in the dialog.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, watchProblems, artifacts, submitted } from "./lib/server.mjs";

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

const participant = (extra) => ({ firstName: "Forged", lastName: "Person", email: `forged${Math.random()}@example.com`, ...extra });

// flag → [what must be absent, the forged request: path (under the room) and form fields]
const flags = {
  "idv.kba": ['[data-control="kba"]', "/participants", participant({ kbaRequired: "on" })],
  "idv.credentialAnalysis": ['[data-control="credential-analysis"]', "/participants", participant({ credAnalysisRequired: "on" })],
  "authentication.personalPassword": ['option[value="personal-password"]', "/participants", participant({ authenticationType: "personal-password", personalPassword: "s3cret-Pass" })],
  "authentication.twoFactor": ['option[value="two-factor-authentication"]', "/participants", participant({ authenticationType: "two-factor-authentication", twoFactorContact: "email" })],
  "documents.rename": ['[data-control="document-rename"]', "/documents/0/title", { title: "Renamed" }],
  "documents.edit": ["[data-palette]", "/tags", { documentPosition: "0", type: "SIGNATURETEMPLATE", page: "1", x: "10", y: "10", width: "50", height: "20" }],
  "documents.advancedEdit": ['[data-control="page-actions"]', "/documents/0/pages/1/delete", {}],
  "participants.add": ['[data-control="participant-add"]', "/participants", participant()],
  "participants.edit": ['[data-control="participant-edit"]', "/participants/{pid}", participant()],
  "participants.remove": ['[data-control="participant-remove"]', "/participants/{pid}/remove", {}],
};

test("each flag off: its control is absent and a forged request is refused with 403", async () => {
  for (const [flag, [selector, path, fields]] of Object.entries(flags)) {
    const [group, key] = flag.split(".");
    for (const on of [true, false]) {
      const r = await srv.room([doc], { [group]: { [key]: on } });
      const pid = (await srv.transaction(r.transactionId)).participants[0].id;
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      const problems = watchProblems(page);
      await page.goto(r.url);
      await page.locator(".viewer-page").first().waitFor();
      const present = (await page.locator(selector).count()) > 0;
      assert.equal(present, on, `${flag}=${on}: ${selector} present=${present}`);
      if (!on) {
        const status = await page.evaluate(
          async ({ path, fields }) => {
            const csrf = document.querySelector('meta[name="csrf-token"]').content;
            const res = await fetch(location.pathname + path, {
              method: "POST",
              headers: { "X-CSRF-Token": csrf, "HX-Request": "true" },
              body: new URLSearchParams(fields),
            });
            return res.status;
          },
          { path: path.replace("{pid}", encodeURIComponent(pid)), fields },
        );
        assert.equal(status, 403, `${flag}=false: forged ${path} answered ${status}`);
      }
      assert.deepEqual(problems.filter((p) => !p.includes("status of 403")), [], `${flag}=${on}`);
      await ctx.close();
    }
  }
});

test("rules 1 and 2: options appear only with their flags, and the API says what they imply", async () => {
  // All four identity and authentication flags on: every option is offered and kept.
  let r = await srv.room([doc]);
  let ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let page = await ctx.newPage();
  await page.goto(r.url);
  await page.getByRole("button", { name: "Add Participant" }).click();
  let dialog = page.locator("dialog#participant-add");
  await dialog.waitFor();
  const auth = dialog.getByLabel("Authentication", { exact: true });
  assert.deepEqual(await auth.locator("option").allTextContents(), ["None", "Personal Password", "Two factor"]);
  await dialog.getByLabel("First name", { exact: true }).fill("Kim");
  await dialog.getByLabel("Last name", { exact: true }).fill("Checked");
  await dialog.getByLabel("E-mail", { exact: true }).fill("kim@example.com");
  await auth.selectOption("two-factor-authentication");
  await dialog.getByLabel("Knowledge-based authentication (KBA)").check();
  await dialog.getByLabel("Credential analysis").check();
  await page.screenshot({ path: join(artifacts, "participant-dialog.png") });
  await submitted(page, () => dialog.getByRole("button", { name: "Save participant" }).click());
  let kim = (await srv.transaction(r.transactionId)).participants.find((p) => p.email === "kim@example.com");
  assert.deepEqual([kim.authenticationType, kim.kbaRequired, kim.credAnalysisRequired], ["two-factor-authentication", true, true]);
  await ctx.close();

  // All four off: no option, no checkbox, and the API reports none / false / false (rules 1 and 2).
  r = await srv.room([doc], { idv: { kba: false, credentialAnalysis: false }, authentication: { personalPassword: false, twoFactor: false } });
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  await page.goto(r.url);
  await page.getByRole("button", { name: "Add Participant" }).click();
  dialog = page.locator("dialog#participant-add");
  await dialog.waitFor();
  assert.deepEqual(await dialog.getByLabel("Authentication", { exact: true }).locator("option").allTextContents(), ["None"]);
  assert.equal(await dialog.locator('[data-control="kba"], [data-control="credential-analysis"]').count(), 0);
  await dialog.getByLabel("First name", { exact: true }).fill("Lee");
  await dialog.getByLabel("Last name", { exact: true }).fill("Plain");
  await dialog.getByLabel("E-mail", { exact: true }).fill("lee@example.com");
  await page.screenshot({ path: join(artifacts, "participant-dialog-restricted.png") });
  await submitted(page, () => dialog.getByRole("button", { name: "Save participant" }).click());
  for (const p of (await srv.transaction(r.transactionId)).participants) {
    assert.deepEqual([p.authenticationType, p.kbaRequired, p.credAnalysisRequired], ["none", false, false], p.email);
  }
  await ctx.close();
});
