-- Outbound delivery: an organization's webhook endpoints, and the outbox of
-- messages (invitation e-mails, webhook calls) written in the same database
-- transaction as the change that causes them, then sent by a worker.

-- +goose Up
CREATE TABLE webhook_endpoints (
    id              text        PRIMARY KEY,
    organization_id bigint      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    url             text        NOT NULL,
    events          text        NOT NULL,
    secret          text        NOT NULL,
    description     text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (organization_id, created_at);

CREATE TABLE outbox (
    id              text        PRIMARY KEY,
    organization_id bigint      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    transaction_id  text,
    endpoint_id     text        REFERENCES webhook_endpoints (id) ON DELETE SET NULL,
    kind            text        NOT NULL,
    event           text        NOT NULL,
    recipient       text        NOT NULL,
    subject         text        NOT NULL DEFAULT '',
    payload         text        NOT NULL,
    status          text        NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    last_error      text        NOT NULL DEFAULT '',
    next_attempt_at timestamptz NOT NULL,
    lease_until     timestamptz,
    lease_token     text        NOT NULL DEFAULT '',
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_created ON outbox (created_at DESC, id DESC);
CREATE INDEX outbox_transaction ON outbox (transaction_id);

-- +goose Down
DROP TABLE outbox;
DROP TABLE webhook_endpoints;
