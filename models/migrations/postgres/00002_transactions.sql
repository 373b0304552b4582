-- E-signature transactions (operation A): documents, tags, participants, history.

-- +goose Up
CREATE TABLE transactions (
    id                   text        PRIMARY KEY,
    organization_id      bigint      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    reference_id         text        NOT NULL,
    status               text        NOT NULL,
    signing_order        boolean,
    personalized_message text,
    invite_email_subject text,
    notify_email         boolean,
    has_notify           boolean     NOT NULL DEFAULT false,
    evault               text        NOT NULL,
    send_final_enote_to  text        NOT NULL,
    version              integer     NOT NULL,
    document_count       integer     NOT NULL DEFAULT 0,
    tag_count            integer     NOT NULL DEFAULT 0,
    participant_count    integer     NOT NULL DEFAULT 0,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL
);
CREATE INDEX transactions_organization_id ON transactions (organization_id, id DESC);
CREATE INDEX transactions_organization_reference ON transactions (organization_id, reference_id);
CREATE INDEX transactions_organization_status ON transactions (organization_id, status, id DESC);

CREATE TABLE transaction_documents (
    transaction_id text    NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    position       integer NOT NULL,
    document_id    text    NOT NULL REFERENCES documents (id),
    gcs_ref_id     text    NOT NULL,
    title          text    NOT NULL,
    description    text,
    xfdf           text    NOT NULL,
    session_type   text    NOT NULL,
    type           text    NOT NULL,
    display_order  integer,
    pages          integer NOT NULL,
    read_only      boolean,
    visible        boolean,
    PRIMARY KEY (transaction_id, position)
);
CREATE INDEX transaction_documents_document ON transaction_documents (document_id);

CREATE TABLE transaction_tags (
    transaction_id    text             NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    document_position integer          NOT NULL,
    position          integer          NOT NULL,
    type              text             NOT NULL,
    x                 double precision NOT NULL,
    y                 double precision NOT NULL,
    width             double precision NOT NULL,
    height            double precision NOT NULL,
    signer_id         text             NOT NULL,
    custom_data       text             NOT NULL,
    page              integer          NOT NULL,
    required          boolean,
    state_format      text,
    date_format       text,
    font_size         double precision,
    PRIMARY KEY (transaction_id, document_position, position)
);

CREATE TABLE transaction_participants (
    transaction_id             text    NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    position                   integer NOT NULL,
    participant_id             text    NOT NULL,
    signing_order              integer,
    email                      text    NOT NULL,
    first_name                 text    NOT NULL,
    middle_name                text,
    last_name                  text    NOT NULL,
    address1                   text,
    address2                   text,
    country                    text,
    city                       text,
    state                      text,
    zip                        text,
    phone                      text,
    kba_required               boolean,
    cred_analysis_required     boolean,
    external_id                text,
    authentication_type        text    NOT NULL,
    two_factor_contact         text    NOT NULL,
    personal_password_question text,
    personal_password_hash     text,
    PRIMARY KEY (transaction_id, position)
);

CREATE TABLE transaction_events (
    id              text        PRIMARY KEY,
    transaction_id  text        NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    organization_id bigint      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    kind            text        NOT NULL,
    actor           text        NOT NULL,
    token_id        bigint      REFERENCES api_tokens (id) ON DELETE SET NULL,
    user_id         bigint      REFERENCES users (id) ON DELETE SET NULL,
    summary         text        NOT NULL,
    created_at      timestamptz NOT NULL
);
CREATE INDEX transaction_events_transaction ON transaction_events (transaction_id, created_at);

-- +goose Down
DROP TABLE transaction_events;
DROP TABLE transaction_participants;
DROP TABLE transaction_tags;
DROP TABLE transaction_documents;
DROP TABLE transactions;
