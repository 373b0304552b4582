-- Embedded rooms (docs/decisions.md, "Embedded rooms"): the origins an
-- organization allows to frame its rooms, normalised and joined by commas
-- ('' allows none), and the one origin a room was created for ('' for a
-- room that is never framed).

-- +goose Up
ALTER TABLE organizations ADD COLUMN embed_origins text NOT NULL DEFAULT '';
ALTER TABLE markup_rooms ADD COLUMN embed_origin text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE markup_rooms DROP COLUMN embed_origin;
ALTER TABLE organizations DROP COLUMN embed_origins;
