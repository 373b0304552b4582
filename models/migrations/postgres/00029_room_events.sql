-- Every committed change of a Markup Room writes its events here, in the
-- change's own database transaction, numbered by the room's own counter
-- (markup_rooms.event_seq, moved on with UPDATE … RETURNING, so the numbers
-- of one room are gap-free and in commit order). The room's event stream
-- (GET /rooms/{id}/events) reads them; at most 10,000 are kept per room
-- (docs/live.md).

-- +goose Up
ALTER TABLE markup_rooms ADD COLUMN event_seq bigint NOT NULL DEFAULT 0;
CREATE TABLE room_events (
    room_id    text        NOT NULL REFERENCES markup_rooms (id) ON DELETE CASCADE,
    seq        bigint      NOT NULL,
    type       text        NOT NULL,
    data       text        NOT NULL,
    session    text        NOT NULL DEFAULT '',
    client     text        NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    PRIMARY KEY (room_id, seq)
);

-- +goose Down
DROP TABLE room_events;
ALTER TABLE markup_rooms DROP COLUMN event_seq;
