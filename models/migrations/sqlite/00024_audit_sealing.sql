-- Audit events sealed off the write path (docs/decisions.md, "Audit
-- sealing"): a change inserts its events with seq, prev_hash and hash NULL
-- ("not sealed yet"); the sealer chains them afterwards in id order (SQLite
-- has one writer at a time, so ids are given in commit order). SQLite
-- cannot drop a NOT NULL, so the table is rebuilt with its rows and ids.
--
-- metric_rollup_deltas: the overview's counts written with a change, one
-- plain row per count; the sealer folds them into metric_rollups, and the
-- overview reads the sum of both.

-- +goose Up
CREATE TABLE audit_events_sealing (
    id              integer     PRIMARY KEY AUTOINCREMENT,
    organization_id integer     NOT NULL,
    seq             integer,
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
    prev_hash       text,
    hash            text
);
INSERT INTO audit_events_sealing SELECT id, organization_id, seq, at, actor_kind, actor_id, actor_name, via, client_addr,
    action, target_type, target_id, transaction_id, summary, prev_hash, hash FROM audit_events;
DROP TABLE audit_events;
ALTER TABLE audit_events_sealing RENAME TO audit_events;
CREATE UNIQUE INDEX audit_events_chain ON audit_events (organization_id, seq);
CREATE INDEX audit_events_org_id ON audit_events (organization_id, id);
CREATE INDEX audit_events_transaction ON audit_events (transaction_id, id);
CREATE INDEX audit_events_at ON audit_events (at);
CREATE INDEX audit_events_unsealed ON audit_events (id) WHERE seq IS NULL;

CREATE TABLE metric_rollup_deltas (
    id              integer PRIMARY KEY AUTOINCREMENT,
    metric          text    NOT NULL,
    hour            integer NOT NULL,
    organization_id integer NOT NULL,
    bucket          integer NOT NULL,
    count           integer NOT NULL
);

-- +goose Down
DROP TABLE metric_rollup_deltas;
DELETE FROM audit_events WHERE seq IS NULL;
CREATE TABLE audit_events_sealed (
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
INSERT INTO audit_events_sealed SELECT id, organization_id, seq, at, actor_kind, actor_id, actor_name, via, client_addr,
    action, target_type, target_id, transaction_id, summary, prev_hash, hash FROM audit_events;
DROP TABLE audit_events;
ALTER TABLE audit_events_sealed RENAME TO audit_events;
CREATE UNIQUE INDEX audit_events_chain ON audit_events (organization_id, seq);
CREATE INDEX audit_events_org_id ON audit_events (organization_id, id);
CREATE INDEX audit_events_transaction ON audit_events (transaction_id, id);
CREATE INDEX audit_events_at ON audit_events (at);
