// Who else has the room open (docs/live.md, "Presence"): the stream's
// presence events (live.mjs) drawn as initials in the room's header
// ([data-presence], one [data-presence-person] each, in the person's
// colour) and, on the pages, an outline in that colour around each tag
// they have selected. A person is a room session, numbered in the order
// the sessions first opened the room: 1 is named after the room's sender
// (data-sender-name), the others "Guest 2", "Guest 3"… This page's own
// selection goes to the room (the [data-presence]'s data-presence-url), a
// moment after it settles.
import { t } from "./i18n.mjs";

/** How many colours people take in turn (presence-c0 … in editor.css). */
export const PRESENCE_COLOURS = 6;
/** How long a selection must stay before it is sent (ms). */
const SETTLE_MS = 250;

/** The name a person is shown by: the sender's for number 1, else Guest n. */
export function personName(n, senderName) {
  return n === 1 && senderName ? senderName : t("editor.presence.guest", { n });
}

/** Up to two initials of a name ("Sam Sender" → "SS", "Guest 2" → "G2"). */
export function initials(name) {
  const words = String(name).trim().split(/\s+/).filter(Boolean);
  return words.slice(0, 2).map((w) => Array.from(w)[0].toUpperCase()).join("");
}

/** The colour class of person number n. */
export const colourOf = (n) => `presence-c${(Math.max(1, n) - 1) % PRESENCE_COLOURS}`;

/**
 * Draws presence in doc and sends this page's selection. net: server.mjs's
 * connection (sendPresence). Returns {show(data), selected(ids)}: show draws a
 * presence event's data ({you, people}), again after each rebuild of the room
 * (htmx:afterSettle); selected(ids) is this page's selection.
 */
export function createPresence(doc, { net, win = globalThis } = {}) {
  let last = null; // the last presence drawn
  let timer = 0;
  let sent = "";

  function show(data) {
    last = data;
    const box = doc.querySelector("[data-presence]");
    if (!box) return;
    const sender = box.dataset.senderName || "";
    const others = (data?.people || []).filter((p) => p.session !== data.you);
    box.replaceChildren(
      ...others.map((p) => {
        const name = personName(p.n, sender);
        const li = doc.createElement("li");
        li.className = `room-presence__person ${colourOf(p.n)}`;
        li.dataset.presencePerson = String(p.n);
        li.title = t("editor.presence.person", { name });
        const mark = doc.createElement("span");
        mark.setAttribute("aria-hidden", "true");
        mark.textContent = initials(name);
        const words = doc.createElement("span");
        words.className = "visually-hidden";
        words.textContent = name;
        li.append(mark, words);
        return li;
      }),
    );
    box.hidden = others.length === 0;
    outline(others, sender);
  }

  /** Outlines the tags others have selected, in their colours. */
  function outline(others, sender) {
    for (const el of doc.querySelectorAll(".tag[data-presence-by]")) {
      el.classList.remove(...Array.from({ length: PRESENCE_COLOURS }, (_, i) => `presence-c${i}`), "tag--presence");
      el.removeAttribute("data-presence-by");
      if (el.dataset.presenceTitle !== undefined) {
        el.title = el.dataset.presenceTitle;
        delete el.dataset.presenceTitle;
      }
    }
    for (const p of others) {
      for (const id of p.selected || []) {
        const el = doc.querySelector(`.tag[data-tag-id="${CSS.escape(id)}"]`);
        if (!el || el.dataset.presenceBy) continue;
        el.dataset.presenceBy = String(p.n);
        el.dataset.presenceTitle = el.title || "";
        el.title = t("editor.presence.selecting", { name: personName(p.n, sender) });
        el.classList.add("tag--presence", colourOf(p.n));
      }
    }
  }

  doc.addEventListener("htmx:afterSettle", () => last && show(last)); // a rebuilt room draws it again

  return {
    show,
    /** This page's selection (tag ids): sent once it has stayed a moment, and only when it changed. */
    selected(ids) {
      win.clearTimeout(timer);
      timer = win.setTimeout(() => {
        const url = doc.querySelector("[data-presence]")?.dataset.presenceUrl;
        const key = ids.join(",");
        if (!url || key === sent) return;
        sent = key;
        net.sendPresence(url, ids).catch(() => {
          sent = ""; // (not said: what others see of a selection is no one's work)
        });
      }, SETTLE_MS);
    },
  };
}
