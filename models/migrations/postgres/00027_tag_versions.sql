-- Every tag carries a version: 1 when placed, one more at each change of
-- its fields, its page or its document's order (docs/live.md). A room
-- edit made against an older version is refused (409 tag_changed), so two
-- windows of one room never overwrite each other without knowing.

-- +goose Up
ALTER TABLE transaction_tags ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE transaction_tags DROP COLUMN version;
