-- Admin console sessions kept server-side (the cookie only names one), so
-- that signing out, disabling a user and "Sign out everywhere" end every copy
-- of a cookie on every instance; and repeated sign-in refusals kept as one
-- activity row with a count instead of a row per attempt.

-- +goose Up
CREATE TABLE admin_sessions (
    id_hash      text        PRIMARY KEY,
    user_id      integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_addr  text        NOT NULL DEFAULT '',
    created_at   datetime    NOT NULL,
    last_seen_at datetime    NOT NULL,
    ended_at     datetime
);
CREATE INDEX admin_sessions_user ON admin_sessions (user_id, ended_at);

ALTER TABLE admin_activity ADD COLUMN repeats integer NOT NULL DEFAULT 1;
ALTER TABLE admin_activity ADD COLUMN last_at datetime;
CREATE INDEX admin_activity_repeat ON admin_activity (action, client_addr, created_at);

-- +goose Down
DROP INDEX admin_activity_repeat;
ALTER TABLE admin_activity DROP COLUMN last_at;
ALTER TABLE admin_activity DROP COLUMN repeats;
DROP TABLE admin_sessions;
