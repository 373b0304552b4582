-- Template matching (docs/decisions.md, "Template matching"): a document's
-- template fingerprint, taken at upload on the same read as its check (NULL
-- for a document stored before this column existed, until first asked for),
-- and each organization's templates generation, counted up by every change to
-- its templates in the same database transaction, so that each server
-- instance knows with one cheap read when its in-memory index of the
-- organization's template documents is out of date.

-- +goose Up
ALTER TABLE documents ADD COLUMN fingerprint bytea;
ALTER TABLE organizations ADD COLUMN template_generation bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE organizations DROP COLUMN template_generation;
ALTER TABLE documents DROP COLUMN fingerprint;
