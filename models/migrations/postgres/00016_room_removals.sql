-- What a document or participant removal in a Markup Room took away, kept
-- for its undo: the document row with its tags, or the participant with
-- their tags (ids kept), as JSON (kept). The room's editor names the row
-- (id) when it undoes the removal; the row goes once restored, and only the
-- newest 100 of a transaction (by seq, counted per transaction) are kept
-- (the editor's undo history is 100 steps).

-- +goose Up
CREATE TABLE room_removals (
    id             text        NOT NULL PRIMARY KEY,
    transaction_id text        NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    seq            integer     NOT NULL,
    kind           text        NOT NULL,
    kept           text        NOT NULL,
    created_at     timestamptz NOT NULL
);
CREATE INDEX room_removals_transaction ON room_removals (transaction_id, seq);

-- +goose Down
DROP TABLE room_removals;
