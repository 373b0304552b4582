-- Who has a Markup Room open (docs/live.md, "Presence"): one row per room
-- and room session (its short id, never the session itself), numbered in the
-- order the sessions first opened the room's editor (1 is named after the
-- room's sender, the others "Guest 2", "Guest 3"…). streams counts the
-- session's open event streams on every instance, seen_at is refreshed by
-- each stream's heartbeat (a row not seen for 30 s is gone, as after a
-- crash), selected is the tags the session has selected (ids, comma-separated).

-- +goose Up
CREATE TABLE room_presence (
    room_id  text        NOT NULL REFERENCES markup_rooms (id) ON DELETE CASCADE,
    session  text        NOT NULL,
    ordinal  integer     NOT NULL,
    streams  integer     NOT NULL DEFAULT 0,
    selected text        NOT NULL DEFAULT '',
    seen_at  timestamptz NOT NULL,
    PRIMARY KEY (room_id, session)
);

-- +goose Down
DROP TABLE room_presence;
