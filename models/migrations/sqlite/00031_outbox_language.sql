-- The language an invitation is written in, beside its subject: the default
-- subject is queued as none ('') and said in this language when the e-mail
-- is written and when the console lists it (docs/words.md). Rows queued
-- before hold their subject worded already; their language stays ''.

-- +goose Up
ALTER TABLE outbox ADD COLUMN language TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE outbox DROP COLUMN language;
