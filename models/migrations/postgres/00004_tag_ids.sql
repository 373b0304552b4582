-- Stable tag ids: the Markup Room edits one tag at a time and addresses it by
-- this id, which survives edits of other tags and of participants.

-- +goose Up
ALTER TABLE transaction_tags ADD COLUMN tag_id text NOT NULL DEFAULT '';
UPDATE transaction_tags SET tag_id = 't' || document_position::text || '_' || position::text;
CREATE UNIQUE INDEX transaction_tags_tag_id ON transaction_tags (transaction_id, tag_id);

-- +goose Down
DROP INDEX transaction_tags_tag_id;
ALTER TABLE transaction_tags DROP COLUMN tag_id;
