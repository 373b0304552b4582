-- Admin console: disabled users, sign-in attempts (for lockouts, shared by
-- every instance) and the log of admin actions.

-- +goose Up
ALTER TABLE users ADD COLUMN disabled_at datetime;

CREATE TABLE login_attempts (
    id          integer PRIMARY KEY AUTOINCREMENT,
    email_key   text        NOT NULL,
    client_addr text        NOT NULL,
    succeeded   boolean     NOT NULL,
    created_at  datetime NOT NULL
);
CREATE INDEX login_attempts_email ON login_attempts (email_key, created_at);
CREATE INDEX login_attempts_addr ON login_attempts (client_addr, created_at);

CREATE TABLE admin_activity (
    id          integer PRIMARY KEY AUTOINCREMENT,
    user_id     integer     REFERENCES users (id) ON DELETE SET NULL,
    actor       text        NOT NULL,
    action      text        NOT NULL,
    target      text        NOT NULL DEFAULT '',
    detail      text        NOT NULL DEFAULT '',
    client_addr text        NOT NULL DEFAULT '',
    created_at  datetime NOT NULL
);
CREATE INDEX admin_activity_created ON admin_activity (created_at DESC, id DESC);

-- +goose Down
DROP TABLE admin_activity;
DROP TABLE login_attempts;
ALTER TABLE users DROP COLUMN disabled_at;
