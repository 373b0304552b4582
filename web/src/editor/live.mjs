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

/** The events whose tags are drawn in place at once (onTags), before the room is read. */
const TAGS_IN_PLACE = new Set(["tag_updated", "tag_deleted"]);

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
 * its host); onPresence(data): a presence event's data (presence.mjs);
 * onTags(type, tags): another window's tag_updated or tag_deleted, to draw
 * at once (the read of the room may wait for the user). win: the window
 * (timers), for the unit tests.
 */
export function followRoom(doc, { net, reload, reloaded = () => {}, onPresence = () => {}, onTags = () => {}, win = globalThis } = {}) {
  const first = doc.querySelector(".room[data-events-url]");
  if (!first || !net.canStream) return null;
  const reader = createReader(doc, { net, reload, reloaded, win });
  const line = createStatus(doc, win);
  let source = null;
  let ended = false;
  const received = []; // the numbers of the events received, in order (the newest 1,000; for the browser tests)
  const seq = (e) => Number(e.lastEventId || 0);

  function open(url) {
    source = net.stream(url);
    const onEvent = (e) => {
      received.push(seq(e));
      if (received.length > 1000) received.shift();
      const final = FINAL.has(e.type);
      if (final) {
        ended = true;
        source.close();
      }
      const ev = readEvent(e.data);
      if (!ev || (!final && ev.client && ev.client === net.client)) return; // this page's own change
      if (TAGS_IN_PLACE.has(e.type)) onTags(e.type, ev.data?.tags || []); // drawn at once, even while the read waits
      reader.changed(seq(e));
    };
    for (const type of ROOM_EVENT_TYPES) source.addEventListener(type, onEvent);
    source.addEventListener("presence", (e) => {
      const data = readEvent(e.data);
      if (data) onPresence(data);
    });
    source.addEventListener("reset", (e) => reader.changed(seq(e), true));
    source.addEventListener("open", () => line.connected());
    source.addEventListener("error", () => {
      if (ended) return;
      line.lost();
      if (source.readyState !== 2) return; // EventSource tries again by itself
      // Refused (too many streams, say): a new stream from the room as shown, a little later; the room is read then.
      win.setTimeout(() => {
        const url = doc.querySelector(".room[data-events-url]")?.dataset.eventsUrl;
        if (!url || ended) return;
        reader.changed(0, true);
        open(url);
      }, RETRY_MS);
    });
  }
  open(first.dataset.eventsUrl);
  return {
    received,
    get reads() {
      return reader.reads;
    },
    close: () => {
      ended = true;
      source.close();
    },
  };
}

/**
 * When the room is read again: changed(seq, reset) tells of another
 * window's event number seq (reset: read whatever the numbers say); the
 * read comes GATHER_MS later, waits while the user is busy (an open
 * pre-send check is run again meanwhile) and reads nothing the markup
 * already shows. reads: how many reads it made.
 */
function createReader(doc, { net, reload, reloaded, win }) {
  const shown = () => Number(doc.querySelector(".room")?.dataset.eventSeq || 0);
  let newest = 0; // the number of the newest event of another window
  let resetting = false;
  let timer = 0;
  let reading = false;
  let pressed = false;
  let checked = 0; // the newest event the open pre-send check was run again for
  let reads = 0;
  doc.addEventListener("pointerdown", () => (pressed = true), true);
  for (const end of ["pointerup", "pointercancel"]) doc.addEventListener(end, () => (pressed = false), true);

  const schedule = (ms) => {
    if (!timer) timer = win.setTimeout(read, ms);
  };
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
  return {
    changed(seq, reset = false) {
      newest = Math.max(newest, seq);
      resetting ||= reset;
      schedule(GATHER_MS);
    },
    get reads() {
      return reads;
    },
  };
}

/**
 * The stream's state in [data-live-status]: "Reconnecting…" once it has
 * been lost for QUIET_MS, nothing once it is back; a rebuilt room says it
 * again.
 */
function createStatus(doc, win) {
  let said = "";
  let quiet = 0;
  const say = (text) => {
    said = text;
    const el = doc.querySelector("[data-live-status]");
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
  };
  doc.addEventListener("htmx:afterSettle", () => say(said));
  return {
    lost() {
      if (!quiet) quiet = win.setTimeout(() => say(t("editor.live.reconnecting")), QUIET_MS);
    },
    connected() {
      win.clearTimeout(quiet);
      quiet = 0;
      say("");
    },
  };
}
