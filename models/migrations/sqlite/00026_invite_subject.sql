-- A transaction whose invitation subject is the default stores none (NULL):
-- each invitation says the default in its recipient's language and the API
-- reads it back in English (models.inviteSubject, docs/i18n.md), so no code
-- compares a stored subject with English words. Rows written before stored
-- the English default itself.

-- +goose Up
UPDATE transactions SET invite_email_subject = NULL
WHERE invite_email_subject = 'Please review and sign your documents' OR TRIM(invite_email_subject) = '';

-- +goose Down
UPDATE transactions SET invite_email_subject = 'Please review and sign your documents'
WHERE invite_email_subject IS NULL;
