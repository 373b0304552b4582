-- The tags of a page deleted in a Markup Room, kept for the undo: once per
-- transaction, document version, page and content (digest: SHA-256 of the
-- JSON), so that deleting the same page again with the same tags (delete,
-- undo, delete, …) stores nothing new. The page_deleted history event names
-- its row (tagsKept); events written before this table carry the tags inline.

-- +goose Up
CREATE TABLE deleted_page_tags (
    transaction_id text        NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    document_id    text        NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    page           integer     NOT NULL,
    digest         text        NOT NULL,
    tags           text        NOT NULL,
    created_at     datetime NOT NULL,
    PRIMARY KEY (transaction_id, document_id, page, digest)
);

-- +goose Down
DROP TABLE deleted_page_tags;
