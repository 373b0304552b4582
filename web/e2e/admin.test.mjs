// Browser tests of the admin console (issue "Admin console") in Chromium:
// sign-in, sign-out, "Sign out everywhere" and the lockout; the transactions table's filters and
// search; a transaction's page with its tags drawn by the room's viewer;
// templates listed, one drawn with its tags and a version restored;
// tokens created and revoked, the API access switch, a disabled user and an
// expired room, each checked against the API; the activity log; webhook
// endpoints and the outgoing messages list (issue "Outbound delivery").
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer, launchBrowser, watchProblems, artifacts, answerConfirm, horizontalOverflow } from "./lib/server.mjs";

let srv, browser, ctx, page, problems;

before(async () => {
  // One attempt per message, so a failing webhook call is dead at once.
  srv = await startServer({ MARKUPROOM_OUTBOX_MAX_ATTEMPTS: "1" });
  browser = await launchBrowser();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  problems = watchProblems(page);
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

async function signIn(p, email, password) {
  await p.goto(srv.base + "/admin/transactions"); // signed out: the sign-in page, which lands back here
  await p.getByLabel("E-mail").fill(email);
  await p.getByLabel("Password").fill(password);
  await p.getByRole("button", { name: "Sign in" }).click();
}

const apiStatus = async (method, path, token, body) =>
  (await fetch(srv.base + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  })).status;

test("sign in, a refused password, sign out; a lockout answers 429", async () => {
  await signIn(page, "admin@example.com", "not-the-password");
  await page.getByRole("alert").waitFor();
  assert.match(await page.getByRole("alert").textContent(), /not right/);
  await page.screenshot({ path: join(artifacts, "admin-login.png") });
  await signIn(page, "admin@example.com", srv.adminPassword);
  await page.waitForURL(/\/admin\/transactions/);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(/\/admin\/login/);
  assert.equal((await page.goto(srv.base + "/admin/transactions")).url().endsWith("/admin/login"), true);

  // "Sign out everywhere" ends the session of another browser too (its own cookie jar).
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await signIn(elsewhere, "admin@example.com", srv.adminPassword);
  await elsewhere.waitForURL(/\/admin\/transactions/);
  await signIn(page, "admin@example.com", srv.adminPassword);
  await page.waitForURL(/\/admin\/transactions/);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.waitForURL(/\/admin\/login/);
  assert.equal((await elsewhere.goto(srv.base + "/admin/transactions")).url().endsWith("/admin/login"), true);
  await other.close();

  // Five failures lock an account for 15 minutes; the sixth attempt is refused with 429.
  const lock = await ctx.newPage();
  for (let i = 0; i < 5; i++) await signIn(lock, "someone@example.com", "guess" + i);
  const [res] = await Promise.all([lock.waitForResponse((r) => r.url().endsWith("/admin/login") && r.request().method() === "POST"), signIn(lock, "someone@example.com", "guess")]);
  assert.equal(res.status(), 429);
  // The answer is a page of its own: wait for it, not for the response (the page before had an alert too).
  await lock.getByRole("alert").filter({ hasText: /Too many failed sign-ins/ }).waitFor();
  await lock.screenshot({ path: join(artifacts, "admin-lockout.png") });
  await lock.close();
});

test("find a transaction by a participant's e-mail, see its tags and who changed it", async () => {
  // A tag in the demo room's transaction, placed through the API.
  const rooms = await srv.api("GET", "/api/v1/markup-rooms");
  const demo = rooms.items[rooms.items.length - 1]; // the demo room, the only one so far
  const txID = demo.transactionId;
  const tx = await srv.transaction(txID);
  tx.documents[0].tags = [{ type: "SIGNATURETEMPLATE", x: 72, y: 100, width: 144, height: 36, page: 1, signerId: tx.participants[0].id, customData: {} }];
  await srv.api("PUT", `/api/v1/transactions/${txID}`, tx);
  // Changes through the room: a participant added, the document renamed (the history names both, and the room's sender).
  const roomPage = await ctx.newPage();
  await roomPage.goto(srv.roomURL);
  const statuses = await roomPage.evaluate(async () => {
    const token = document.querySelector('meta[name="csrf-token"]').content;
    const post = (path, body) => fetch(location.pathname + path, {
      method: "POST", headers: { "X-CSRF-Token": token, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body),
    }).then((r) => r.status);
    return [
      await post("/participants", { firstName: "Dana", lastName: "Doe", email: "dana@example.com" }),
      await post("/documents/0/title", { title: "Purchase agreement (signed copy)" }),
    ];
  });
  assert.deepEqual(statuses, [200, 200], "the room took both changes (redirects followed)");
  await roomPage.close();
  // Another transaction to filter out, already out for signing.
  const other = await srv.api("POST", "/api/v1/transactions", {
    status: "esign_pending", referenceId: "ORDER-7731", documents: [],
    participants: [{ id: "c1", email: "carol@example.net", firstName: "Carol", lastName: "Client", authenticationType: "none", twoFactorContact: "email" }],
  });

  await signIn(page, "admin@example.com", srv.adminPassword);
  await page.waitForURL(/\/admin\/transactions/);
  assert.equal(await page.locator("[data-transaction-id]").count(), 2);
  await page.getByLabel("Search").fill("PAT.BUYER@");
  await page.waitForFunction(() => document.querySelectorAll("[data-transaction-id]").length === 1);
  assert.match(page.url(), /q=PAT\.BUYER%40/, "the URL keeps the search");
  assert.equal(await page.locator(`[data-transaction-id="${txID}"]`).count(), 1);
  await page.screenshot({ path: join(artifacts, "admin-transactions.png") });
  await page.getByLabel("Search").fill("");
  await page.getByLabel("Status").selectOption("esign_pending");
  await page.waitForFunction((id) => document.querySelectorAll("[data-transaction-id]").length === 1 && document.querySelector(`[data-transaction-id="${id}"]`), other.id);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll("[data-transaction-id]").length === 1);

  await page.goto(srv.base + "/admin/transactions/" + txID);
  await page.locator(".viewer-page--rendered").first().waitFor();
  const tag = page.locator(".tag[data-tag-id][data-placed]");
  assert.equal(await tag.count(), 1, "the tag is drawn");
  assert.equal(await page.locator(".viewer[data-editable]").count(), 0, "read-only");
  assert.equal(await page.getByRole("link", { name: "XFDF" }).count(), 2);
  const history = await page.locator(".admin-history").textContent();
  assert.match(history, /Replaced: tags 0 → 1/);
  assert.match(history, /API token 1 \(Demo token\)/);
  assert.match(history, /Participant “Dana Doe” added/);
  assert.match(history, /Document renamed “[^”]+” → “Purchase agreement \(signed copy\)”/);
  assert.match(history, / · Markup Room\s*· session [0-9a-f]{8} · /);
  await page.locator("#admin-history-title").scrollIntoViewIfNeeded();
  await page.locator("section[aria-labelledby='admin-history-title']").screenshot({ path: join(artifacts, "admin-history-1280.png") });
  // Every event shows its whole text at 1280 px: a long one wraps, none is cut short with an
  // ellipsis (the rows wrap since issue 40; engines-newuser-console checks 1440, 1024 and a phone).
  const cut = await page.$$eval(".admin-history li", (rows) =>
    rows.filter((li) => [...li.children].some((cell) => cell.scrollWidth > cell.clientWidth + 1)).map((li) => li.textContent.trim()),
  );
  assert.deepEqual(cut, [], "no history event is cut short");
  await page.screenshot({ path: join(artifacts, "admin-transaction.png"), fullPage: true });
});

test("the lists name documents and people with one short id; the navigation is one line at 1280 and fits a phone", async () => {
  const rooms = await srv.api("GET", "/api/v1/markup-rooms");
  const demo = rooms.items[rooms.items.length - 1];
  await page.goto(srv.base + "/admin/transactions");
  const row = page.locator(`[data-transaction-id="${demo.transactionId}"]`);
  const text = (await row.textContent()).replace(/\s+/g, " ");
  assert.match(text, /Pat Buyer/, "the participants are named");
  assert.match(text, /Sam Sender/, "the sender is named");
  assert.doesNotMatch(text, new RegExp(demo.id), "the room's id is not shown as a reference");
  assert.doesNotMatch(text, new RegExp(demo.transactionId), "one short id, not the whole one");
  assert.equal(await row.locator("[data-short-id]").textContent(), demo.transactionId.slice(-8));
  assert.match(await page.locator("[data-transaction-id]", { hasText: "ORDER-7731" }).locator("[data-reference-id]").textContent(), /ORDER-7731/);

  // The copy button copies the whole id.
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: srv.base });
  await row.getByRole("button", { name: "Copy the transaction id" }).click();
  await row.getByRole("button", { name: "Copy the transaction id" }).filter({ hasText: "Copied" }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), demo.transactionId);

  // One line of navigation at 1280 and 1024; at 390 nothing is wider than the window.
  const linkTops = () => page.locator(".site-nav__link").evaluateAll((links) => links.map((l) => Math.round(l.getBoundingClientRect().top)));
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    const tops = await linkTops();
    assert.ok(tops.length >= 6 && tops.every((t) => t === tops[0]), `the navigation wraps at ${width} px: ${tops}`);
    const nav = await page.locator(".site-nav__list").evaluate((l) => ({ used: l.lastElementChild.getBoundingClientRect().right - l.getBoundingClientRect().left, room: l.clientWidth }));
    assert.ok(nav.used <= nav.room, `the navigation is cut at ${width} px: ${JSON.stringify(nav)}`);
    assert.equal(await horizontalOverflow(page), 0, `the page is wider than ${width} px`);
  }
  await page.screenshot({ path: join(artifacts, "admin-transactions-1024.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/admin/transactions", "/admin/rooms", "/admin/organizations", "/admin/outbox", "/admin/activity", "/admin/templates"]) {
    await page.goto(srv.base + path);
    assert.equal(await horizontalOverflow(page), 0, `${path} is wider than a 390 px window`);
  }
  await page.goto(srv.base + "/admin/rooms");
  assert.equal(await page.locator(`[data-room-id="${demo.id}"] [data-short-id]`).textContent(), demo.id.slice(-8));
  await page.screenshot({ path: join(artifacts, "admin-rooms-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("templates: the list, a template's tags on its pages, and Restore making a new version", async () => {
  const seen = problems.length;
  const doc = await srv.upload(mixedPDF(), "Purchase agreement");
  const tag = (type, role, x) => ({ type, x, y: 640, width: 144, height: 36, page: 1, document: 0, role, customData: {} });
  const created = await srv.api("POST", "/api/v1/templates", {
    name: "Weekly purchase agreement", documents: [{ document: doc.location }],
    roles: [{ name: "Buyer" }, { name: "Seller" }],
    tags: [tag("SIGNATURETEMPLATE", "Buyer", 72), tag("DATETEMPLATE", "Seller", 300)],
  });
  const v1 = await srv.api("GET", `/api/v1/templates/${created.id}`);
  await srv.api("PUT", `/api/v1/templates/${created.id}`, { ...v1, tags: [v1.tags[0]] }); // version 2: one tag

  await page.goto(srv.base + "/admin/transactions");
  if (page.url().endsWith("/admin/login")) await signIn(page, "admin@example.com", srv.adminPassword); // when run alone
  await page.waitForURL(/\/admin\/transactions/);
  await page.getByRole("link", { name: "Templates", exact: true }).click();
  await page.waitForURL(/\/admin\/templates$/);
  await page.getByLabel("Search").fill("WEEKLY");
  await page.waitForFunction(() => document.querySelectorAll("[data-template-id]").length === 1);
  const row = page.locator(`[data-template-id="${created.id}"]`);
  assert.match(await row.textContent(), /Weekly purchase agreement[\s\S]*Demo/);
  await page.screenshot({ path: join(artifacts, "admin-templates.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(artifacts, "admin-templates-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await row.getByRole("link").click();
  await page.waitForURL(new RegExp(`/admin/templates/${created.id}$`));
  await page.locator(".viewer-page--rendered").first().waitFor();
  const placed = page.locator(".tag[data-tag-id][data-placed]");
  assert.equal(await placed.count(), 1, "version 2's one tag is drawn");
  assert.equal(await placed.first().getAttribute("data-signer-id"), "Buyer");
  assert.equal(await page.locator(".viewer[data-editable]").count(), 0, "read-only");
  assert.equal(await page.locator("[data-template-current-version]").textContent(), "2");
  await page.screenshot({ path: join(artifacts, "admin-template.png"), fullPage: true });
  for (const [width, height, name] of [[390, 844, "admin-template-390.png"], [1280, 900, ""]]) {
    await page.setViewportSize({ width, height }); // the viewer fits its pages to the width it loads at
    await page.reload();
    await page.locator(".viewer-page--rendered").first().waitFor();
    if (name) await page.screenshot({ path: join(artifacts, name), fullPage: true });
  }

  await page.locator('[data-template-version="1"]').getByRole("button", { name: "Restore" }).click();
  assert.match(await answerConfirm(page), /Restore version 1\?/);
  await page.waitForFunction(() => document.querySelector("[data-template-current-version]")?.textContent === "3");
  await page.locator(".viewer-page--rendered").first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll(".tag[data-tag-id][data-placed]").length === 2);
  const v3 = await srv.api("GET", `/api/v1/templates/${created.id}`);
  assert.equal(v3.version, 3);
  assert.deepEqual(v3.tags, v1.tags, "version 3 equals version 1");
  const versions = await srv.api("GET", `/api/v1/templates/${created.id}/versions`);
  assert.deepEqual([versions.items[0].restoredFrom, versions.items[0].actor.kind], [1, "admin"]);
  assert.deepEqual(problems.slice(seen), []);
});

test("tokens, API access, a disabled user and an expired room take effect at once", async () => {
  await page.goto(srv.base + "/admin/organizations");
  const orgRow = page.locator("[data-org-id]").first();
  await orgRow.getByRole("link").click();
  await page.waitForURL(/\/admin\/organizations\/\d+$/);

  // A token: shown once, works, revoked, refused.
  await page.getByLabel("Name", { exact: true }).fill("Browser test");
  await page.getByRole("button", { name: "Create token" }).click();
  const fresh = (await page.locator("[data-new-token]").textContent()).trim();
  assert.match(fresh, /^mrt_/);
  await page.screenshot({ path: join(artifacts, "admin-organization.png"), fullPage: true });
  assert.equal(await apiStatus("GET", "/api/v1/transactions", fresh), 200);
  const row = page.locator("[data-token-id]", { hasText: "Browser test" });
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), answerConfirm(page), row.getByRole("button", { name: "Revoke" }).click()]);
  assert.equal(await apiStatus("GET", "/api/v1/transactions", fresh), 401);

  // API access off: operation B refuses the demo token; on again: it works.
  const room = { senderId: srv.senderId, documents: [], participants: [{ firstName: "A", lastName: "B", email: "a@example.com" }] };
  const toggle = page.getByRole("switch", { name: "API access" });
  // Turning it off asks first; Cancel leaves it on.
  await toggle.uncheck();
  assert.equal(await answerConfirm(page, false), "Turn API access off?");
  // The dialog's close event (which turns the switch back on) comes after the click.
  await page.waitForFunction(() => document.querySelector('input[role="switch"]').checked, null, { timeout: 5000 });
  assert.equal(await apiStatus("GET", "/api/v1/markup-rooms", srv.token), 200);
  await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api-access")), toggle.uncheck(), answerConfirm(page)]);
  assert.equal(await apiStatus("POST", "/api/v1/markup-rooms", srv.token, room), 401);
  await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api-access")), toggle.check()]);
  assert.equal(await apiStatus("POST", "/api/v1/markup-rooms", srv.token, room), 200);

  // A new user, disabled: no longer a senderId.
  await page.getByLabel("E-mail").fill("temp.sender@example.com");
  await page.getByLabel("First name", { exact: true }).fill("Temp");
  await page.getByLabel("Last name", { exact: true }).fill("Sender");
  await Promise.all([page.waitForURL(/\/admin\/organizations\/\d+$/), page.getByRole("button", { name: "Create user" }).click()]);
  const userRow = page.locator("[data-user-id]", { hasText: "temp.sender@example.com" });
  const userID = await userRow.getAttribute("data-user-id");
  assert.equal(await apiStatus("POST", "/api/v1/markup-rooms", srv.token, { ...room, senderId: userID }), 200);
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), answerConfirm(page), userRow.getByRole("button", { name: "Disable" }).click()]);
  assert.equal(await apiStatus("POST", "/api/v1/markup-rooms", srv.token, { ...room, senderId: userID }), 401);

  // Expire a room: its URL answers 410.
  const created = await srv.api("POST", "/api/v1/markup-rooms", room);
  await page.goto(srv.base + "/admin/rooms");
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), answerConfirm(page), page.locator(`[data-room-id="${created.id}"]`).getByRole("button", { name: "Expire" }).click()]);
  assert.equal((await fetch(created.url, { redirect: "manual" })).status, 410);
  assert.equal((await srv.api("GET", `/api/v1/markup-rooms/${created.id}`)).status, "expired");
  await page.screenshot({ path: join(artifacts, "admin-rooms.png"), fullPage: true });

  // The activity log tells all of it.
  await page.getByRole("link", { name: "Activity" }).click();
  const log = await page.locator("table").textContent();
  for (const action of ["login", "logout", "sign out everywhere", "failed login", "lockout", "create", "toggle", "disable", "revoke", "expire"]) {
    assert.ok(log.includes(action), `activity lacks "${action}"`);
  }
  await page.screenshot({ path: join(artifacts, "admin-activity.png"), fullPage: true });
  assert.deepEqual(problems.filter((p) => !/status of (401|429)/.test(p)), []);
});

test("a webhook endpoint added in the console; outgoing messages show held invitations and a dead call, and Retry queues it again", async () => {
  await page.goto(srv.base + "/admin/organizations");
  await page.locator("[data-org-id]").first().getByRole("link").click();
  await page.waitForURL(/\/admin\/organizations\/\d+$/);
  await page.getByLabel("URL").fill("https://hooks.invalid/markuproom");
  await page.getByLabel("Description").fill("CRM");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await page.locator("[data-new-webhook-secret]").textContent()).trim();
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
  await page.locator("[data-new-webhook-secret]").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "admin-webhooks.png") });
  const hooks = await srv.api("GET", "/api/v1/webhooks");
  assert.equal(hooks.items.length, 1);
  assert.equal(hooks.items[0].secret, undefined, "the secret is shown once only");

  // "Rotate secret": a new secret, shown once, after a confirmation.
  const asked = answerConfirm(page);
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await asked;
  await page.waitForFunction((old) => {
    const el = document.querySelector("[data-new-webhook-secret]");
    return el && el.textContent.trim() !== old;
  }, secret);
  const rotated = (await page.locator("[data-new-webhook-secret]").textContent()).trim();
  assert.match(rotated, /^whsec_[A-Za-z0-9+/=]{40,}$/);
  assert.notEqual(rotated, secret);
  assert.match(await page.locator(".alert--success").first().textContent(), /both the old and the new secret/);

  // A transaction goes out for signing with e-mail notification.
  const doc = await srv.upload(mixedPDF(), "Listing agreement");
  const r = await srv.room([doc]);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = tx.participants.map((p, i) => ({ type: "SIGNATURETEMPLATE", x: 72, y: 100 + 60 * i, width: 150, height: 40, page: 1, signerId: p.id, customData: {} }));
  tx.status = "esign_pending";
  tx.notifyParticipants = { email: true };
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);

  // No SMTP server here: the invitations are held; the call to a host that does not exist is dead.
  await page.getByRole("link", { name: "Outgoing messages" }).click();
  // Wait until the click has navigated: the reloads below must act on the outbox page.
  await page.waitForURL(/\/admin\/outbox(\?|$)/);
  const held = page.locator('[data-message-id][data-status="held"]');
  const dead = page.locator('[data-message-id][data-status="dead"]');
  // The outbox worker delivers in the background and the page does not refresh itself: reload it until it
  // lists both (polling with a deadline: no event to wait for), and count on the page that was checked — a
  // message's status moves on while the worker retries it, so a later copy of the page may differ.
  const deadline = Date.now() + 30000;
  while ((await held.count()) < 2 || (await dead.count()) < 2) {
    assert.ok(Date.now() < deadline, "within 30 s the outbox lists two held invitations and two dead calls");
    await page.reload();
  }
  assert.equal(await held.count(), 2, "two held invitations");
  assert.equal(await dead.count(), 2, "transaction.updated and transaction.esign_pending calls, dead");
  assert.match(await held.first().textContent(), /(pat|robin)@example\.com/);
  assert.match(await dead.first().textContent(), /hooks\.invalid/);
  await page.screenshot({ path: join(artifacts, "admin-outbox.png"), fullPage: true });

  await page.locator('[data-filter="dead"]').click();
  await page.waitForURL(/status=dead/);
  assert.equal(await page.locator('[data-message-id][data-status="held"]').count(), 0);
  const id = await dead.first().getAttribute("data-message-id");
  await Promise.all([page.waitForURL(/status=pending/), page.locator(`[data-message-id="${id}"]`).getByRole("button", { name: "Retry" }).click()]);
  await page.getByRole("link", { name: "Activity" }).click();
  assert.match(await page.locator("table").textContent(), new RegExp(`retry[\\s\\S]*${id}`));

  // The transaction's history says the invitations were queued.
  await page.goto(srv.base + "/admin/transactions/" + r.transactionId);
  assert.match(await page.locator("body").textContent(), /Invitations queued: 2 e-mails/);
  // …and lists its messages.
  assert.equal(await page.locator("#admin-messages-title ~ * [data-message-id]").count(), 4);
  await page.locator("#admin-messages-title").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "admin-transaction-messages.png") });
  assert.deepEqual(problems.filter((p) => !/status of (401|429)/.test(p)), []);
});

test("the organization's embedding origins: a refused origin says why, a saved list lets operation B embed", async () => {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await c.newPage();
  const seen = watchProblems(p);
  await signIn(p, "admin@example.com", srv.adminPassword);
  await p.goto(`${srv.base}/admin/organizations/${srv.orgId}`);
  const field = p.getByLabel("Allowed origins");
  await field.fill("https://app.example.com\nhttp://crm.example.com");
  await Promise.all([p.waitForNavigation({ waitUntil: "load" }), p.getByRole("button", { name: "Save origins" }).click()]);
  const errors = p.locator("[data-embed-origins] .field__error");
  assert.equal(await errors.count(), 1);
  assert.match(await errors.first().textContent(), /http:\/\/crm\.example\.com.*Only https:\/\//);
  assert.equal(await p.getByLabel("Allowed origins").getAttribute("aria-invalid"), "true");
  await p.locator("[data-embed-origins]").screenshot({ path: join(artifacts, "admin-embed-origins-refused.png") });
  const room = { senderId: srv.senderId, documents: [], participants: [{ firstName: "A", lastName: "B", email: "a@example.com" }], embed: { origin: "https://app.example.com" } };
  assert.equal(await apiStatus("POST", "/api/v1/markup-rooms", srv.token, room), 422, "not allowed yet");

  await p.getByLabel("Allowed origins").fill("https://App.example.com:443\nhttp://localhost:5173");
  await Promise.all([p.waitForNavigation({ waitUntil: "load" }), p.getByRole("button", { name: "Save origins" }).click()]);
  await p.getByText("Embedding origins saved.").waitFor();
  assert.equal(await p.getByLabel("Allowed origins").inputValue(), "https://app.example.com\nhttp://localhost:5173");
  assert.equal(await apiStatus("POST", "/api/v1/markup-rooms", srv.token, room), 200, "allowed now");
  await p.locator("[data-embed-origins]").screenshot({ path: join(artifacts, "admin-embed-origins.png") });
  await p.setViewportSize({ width: 390, height: 844 });
  // The section's own content fits its width (the page around it is wider than a phone already: its forms and tables).
  assert.ok(await p.locator("[data-embed-origins]").evaluate((s) => s.scrollWidth <= s.clientWidth), "the embedding form fits its section");
  await p.locator("[data-embed-origins]").screenshot({ path: join(artifacts, "admin-embed-origins-390.png") });
  assert.deepEqual(seen.filter((m) => !/status of 422 .*embed-origins/.test(m)), [], "nothing but the refused form's 422");
  await c.close();
});
