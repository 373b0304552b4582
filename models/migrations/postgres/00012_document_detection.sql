-- What a document's own content proposes as tags (issue 20): its text tags,
-- form fields and suggested fields, and the text tags it could not read, as
-- JSON ({"tags": [...], "problems": [...]}). Computed at upload; NULL for a
-- document uploaded before this column existed, until it is first asked for.

-- +goose Up
ALTER TABLE documents ADD COLUMN detection text;

-- +goose Down
ALTER TABLE documents DROP COLUMN detection;
