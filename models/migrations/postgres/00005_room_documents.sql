-- Markup Rooms remember whether they started without documents: staff may
-- then always upload documents in the room (otherwise only with documents.edit).

-- +goose Up
ALTER TABLE markup_rooms ADD COLUMN started_empty boolean NOT NULL DEFAULT false;
UPDATE markup_rooms SET started_empty = NOT EXISTS (
    SELECT 1 FROM transaction_documents td WHERE td.transaction_id = markup_rooms.transaction_id);

-- +goose Down
ALTER TABLE markup_rooms DROP COLUMN started_empty;
