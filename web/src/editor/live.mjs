// The live room (docs/live.md): the page follows the room's events
// (GET /rooms/{id}/events, the .room's data-events-url) through the
// browser's EventSource (server.mjs's stream), followed from boot on; it outlives every rebuild of the room.
// A change another window made (an event whose client is not this page's,
// server.mjs's X-Room-Client) reads the room again, as a room change's
// answer is swapped in: the tags, pages, documents and people as they are
// now, the zoom, scroll and undo history kept. A burst of events is one
// read; an event the markup already shows (its number is not past the
// .room's data-event-seq) reads nothing. The read waits while the user is
// in the middle of something a swap would lose — a drag, a save on its
// way, a dialog or menu open, a field being typed in — and happens as
// soon as they are done; meanwhile an open pre-send check (the session
// dialog) is run again on what changed.
//
// A lost connection shows "Reconnecting…" ([data-live-status]) until the
// EventSource is back; it then sends Last-Event-ID and receives exactly
// what it missed, or `reset` when that is no longer kept: both read the
// room. The room's last event (completed, expired) reads it once more and
// closes the stream.
import { t } from "./i18n.mjs";

/** The types of the room's events (models.RoomEvent*): each is a change to draw. */
export const ROOM_EVENT_TYPES = [
  "tag_created", "tag_updated", "tag_deleted",
  "page_moved", "page_deleted", "page_restored",
  "document_added", "document_removed", "document_renamed", "document_revised",
  "participant_added", "participant_updated", "participant_removed",
  "template_applied", "suggestions_dismissed", "suggestions_restored",
  "transaction_replaced", "status_changed", "room_completed", "room_expired",
];

/** The events after which the room has no more: its stream ends. */
const FINAL = new Set(["room_completed", "room_expired"]);

/** How long a burst of events is gathered before the room is read (ms). */
export const GATHER_MS = 80;
/** How often a read that waits for the user looks again (ms). */
const WAIT_MS = 200;
/** How long a lost connection is quiet before the page says so (ms). */
const QUIET_MS = 1500;
/** How long after a refused stream a new one is asked for (ms). */
const RETRY_MS = 5000;

/**
 * Reads an event's data ({session, client, data}); null when it is not
 * JSON (a stream that is not ours).
 */
export function readEvent(text) {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" ? v : null;
  } catch {
    return null;
  }
}

/** What shows the user is in the middle of something: a save on its way, a drag, a dialog or a menu's form open. */
const BUSY = ".tag--pending, .tag--dragging, .htmx-request, .room dialog[open], .room details[open] > form";

/**
 * Whether the user is in the middle of something that reading the room
 * would lose: a tag pressed or dragged, a save on its way, a dialog or a
 * menu's form open, a field of the room focused (not the toolbar's zoom
 * and page number, which a swap keeps).
 */
export function userBusy(doc, pressed) {
  if (pressed) return true;
  if (doc.querySelector(BUSY)) return true;
  const el = doc.activeElement;
  if (!el || !el.closest?.(".room") || el.closest("[data-viewer-toolbar]")) return false;
  return el.matches("textarea, select, [contenteditable], input:not([type=button], [type=submit], [type=checkbox], [type=radio], [type=file])");
}

/**
 * Follows the room's events on doc's .room[data-events-url]; returns null
 * where there is none (a room that is not open) or no EventSource.
 * net: server.mjs's connection (its client id, its streams); reload():
 * reads the room again and swaps it in (a promise); reloaded(): called
 * after each read another window's change caused (an embedded room tells
 * its host); onPresence(data): a presence event's data (presence.mjs).
 * win: the window (timers), for the unit tests.
 */
export function followRoom(doc, { net, reload, reloaded = () => {}, onPresence = () => {}, win = globalThis } = {}) {
  const first = doc.querySelector(".room[data-events-url]");
  if (!first || !net.canStream) return null;
  const shown = () => Number(doc.querySelector(".room")?.dataset.eventSeq || 0);
  let newest = 0; // the number of the newest event of another window
  let resetting = false; // the stream said reset: read whatever the number says
  let timer = 0;
  let reading = false;
  let pressed = false;
  let quiet = 0;
  let reads = 0; // how many times another window's change read the room (for the browser tests)

  doc.addEventListener("pointerdown", () => (pressed = true), true);
  for (const end of ["pointerup", "pointercancel"]) doc.addEventListener(end, () => (pressed = false), true);

  const schedule = (ms) => {
    if (!timer) timer = win.setTimeout(read, ms);
  };
  let checked = 0; // the newest event the open pre-send check was run again for
  /** The pre-send check open (the session dialog): run it again on what others changed; the room is read once it closes. */
  function checkAgain() {
    const url = doc.querySelector("#session-dialog[open]") && doc.querySelector('[data-control="create-session"]')?.getAttribute("hx-get");
    if (!url || newest <= checked) return;
    checked = newest;
    net.reloadPart(url, "#session-checklist");
  }
  async function read() {
    timer = 0;
    if (reading) return schedule(WAIT_MS);
    if (!resetting && newest <= shown()) return; // the markup shows it already (this page's own answer, say)
    if (userBusy(doc, pressed)) {
      checkAgain();
      return schedule(WAIT_MS);
    }
    reading = true;
    resetting = false;
    reads++;
    try {
      await reload();
      reloaded();
    } finally {
      reading = false;
    }
    if (newest > shown()) schedule(GATHER_MS); // more came while it was read
  }

  let said = ""; // what [data-live-status] says (a rebuilt room says it again)
  const status = (text) => {
    said = text;
    const el = doc.querySelector("[data-live-status]");
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
  };
  let source = null;
  let ended = false;
  const received = []; // the numbers of the events received, in order (the newest 1,000; for the browser tests)
  function open(url) {
    source = net.stream(url);
    const onEvent = (e) => {
      received.push(Number(e.lastEventId || 0));
      if (received.length > 1000) received.shift();
      if (FINAL.has(e.type)) {
        ended = true;
        source.close();
      }
      const ev = readEvent(e.data);
      if (!ev || (ev.client && ev.client === net.client && !FINAL.has(e.type))) return; // this page's own change
      newest = Math.max(newest, Number(e.lastEventId || 0));
      schedule(GATHER_MS);
    };
    for (const type of ROOM_EVENT_TYPES) source.addEventListener(type, onEvent);
    source.addEventListener("presence", (e) => {
      const data = readEvent(e.data);
      if (data) onPresence(data);
    });
    source.addEventListener("reset", (e) => {
      newest = Math.max(newest, Number(e.lastEventId || 0));
      resetting = true;
      schedule(GATHER_MS);
    });
    source.addEventListener("open", () => {
      win.clearTimeout(quiet);
      quiet = 0;
      status("");
    });
    source.addEventListener("error", () => {
      if (ended) return;
      if (!quiet) quiet = win.setTimeout(() => status(t("editor.live.reconnecting")), QUIET_MS);
      if (source.readyState !== 2) return; // EventSource tries again by itself
      // Refused (too many streams, say): a new stream from the room as shown, a little later; the room is read then.
      win.setTimeout(() => {
        const url = doc.querySelector(".room[data-events-url]")?.dataset.eventsUrl;
        if (!url || ended) return;
        resetting = true;
        schedule(GATHER_MS);
        open(url);
      }, RETRY_MS);
    });
  }
  open(first.dataset.eventsUrl);
  doc.addEventListener("htmx:afterSettle", () => status(said)); // a rebuilt room says it again
  return {
    received,
    get reads() {
      return reads;
    },
    close: () => {
      ended = true;
      source.close();
    },
  };
}
