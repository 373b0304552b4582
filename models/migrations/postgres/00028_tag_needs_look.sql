-- A tag a revision could not carry surely onto the new version of its
-- document keeps the reason here ("label_changed", "context_not_found", …;
-- docs/revise.md) until someone edits it: the pre-send check lists it as
-- tag_needs_look.

-- +goose Up
ALTER TABLE transaction_tags ADD COLUMN needs_look TEXT;

-- +goose Down
ALTER TABLE transaction_tags DROP COLUMN needs_look;
