// "Preview as…" a participant (issue 40, item 1; docs/review.md) on three
// browser engines through web/e2e/lib/engine.mjs:
//
//   ENGINE=chromium|firefox|webkit node --test --test-concurrency=1 web/e2e/engines-preview.test.mjs
//
// The room's toolbar button [data-preview] imports the preview's own bundle
// on its first click (static/js/preview.js, not before); the walk goes
// through one participant's fields in filling order (document, page, rows
// top to bottom read left to right, on the page as shown: a /Rotate 90 page
// too) with "Field n of m — type, page p"; everyone else's tags are faded
// and take no click; nothing can be moved or deleted; Esc leaves; "Edit this
// field" leaves with the tag selected; at 390 px, in Arabic and in an
// embedded room. Screenshots: issue40-preview-<width>-<lang>-<engine>.png.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readFileSync } from "node:fs";
import { mixedPDF } from "./lib/pdf.mjs";
import { startServer } from "./lib/server.mjs";
import { launch, engine } from "./lib/engine.mjs";
import { enginePages, assertClean, clickable, DESKTOP } from "./lib/room.mjs";

const T = { timeout: 240000 };
const catalog = (lang) => JSON.parse(readFileSync(new URL(`../i18n/locales/${lang}.json`, import.meta.url), "utf8"));
let srv, browser, mixed;

before(async () => {
  srv = await startServer();
  browser = await launch();
  mixed = await srv.upload(mixedPDF(), "Lease");
});

after(async () => {
  await browser?.close();
  srv?.stop();
});

const pages = enginePages(() => browser);
afterEach(pages.closeAll);

const inLang = (url, lang) => {
  const u = new URL(url);
  u.searchParams.set("lang", lang);
  return u.toString();
};

// Pat's fields (who 0), named by where they are, listed out of order; Robin's (who 1) to fade.
// Page 1 is Letter portrait: the date sits 3 pt above the signature beside it (one row: after it).
// Page 5 turns /Rotate 90: PDF x runs down the page as shown, so "low-x" comes before "high-x".
const TAGS = [
  ["p5-high-x", "SIGNATURETEMPLATE", 5, 400, 500, 0],
  ["p2-initials", "INITIALSTEMPLATE", 2, 480, 40, 0],
  ["p1-date", "DATETEMPLATE", 1, 320, 103, 0],
  ["p1-signature", "SIGNATURETEMPLATE", 1, 72, 100, 0],
  ["p5-low-x", "INITIALSTEMPLATE", 5, 100, 100, 0],
  ["p1-initials", "INITIALSTEMPLATE", 1, 480, 700, 0],
  ["robin-signature", "SIGNATURETEMPLATE", 1, 320, 300, 1],
  ["robin-date", "DATETEMPLATE", 3, 100, 300, 1],
];
const PAT_ORDER = ["p1-initials", "p1-signature", "p1-date", "p2-initials", "p5-low-x", "p5-high-x"];

/** A room on the five-page mixed document with TAGS (embedded on embedOrigin when given). */
async function previewRoom(embedOrigin) {
  const r = embedOrigin
    ? await srv.api("POST", "/api/v1/markup-rooms", {
        senderId: srv.senderId,
        documents: [mixed.location],
        participants: [
          { firstName: "Pat", lastName: "Buyer", email: "pat@example.com" },
          { firstName: "Robin", lastName: "Seller", email: "robin@example.com" },
        ],
        embed: { origin: embedOrigin },
      })
    : await srv.room([mixed]);
  const tx = await srv.transaction(r.transactionId);
  tx.documents[0].tags = TAGS.map(([, type, page, x, y, who]) => ({
    type, page, x, y, width: type === "INITIALSTEMPLATE" ? 50 : 120, height: 30, signerId: tx.participants[who].id, customData: {}, required: type !== "DATETEMPLATE",
  }));
  await srv.api("PUT", `/api/v1/transactions/${r.transactionId}`, tx);
  return { r, tx };
}

/** The room's tags by name (TAGS): data-tag-id → name, matched by type, page and place. */
function namesOf(page) {
  return page.eval((tags) => {
    const out = {};
    for (const t of document.querySelectorAll(".tag[data-tag-id]")) {
      const d = t.dataset;
      out[d.tagId] = tags.find(([, type, pg, x, y]) => d.tagType === type && Number(d.tagPage) === pg && Number(d.x) === x && Number(d.y) === y)?.[0];
    }
    return out;
  }, TAGS);
}

/** Clicks [data-preview] and waits for the bar with its first field. */
async function openPreview(page) {
  await clickable(page, "[data-preview]");
  await page.click("[data-preview]");
  await page.waitForSelector("[data-preview-bar] [data-preview-caption]", { visible: true, timeout: 30000 });
  await page.waitFor(() => document.querySelector("[data-preview-caption]").textContent.trim() !== "", null, { message: `${engine}: a caption` });
}

/** Where the walk is: caption, the current tag's id, whether it is in the viewer's view, the buttons' states. */
const where = (page) =>
  page.eval(() => {
    const cur = document.querySelectorAll(".tag[data-preview-current]");
    const tag = cur[0];
    const v = document.querySelector("[data-viewer]").getBoundingClientRect();
    const r = tag?.getBoundingClientRect();
    return {
      caption: document.querySelector("[data-preview-caption]").textContent.trim(),
      detail: document.querySelector("[data-preview-detail]").textContent.trim(),
      id: tag?.dataset.tagId || "",
      currents: cur.length,
      inView: !!r && r.top >= v.top - 1 && r.bottom <= v.bottom + 1 && r.left >= v.left - 1 && r.right <= v.right + 1,
      prev: document.querySelector("[data-preview-prev]").disabled,
      next: document.querySelector("[data-preview-next]").disabled,
    };
  });

const LABEL = { SIGNATURETEMPLATE: "Signature", INITIALSTEMPLATE: "Initials" };

test("the walk goes through every field of one participant in filling order, with Next, Previous and their keys", T, async () => {
  const { r, tx } = await previewRoom();
  const page = await pages.openRoom(r.url);
  const names = await namesOf(page);
  const loaded = () => page.eval(() => performance.getEntriesByType("resource").filter((e) => /\/js\/preview\./.test(e.name)).length);
  assert.equal(await loaded(), 0, `${engine}: the preview's script waits for the first click`);
  await openPreview(page);
  assert.equal(await loaded(), 1, `${engine}: loaded once, on the click`);

  const picker = await page.eval(() => {
    const s = document.querySelector("[data-preview-participant]");
    return { value: s.value, options: [...s.options].map((o) => o.textContent.replace(/[\u2068\u2069]/g, "")), focused: document.activeElement.hasAttribute("data-preview-next") };
  });
  assert.deepEqual(picker, { value: tx.participants[0].id, options: ["Pat Buyer — 6 fields", "Robin Seller — 2 fields"], focused: true }, `${engine}: the picker`);

  const dateLabel = await page.eval(() => document.querySelector('.tag[data-tag-type="DATETEMPLATE"]').dataset.typeLabel);
  const seen = [];
  for (let i = 0; i < PAT_ORDER.length; i++) {
    const w = await where(page);
    const name = names[w.id];
    const [, type, pg] = TAGS.find((t) => t[0] === name);
    seen.push(name);
    assert.equal(w.caption, `Field ${i + 1} of 6 — ${LABEL[type] || dateLabel}, page ${pg}`, `${engine}: caption at ${name}`);
    assert.equal(w.currents, 1);
    assert.ok(w.inView, `${engine}: ${name} brought into view`);
    assert.equal(w.prev, i === 0, `${engine}: Previous at ${i}`);
    assert.equal(w.next, i === PAT_ORDER.length - 1, `${engine}: Next at ${i}`);
    if (type === "DATETEMPLATE") assert.match(w.detail, /^Optional · Format \S+/, `${engine}: the date's format`);
    else assert.equal(w.detail, "Required");
    if (i === PAT_ORDER.length - 1) break;
    // Half by the button, half by the keys (N and →).
    if (i < 2) await page.click("[data-preview-next]");
    else await page.press(i % 2 ? "n" : "ArrowRight");
    await page.waitFor((n) => document.querySelector("[data-preview-caption]").textContent.startsWith(`Field ${n} `), i + 2, { message: `${engine}: field ${i + 2}` });
  }
  assert.deepEqual(seen, PAT_ORDER, `${engine}: filling order`);

  // Back with P, ←, and the button; the walk stops at its ends.
  await page.press("p");
  await page.press("ArrowLeft");
  await page.click("[data-preview-prev]");
  assert.equal(names[(await where(page)).id], PAT_ORDER[2], `${engine}: three back`);

  // Robin's walk: two fields; page 3 (landscape) after page 1.
  await page.select("[data-preview-participant]", tx.participants[1].id);
  const robin = await where(page);
  assert.equal(names[robin.id], "robin-signature");
  assert.equal(robin.caption, "Field 1 of 2 — Signature, page 1");
  await page.click("[data-preview-next]");
  assert.equal(names[(await where(page)).id], "robin-date");

  // A tag swapped in alone while previewing (a save's answer from another window): the walk reads the pages again.
  await page.eval(() => {
    const tag = document.querySelector(".tag[data-preview-current]");
    tag.replaceWith(tag.cloneNode(true));
    document.dispatchEvent(new Event("htmx:afterSettle"));
  });
  const again = await where(page);
  assert.deepEqual([names[again.id], again.currents, again.caption], ["robin-signature", 1, "Field 1 of 2 — Signature, page 1"], `${engine}: walked again`);
  await page.click("[data-preview-next]");
  assert.equal((await page.eval(() => document.querySelector(".tag[data-preview-current]").isConnected && document.querySelectorAll("[data-preview-current]").length)), 1);
  await assertClean(page);
});

test("in the preview others' tags are faded and take no click; nothing moves or is deleted; Esc leaves; Edit this field selects", T, async () => {
  const { r } = await previewRoom();
  const page = await pages.openRoom(r.url);
  const names = await namesOf(page);
  const byName = (n) => Object.keys(names).find((id) => names[id] === n);
  await openPreview(page);

  const look = await page.eval(() =>
    [...document.querySelectorAll(".tag[data-tag-id]")].map((t) => ({ id: t.dataset.tagId, mine: t.hasAttribute("data-preview-mine"), opacity: Number(getComputedStyle(t).opacity), inert: !!t.closest("[inert]") })),
  );
  for (const t of look) {
    assert.equal(t.mine, !names[t.id].startsWith("robin"), `${engine}: ${names[t.id]} marked as Pat's or not`);
    assert.ok(t.mine ? t.opacity === 1 : t.opacity < 0.5, `${engine}: ${names[t.id]} opacity ${t.opacity}`);
    assert.ok(t.inert, `${engine}: ${names[t.id]} takes no focus or click`);
  }
  const editing = await page.eval(() => ["#room-sidebar", "#room-panel", '[data-action="undo"]', "[data-palette]"].map((s) => !!document.querySelector(s)?.closest("[inert]")));
  assert.deepEqual(editing, [true, true, true, true], `${engine}: the side columns, palette and undo are out of reach`);

  // A click on Robin's tag selects nothing; a drag of Pat's moves nothing; Delete and Ctrl+Z do nothing.
  const robinSel = `.tag[data-tag-id="${byName("robin-signature")}"]`;
  const patSel = `.tag[data-tag-id="${byName("p1-signature")}"]`;
  const rb = await page.box(robinSel, "center");
  await page.clickAt(Math.round(rb.x + rb.width / 2), Math.round(rb.y + rb.height / 2));
  const pb = await page.box(patSel, "center");
  await page.drag({ x: pb.x + pb.width / 2, y: pb.y + pb.height / 2 }, { x: pb.x + pb.width / 2 + 80, y: pb.y + pb.height / 2 + 60 });
  await page.press("Delete");
  await page.press("Control+a");
  await page.press("Backspace");
  await page.press("Control+z");
  await new Promise((res) => setTimeout(res, 400));
  const after = await page.eval((sel) => ({
    selected: document.querySelectorAll('.tag[aria-selected="true"], .tag[data-selected]').length,
    tags: document.querySelectorAll(".tag[data-tag-id]").length,
    pat: (({ x, y }) => ({ x, y }))(document.querySelector(sel).dataset),
    pending: document.querySelectorAll(".tag--pending").length,
  }), patSel);
  assert.deepEqual(after, { selected: 0, tags: TAGS.length, pat: { x: "72", y: "100" }, pending: 0 }, `${engine}: nothing changed`);
  assert.deepEqual((await page.requests()).filter((q) => q.method !== "GET"), [], `${engine}: nothing sent`);
  assert.deepEqual((await page.fetches()).filter((q) => q.method !== "GET"), [], `${engine}: no batch sent`);
  const stored = (await srv.transaction(r.transactionId)).documents[0].tags.map((t) => [t.type, t.page, t.x, t.y].join(" ")).sort();
  assert.deepEqual(stored, TAGS.map((t) => t.slice(1, 5).join(" ")).sort(), `${engine}: the server has the same tags`);

  // Esc leaves: the bar goes, the room is as it was, the focus on the button.
  await page.press("Escape");
  await page.waitForSelector("[data-preview-bar]", { hidden: true });
  const left = await page.eval(() => ({
    previewing: document.querySelector(".room").hasAttribute("data-previewing"),
    inert: document.querySelectorAll("[inert]").length,
    marked: document.querySelectorAll("[data-preview-mine], [data-preview-current]").length,
    focus: document.activeElement?.hasAttribute("data-preview"),
  }));
  assert.deepEqual(left, { previewing: false, inert: 0, marked: 0, focus: true }, `${engine}: left`);

  // Again (no second load), two fields on, then "Edit this field": that tag selected and focused, the editor back.
  await openPreview(page);
  assert.equal(await page.eval(() => performance.getEntriesByType("resource").filter((e) => /\/js\/preview\./.test(e.name)).length), 1);
  await page.click("[data-preview-next]");
  await page.click("[data-preview-next]");
  const id = (await where(page)).id;
  assert.equal(names[id], "p1-date");
  await page.click("[data-preview-edit]");
  await page.waitForSelector("[data-preview-bar]", { hidden: true });
  await page.waitFor((id) => document.activeElement?.dataset.tagId === id && document.activeElement.getAttribute("aria-selected") === "true", id, { message: `${engine}: the date selected and focused` });
  // The editor works again: an arrow nudges the selected tag, one save.
  await page.request("PUT", /\/tags\//, () => page.press("ArrowRight"));
  assert.equal(await page.eval((id) => document.querySelector(`.tag[data-tag-id="${id}"]`).dataset.x, id), "321");
  await assertClean(page);
});

test("the preview at 1440 and 390 px, in English and Arabic (screenshots)", T, async () => {
  const { r } = await previewRoom();
  // WebKitGTK's MiniBrowser window stops at 447 px.
  const phone = engine === "webkit" ? { width: 447, height: 844 } : { width: 390, height: 844 };
  for (const lang of ["en", "ar"]) {
    const words = catalog(lang);
    for (const size of [DESKTOP, phone]) {
      const page = await pages.openRoom(inLang(r.url, lang), size);
      assert.equal(await page.eval(() => document.querySelector("[data-preview]").textContent.trim()), words["room.preview"]);
      await openPreview(page);
      // Next with the arrow key that points forward in the language's direction.
      await page.press(lang === "ar" ? "ArrowLeft" : "ArrowRight");
      await page.waitFor(() => /2/.test(document.querySelector("[data-preview-caption]").textContent), null, { message: `${engine} ${lang}: field 2` });
      const seen = await page.eval(() => {
        const bar = document.querySelector("[data-preview-bar]");
        const b = bar.getBoundingClientRect();
        return {
          dir: document.documentElement.dir,
          caption: bar.querySelector("[data-preview-caption]").textContent.trim(),
          buttons: [...bar.querySelectorAll("button")].map((x) => x.textContent.trim()),
          fits: b.left >= -1 && b.right <= innerWidth + 1 && document.documentElement.scrollWidth <= innerWidth + 1,
          spills: [...bar.querySelectorAll("*")].filter((x) => x.scrollWidth > x.clientWidth + 1 && getComputedStyle(x).overflow !== "visible").map((x) => x.className),
          cut: [...bar.querySelectorAll("button")].filter((x) => { const r = x.getBoundingClientRect(); return r.left < b.left - 1 || r.right > b.right + 1; }).length,
          viewerShown: document.querySelector("[data-viewer]").getBoundingClientRect().height > 150,
          current: (() => {
            const t = document.querySelector(".tag[data-preview-current]").getBoundingClientRect();
            const v = document.querySelector("[data-viewer]").getBoundingClientRect();
            return t.top >= v.top - 1 && t.bottom <= v.bottom + 1;
          })(),
        };
      });
      const expected = words["editor.preview.field"].replace("{n}", "2").replace("{total}", "6").replace("{type}", words["tagtype.signature"]).replace("{page}", "1");
      assert.equal(seen.dir, lang === "ar" ? "rtl" : "ltr");
      assert.equal(seen.caption, expected, `${engine} ${lang} ${size.width}: the caption in the page's language`);
      assert.deepEqual(seen.buttons, ["editor.preview.previous", "editor.preview.next", "editor.preview.edit", "editor.preview.close"].map((k) => words[k]));
      assert.equal(seen.fits, true, `${engine} ${lang} ${size.width}: the bar fits the window`);
      assert.equal(seen.cut, 0, `${engine} ${lang} ${size.width}: every button whole`);
      assert.deepEqual(seen.spills, [], `${engine} ${lang} ${size.width}: nothing spills`);
      assert.ok(seen.viewerShown, `${engine} ${lang} ${size.width}: the pages still show under the bar`);
      assert.ok(seen.current, `${engine} ${lang} ${size.width}: the field in view`);
      await page.screenshot(`issue40-preview-${size.width}-${lang}`);
      await page.press("Escape");
      await page.waitForSelector("[data-preview-bar]", { hidden: true });
      await assertClean(page);
      await page.close();
    }
  }
});

/** A caller's site that mounts the room named by ?room= with static/embed.js. */
function hostSite(base) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<style>html,body{margin:0;height:100%}#room{position:absolute;inset:0}</style></head><body><div id="room"></div>
<script src="${base}/static/embed.js"></script><script src="/host.js"></script></body></html>`;
  const js = `MarkupRoom.mount(document.getElementById("room"), { url: new URLSearchParams(location.search).get("room") });`;
  const server = http.createServer((req, res) => {
    const isJS = req.url.startsWith("/host.js");
    res.writeHead(200, { "Content-Type": isJS ? "text/javascript" : "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(isJS ? js : html);
  });
  return new Promise((resolve) => server.listen(0, () => resolve({ origin: `http://localhost:${server.address().port}`, close: () => server.close() })));
}

test("on a phone, in every language, Preview as… and Create e-signature session share the header's row without covering each other", T, async () => {
  const { r } = await previewRoom();
  const phone = engine === "webkit" ? { width: 447, height: 844 } : { width: 390, height: 844 };
  for (const lang of ["en", "es", "fr", "de", "ar"]) {
    const page = await pages.openRoom(inLang(r.url, lang), phone);
    const boxes = await page.eval(() =>
      ["[data-preview]", "[data-control='create-session']"].map((sel) => {
        const b = document.querySelector(sel).getBoundingClientRect();
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom, scroll: document.querySelector(sel).scrollWidth - document.querySelector(sel).clientWidth };
      }),
    );
    const [a, b] = boxes;
    const apart = a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
    assert.ok(apart, `${engine} ${lang}: the two buttons overlap: ${JSON.stringify(boxes)}`);
    assert.ok(boxes.every((x) => x.right <= phone.width && x.left >= 0 && x.scroll <= 1), `${engine} ${lang}: a button leaves the window or cuts its label: ${JSON.stringify(boxes)}`);
    await page.close();
  }
});

test("the preview works in an embedded room", T, async () => {
  const host = await hostSite(srv.base);
  try {
    srv.cli("org", "update", srv.orgId, "--embed-origins", host.origin);
    const { r } = await previewRoom(host.origin);
    const page = await pages.newPage(DESKTOP);
    await page.goto(`${host.origin}/?room=${encodeURIComponent(r.url)}`);
    await page.frameWaitFor(() => !!document.querySelector(".viewer-page--rendered"), null, { timeout: 60000, message: `${engine}: a drawn page in the frame` });
    await page.frameEval(() => document.querySelector("[data-preview]").click());
    await page.frameWaitFor(() => document.querySelector("[data-preview-caption]")?.textContent.startsWith("Field 1 of 6"), null, { timeout: 30000, message: `${engine}: the walk in the frame` });
    await page.frameEval(() => document.querySelector("[data-preview-next]").click());
    const seen = await page.frameEval(() => ({
      caption: document.querySelector("[data-preview-caption]").textContent,
      faded: [...document.querySelectorAll(".tag:not([data-preview-mine])")].every((t) => Number(getComputedStyle(t).opacity) < 0.5),
      fits: document.querySelector("[data-preview-bar]").getBoundingClientRect().right <= innerWidth + 1,
    }));
    assert.deepEqual(seen, { caption: "Field 2 of 6 — Signature, page 1", faded: true, fits: true }, `${engine}: embedded`);
    await page.frameEval(() => document.querySelector("[data-preview-close]").click());
    await page.frameWaitFor(() => !document.querySelector("[data-preview-bar]") && !document.querySelector("[inert]"), null, { message: `${engine}: left in the frame` });
  } finally {
    host.close();
  }
});
