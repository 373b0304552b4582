-- Languages (docs/i18n.md): a Markup Room's own language (operation B's
-- "locale"; NULL: none, the visitor's choice or browser decides) and a
-- participant's (NULL: the room's), which its invitation e-mail follows.
-- Both hold a canonical tag of web/i18n's Languages.

-- +goose Up
ALTER TABLE markup_rooms ADD COLUMN locale text;
ALTER TABLE transaction_participants ADD COLUMN locale text;

-- +goose Down
ALTER TABLE transaction_participants DROP COLUMN locale;
ALTER TABLE markup_rooms DROP COLUMN locale;
