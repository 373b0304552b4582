-- The audit trail (docs/audit.md): one row per change or sign-in, appended
-- in the same database transaction as the change, chained per organization
-- by SHA-256 (hash covers the row's content and prev_hash, the hash of the
-- organization's previous event). audit_chains holds each chain's head (its
-- last event) and the checkpoint retention leaves when it deletes the oldest
-- events, so a deleted or edited row is found by `markuproom audit verify`.
-- Organization 0 is the chain of events that belong to none (a refused
-- sign-in for an unknown e-mail address). No foreign keys: the trail
-- outlives what it names.

-- +goose Up
CREATE TABLE audit_events (
    id              integer     PRIMARY KEY AUTOINCREMENT,
    organization_id integer     NOT NULL,
    seq             integer     NOT NULL,
    at              datetime    NOT NULL,
    actor_kind      text        NOT NULL,
    actor_id        text        NOT NULL DEFAULT '',
    actor_name      text        NOT NULL DEFAULT '',
    via             text        NOT NULL DEFAULT '',
    client_addr     text        NOT NULL DEFAULT '',
    action          text        NOT NULL,
    target_type     text        NOT NULL DEFAULT '',
    target_id       text        NOT NULL DEFAULT '',
    transaction_id  text        NOT NULL DEFAULT '',
    summary         text        NOT NULL DEFAULT '',
    prev_hash       text        NOT NULL,
    hash            text        NOT NULL
);
CREATE UNIQUE INDEX audit_events_chain ON audit_events (organization_id, seq);
CREATE INDEX audit_events_org_id ON audit_events (organization_id, id);
CREATE INDEX audit_events_transaction ON audit_events (transaction_id, id);
CREATE INDEX audit_events_at ON audit_events (at);

CREATE TABLE audit_chains (
    organization_id integer PRIMARY KEY,
    seq             integer NOT NULL,
    hash            text   NOT NULL,
    checkpoint_seq  integer NOT NULL DEFAULT 0,
    checkpoint_hash text   NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE audit_chains;
DROP TABLE audit_events;
