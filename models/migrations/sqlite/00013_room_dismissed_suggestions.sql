-- Suggested fields (printed labels next to a blank) a Markup Room's user
-- dismissed (issue 20): the room stops offering them. A suggestion is named
-- by the document version it was found in, its page and its key (type and
-- box, models.SuggestionKey). A page edit copies the rows of the version it
-- replaces to the new version, with their pages moved as the pages moved.
-- Accepted suggestions need no row: a tag covering one hides it.

-- +goose Up
CREATE TABLE room_dismissed_suggestions (
    room_id     text        NOT NULL REFERENCES markup_rooms (id) ON DELETE CASCADE,
    document_id text        NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    page        integer     NOT NULL,
    suggestion  text        NOT NULL,
    created_at  datetime NOT NULL,
    PRIMARY KEY (room_id, document_id, page, suggestion)
);

-- +goose Down
DROP TABLE room_dismissed_suggestions;
