-- A room's presence numbers are each one session's: two sessions opening
-- the room in the same instant on PostgreSQL both read the same MAX(ordinal)
-- and were both "Guest 2". The index refuses the second, which takes the
-- next number (models.JoinRoomPresence). Duplicates already stored keep the
-- session that sorts first; the others join again with their next stream.

-- +goose Up
DELETE FROM room_presence WHERE EXISTS (
    SELECT 1 FROM room_presence AS o
    WHERE o.room_id = room_presence.room_id AND o.ordinal = room_presence.ordinal AND o.session < room_presence.session
);
CREATE UNIQUE INDEX room_presence_ordinal ON room_presence (room_id, ordinal);

-- +goose Down
DROP INDEX room_presence_ordinal;
