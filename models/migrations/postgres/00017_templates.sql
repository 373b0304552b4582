-- Templates: a layout saved once and reused (docs/decisions.md, "Templates").
-- A template belongs to one organization and points at its current version;
-- every change adds a version, which is never changed afterwards. A version
-- holds the template's name and description as they were, its roles and its
-- tags (as JSON, in request order: one row however many tags), and its
-- documents as rows (each names an upload of the organization with the page
-- count and page boxes it recorded, and a fingerprint for recognising a new
-- upload as this form; NULL until computed). The counts on templates are the
-- current version's, for the list. Archiving sets archived_at: the template
-- leaves lists and reads, its versions stay for the audit trail.

-- +goose Up
CREATE TABLE templates (
    id              text        PRIMARY KEY,
    organization_id bigint      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            text        NOT NULL,
    description     text,
    version         integer     NOT NULL,
    document_count  integer     NOT NULL,
    page_count      integer     NOT NULL,
    tag_count       integer     NOT NULL,
    role_count      integer     NOT NULL,
    uses            bigint      NOT NULL DEFAULT 0,
    last_used_at    timestamptz,
    archived_at     timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX templates_organization_live ON templates (organization_id, id) WHERE archived_at IS NULL;

CREATE TABLE template_versions (
    template_id   text        NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
    version       integer     NOT NULL,
    name          text        NOT NULL,
    description   text,
    actor_kind    text        NOT NULL,
    actor_id      text        NOT NULL,
    actor_label   text        NOT NULL,
    restored_from integer,
    roles         text        NOT NULL,
    tags          text        NOT NULL,
    tag_count     integer     NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (template_id, version)
);

CREATE TABLE template_documents (
    template_id text    NOT NULL,
    version     integer NOT NULL,
    position    integer NOT NULL,
    document_id text    NOT NULL REFERENCES documents (id),
    title       text    NOT NULL,
    pages       integer NOT NULL,
    page_boxes  text    NOT NULL,
    fingerprint bytea,
    PRIMARY KEY (template_id, version, position),
    FOREIGN KEY (template_id, version) REFERENCES template_versions (template_id, version) ON DELETE CASCADE
);
CREATE INDEX template_documents_document ON template_documents (document_id);

-- +goose Down
DROP TABLE template_documents;
DROP TABLE template_versions;
DROP TABLE templates;
