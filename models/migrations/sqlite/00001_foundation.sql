-- Foundation: organizations, their users and API tokens, uploaded documents,
-- and a small key/value table for one-time start-up facts.

-- +goose Up
CREATE TABLE organizations (
    id          integer  PRIMARY KEY AUTOINCREMENT,
    name        text     NOT NULL,
    api_enabled boolean  NOT NULL DEFAULT 1,
    created_at  datetime NOT NULL,
    updated_at  datetime NOT NULL
);

CREATE TABLE users (
    id              integer  PRIMARY KEY AUTOINCREMENT,
    organization_id integer  NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email           text     NOT NULL,
    email_key       text     NOT NULL,
    first_name      text     NOT NULL,
    last_name       text     NOT NULL,
    is_admin        boolean  NOT NULL DEFAULT 0,
    password_hash   text     NOT NULL DEFAULT '',
    created_at      datetime NOT NULL,
    updated_at      datetime NOT NULL
);
CREATE UNIQUE INDEX users_organization_email_key ON users (organization_id, email_key);
CREATE INDEX users_email_key ON users (email_key);

CREATE TABLE api_tokens (
    id              integer  PRIMARY KEY AUTOINCREMENT,
    organization_id integer  NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            text     NOT NULL,
    selector        text     NOT NULL,
    secret_hash     blob     NOT NULL,
    created_at      datetime NOT NULL,
    last_used_at    datetime,
    revoked_at      datetime
);
CREATE UNIQUE INDEX api_tokens_selector ON api_tokens (selector);
CREATE INDEX api_tokens_organization ON api_tokens (organization_id);

CREATE TABLE documents (
    id                   text     PRIMARY KEY,
    organization_id      integer  NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    object_key           text     NOT NULL,
    title                text     NOT NULL,
    file_name            text     NOT NULL DEFAULT '',
    size_bytes           integer  NOT NULL,
    sha256               text     NOT NULL,
    page_count           integer  NOT NULL,
    pages                text     NOT NULL,
    uploaded_by_token_id integer  REFERENCES api_tokens (id) ON DELETE SET NULL,
    created_at           datetime NOT NULL
);
CREATE UNIQUE INDEX documents_object_key ON documents (object_key);
CREATE INDEX documents_organization_created ON documents (organization_id, created_at, id);

CREATE TABLE app_settings (
    key        text     PRIMARY KEY,
    value      text     NOT NULL,
    created_at datetime NOT NULL
);

-- +goose Down
DROP TABLE app_settings;
DROP TABLE documents;
DROP TABLE api_tokens;
DROP TABLE users;
DROP TABLE organizations;
