-- Markup Rooms (operation B) and stored Idempotency-Key responses.

-- +goose Up
CREATE TABLE markup_rooms (
    id                  text        PRIMARY KEY,
    organization_id     bigint      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    sender_id           bigint      NOT NULL REFERENCES users (id),
    transaction_id      text        NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    config              text        NOT NULL,
    token_selector      text        NOT NULL,
    token_hash          bytea       NOT NULL,
    status              text        NOT NULL,
    expires_at          timestamptz NOT NULL,
    created_by_token_id bigint      REFERENCES api_tokens (id) ON DELETE SET NULL,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    completed_at        timestamptz
);
CREATE UNIQUE INDEX markup_rooms_token_selector ON markup_rooms (token_selector);
CREATE INDEX markup_rooms_organization_id ON markup_rooms (organization_id, id DESC);
CREATE INDEX markup_rooms_transaction ON markup_rooms (transaction_id);

CREATE TABLE idempotency_keys (
    organization_id bigint      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    scope           text        NOT NULL,
    idempotency_key text        NOT NULL,
    request_hash    text        NOT NULL,
    completed       boolean     NOT NULL DEFAULT false,
    status_code     integer     NOT NULL DEFAULT 0,
    content_type    text        NOT NULL DEFAULT '',
    headers         text        NOT NULL DEFAULT '{}',
    body            bytea       NOT NULL,
    created_at      timestamptz NOT NULL,
    locked_until    timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    PRIMARY KEY (organization_id, scope, idempotency_key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE markup_rooms;
