-- The template a Markup Room was made from, or last saved as (NULL: none),
-- so that "Save as template…" offers a new version of it (docs/decisions.md,
-- "Templates in the room"). No foreign key: an archived template keeps its
-- row, and the room only offers it while the template is live.

-- +goose Up
ALTER TABLE markup_rooms ADD COLUMN template_id text;

-- +goose Down
ALTER TABLE markup_rooms DROP COLUMN template_id;
