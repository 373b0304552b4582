// The events an embedded room posts to the page that frames it
// (docs/decisions.md, "Embedded rooms"; static/embed.js receives them):
//   ready      the room was drawn                       detail {status}
//   changed    a change was saved                       detail {tags, unassigned, participants: [{id, name, tags}]}
//   completed  the e-signature session was created      detail {}
//   error      the room showed the user a refusal       detail {message}
// Each is window.parent.postMessage({source: "markuproom", type, roomId,
// transactionId, detail}, origin) with origin the one the server rendered in
// the room's data-embed-origin: a room created without one, or not framed,
// posts nothing, and nothing is ever posted to "*".

/** How long saves are gathered into one "changed" (a group's moves, a swap that follows a save). */
const CHANGED_DELAY_MS = 120;

/**
 * Creates the room's link to its host. win is the room's window; the room
 * element (.room) is read again at each post, since a room change swaps it.
 * Returns {post(type, detail), changed(), ready()}; every one is a no-op
 * when the room is not embedded.
 */
export function createEmbed(win = globalThis.window, doc = globalThis.document) {
  const room = () => doc.querySelector(".room[data-room-id]");
  const target = () => {
    const origin = room()?.dataset.embedOrigin || "";
    if (!origin || !win || win.parent === win || !win.parent) return "";
    return origin;
  };
  const post = (type, detail = {}) => {
    const origin = target();
    if (!origin) return false;
    const r = room();
    win.parent.postMessage({ source: "markuproom", type, roomId: r.dataset.roomId, transactionId: r.dataset.transactionId || "", detail }, origin);
    return true;
  };
  let timer = 0;
  let readySent = false;
  return {
    post,
    /** Posts "changed" once the saves of the moment are done. */
    changed() {
      if (!target()) return;
      clearTimeout(timer);
      timer = setTimeout(() => post("changed", tagCounts(doc)), CHANGED_DELAY_MS);
    },
    /** Posts "ready" at the first drawing of the room, and "completed" when the page says so (once, then forgets it). */
    ready() {
      const r = room();
      if (!r || !target()) return;
      if (!readySent) {
        readySent = true;
        post("ready", { status: r.querySelector(".room-header .badge")?.textContent.trim() || "" });
      }
      if (r.dataset.embedEvent === "completed") {
        delete r.dataset.embedEvent;
        post("completed", {});
        forgetEvent(win);
      }
    },
  };
}

/** Drops embed_event from the address, so a reload of the frame does not tell the host again. */
function forgetEvent(win) {
  try {
    const url = new URL(win.location.href);
    if (!url.searchParams.has("embed_event")) return;
    url.searchParams.delete("embed_event");
    win.history.replaceState(win.history.state, "", url.pathname + url.search + url.hash);
  } catch {
    // An address that cannot be rewritten stays; the event was posted.
  }
}

/** The room's tags counted per participant (in the participants' order), and those assigned to nobody. */
export function tagCounts(doc = globalThis.document) {
  const per = new Map();
  let tags = 0;
  for (const tag of doc.querySelectorAll(".tag[data-tag-id]")) {
    tags++;
    const id = tag.dataset.signerId || "";
    per.set(id, (per.get(id) || 0) + 1);
  }
  const participants = [...doc.querySelectorAll("[data-participant-id]")].map((el) => ({
    id: el.dataset.participantId,
    name: el.querySelector(".room-participant__name")?.textContent.trim() || "",
    tags: per.get(el.dataset.participantId) || 0,
  }));
  return { tags, unassigned: per.get("") || 0, participants };
}
