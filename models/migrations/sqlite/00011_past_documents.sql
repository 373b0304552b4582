-- Documents a transaction held before a Markup Room page edit or document
-- removal replaced them. Stored documents never change, so the room keeps
-- serving these by id: a viewer still loading one while another change lands
-- gets the file it asked for instead of a 404, and an undone page edit can
-- point the transaction back at the version it replaced.

-- +goose Up
CREATE TABLE transaction_past_documents (
    transaction_id text        NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    document_id    text        NOT NULL REFERENCES documents (id),
    created_at     datetime    NOT NULL,
    PRIMARY KEY (transaction_id, document_id)
);

-- +goose Down
DROP TABLE transaction_past_documents;
