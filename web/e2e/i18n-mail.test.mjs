// Invitation e-mails in the participant's language (docs/i18n.md, "Rooms,
// participants and e-mails"), end to end on Chromium: a room made by
// operation B with "locale": "es" and two participants, one with
// "locale": "fr", is completed in the browser with invitations e-mailed; a
// mail catcher (web/e2e/lib/mail.mjs) receives both. The "fr" participant's
// subject and body are French, the other's Spanish (the room's), each HTML
// part says its lang and dir, and no English of the invitation is left.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makePDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, artifacts, createSession } from "./lib/server.mjs";
import { openRoom } from "./lib/room.mjs";
import { startMailCatcher } from "./lib/mail.mjs";

const catalog = (tag) => JSON.parse(readFileSync(new URL(`../i18n/locales/${tag}.json`, import.meta.url), "utf8"));
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A catalog message as a pattern: each {placeholder} stands for any text. */
const pattern = (msg) => new RegExp(escapeRe(msg).replace(/\\\{[a-z]+\\\}/g, ".+?"));
/** The text an HTML body shows (tags dropped, the few entities templ writes decoded). */
const shown = (html) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&#39;/g, "'")
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

let srv, browser, mail;

before(async () => {
  mail = await startMailCatcher();
  srv = await startServer({ MARKUPROOM_SMTP_URL: mail.url, MARKUPROOM_SMTP_FROM: "Markup Room <no-reply@example.com>" });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  srv?.stop();
  mail?.close();
});

test("invitations speak the participant's language, else the room's", { timeout: 180000 }, async () => {
  const doc = await srv.upload(makePDF([{ width: 612, height: 792, label: "Contrato de arras" }]), "Contrato de arras");
  const room = await srv.api("POST", "/api/v1/markup-rooms", {
    senderId: srv.senderId,
    documents: [doc.location],
    locale: "es",
    participants: [
      { firstName: "Lucía", lastName: "Compradora", email: "lucia@example.com" },
      { firstName: "Élodie", lastName: "Vendeuse", email: "elodie@example.com", locale: "fr" },
    ],
  });
  const { ctx, page, problems } = await openRoom(browser, room.url);
  assert.equal(await page.locator("html").getAttribute("lang"), "es", "the room speaks its own language");

  // A signature for each participant, then the session with invitations e-mailed.
  const place = async (who, pos) => {
    await page.locator("[data-signer-picker] label", { hasText: who }).click();
    await page.locator('[data-palette] [data-tag-type="SIGNATURETEMPLATE"]').click();
    await Promise.all([
      page.waitForResponse((res) => res.url().endsWith("/tags") && res.request().method() === "POST"),
      page.locator(`.viewer-page[data-document-id="${doc.id}"][data-page="1"]`).click({ position: pos }),
    ]);
  };
  await place("Lucía Compradora", { x: 60, y: 500 });
  await place("Élodie Vendeuse", { x: 400, y: 500 });
  await page.locator('[data-control="create-session"]').click();
  const dialog = page.locator("#session-dialog");
  await dialog.locator("[data-checklist][data-ready]").waitFor();
  assert.ok(await dialog.locator('input[name="notify"]').isChecked(), "invitations are offered, ticked");
  await createSession(page);
  await page.locator("[data-room-summary]").waitFor();
  await page.screenshot({ path: join(artifacts, "i18n-mail-completed.png") });

  const got = await mail.waitFor(2, 90000);
  assert.equal(got.length, 2, "one e-mail for each participant");
  const by = Object.fromEntries(got.map((m) => [m.to[0], m]));
  assert.deepEqual(Object.keys(by).sort(), ["elodie@example.com", "lucia@example.com"]);
  const en = catalog("en");
  for (const [addr, tag, name] of [
    ["elodie@example.com", "fr", "Élodie Vendeuse"],
    ["lucia@example.com", "es", "Lucía Compradora"],
  ]) {
    const m = by[addr];
    const words = catalog(tag);
    assert.equal(m.subject, words["mail.invitation.subject"], `${addr}: the subject in ${tag}`);
    assert.match(m.html, new RegExp(`<html lang="${tag}" dir="ltr">`), `${addr}: the HTML part says its language`);
    const html = shown(m.html);
    for (const id of ["mail.invitation.greeting", "mail.invitation.link_notice", "mail.invitation.footer"]) {
      assert.match(m.text, pattern(words[id]), `${addr}: the text part has ${id} in ${tag}:\n${m.text}`);
      assert.match(html, pattern(words[id]), `${addr}: the HTML part has ${id} in ${tag}:\n${html}`);
    }
    assert.match(m.text, pattern(words["mail.invitation.asks"].one), `${addr}: the request in ${tag}`);
    assert.ok(m.text.includes(words["mail.invitation.greeting"].replace("{name}", name)), `${addr}: greeted by name in ${tag}`);
    assert.ok(m.text.includes("Contrato de arras") && html.includes("Contrato de arras"), `${addr}: the document's title`);
    for (const id of ["mail.invitation.subject", "mail.invitation.link_notice"]) {
      assert.ok(!m.text.includes(en[id]) && !html.includes(en[id]) && m.subject !== en[id], `${addr}: English ${id} left`);
    }
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});
