-- Webhook secrets at rest: the secret column now holds the secret sealed
-- with the server's key (AES-256-GCM, "enc:v1:…"); rows written before keep
-- their plaintext until the server seals them at start-up (a migration
-- cannot know the key). A rotation keeps the replaced secret, sealed too,
-- signing beside the new one until previous_secret_expires_at.

-- +goose Up
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret text NOT NULL DEFAULT '';
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at timestamptz;

-- +goose Down
ALTER TABLE webhook_endpoints DROP COLUMN previous_secret_expires_at;
ALTER TABLE webhook_endpoints DROP COLUMN previous_secret;
