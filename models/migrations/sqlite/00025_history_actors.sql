-- A history entry's actor as data (docs/i18n.md, "The console"): its kind
-- (api_token, admin, operator, room), id (the token's, the admin's, the
-- room's), name (the token's name, the admin's e-mail, the room's sender),
-- channel (api, mcp, console, cli, room), the room's sender a room was
-- created for, and a room visitor's session short id and client address.
-- The console words them in the reader's language; "actor" keeps the English
-- label for older readers. Rows written before are filled from that label,
-- which the product wrote in a few fixed shapes (models.Actor.Label); a label
-- of no known shape keeps kind '' and is shown as stored. A template
-- version's actor gets its name the same way (models.TemplateActor).

-- +goose Up
ALTER TABLE transaction_events ADD COLUMN actor_kind text NOT NULL DEFAULT '';
ALTER TABLE transaction_events ADD COLUMN actor_id text NOT NULL DEFAULT '';
ALTER TABLE transaction_events ADD COLUMN actor_name text NOT NULL DEFAULT '';
ALTER TABLE transaction_events ADD COLUMN actor_via text NOT NULL DEFAULT '';
ALTER TABLE transaction_events ADD COLUMN actor_for text NOT NULL DEFAULT '';
ALTER TABLE transaction_events ADD COLUMN actor_session text NOT NULL DEFAULT '';
ALTER TABLE transaction_events ADD COLUMN actor_address text NOT NULL DEFAULT '';
ALTER TABLE template_versions ADD COLUMN actor_name text NOT NULL DEFAULT '';

-- "… for Sam Sender (Markup Room)": the sender a room was created for.
UPDATE transaction_events
SET actor_for = substr(actor, instr(actor, ') for ') + 6, MAX(length(actor) - instr(actor, ') for ') - 19, 0))
WHERE actor LIKE '% for % (Markup Room)' AND instr(actor, ') for ') > 0
  AND (actor LIKE 'API token %' OR actor LIKE 'Admin %' OR actor LIKE 'Operator (markuproom room create)%');

-- "API token 3 (CRM)"
UPDATE transaction_events
SET actor_kind = 'api_token', actor_id = CAST(token_id AS text), actor_via = 'api',
    actor_name = substr(actor, instr(actor, '(') + 1,
        MAX((CASE WHEN actor_for <> '' THEN instr(actor, ') for ') ELSE length(actor) END) - instr(actor, '(') - 1, 0))
WHERE token_id IS NOT NULL AND actor LIKE 'API token % (%)%';

-- "Admin ada@example.com (console)"
UPDATE transaction_events
SET actor_kind = 'admin', actor_via = 'console',
    actor_name = substr(actor, 7, MAX((CASE WHEN actor_for <> '' THEN instr(actor, ') for ') ELSE length(actor) END) - 16, 0))
WHERE token_id IS NULL AND actor LIKE 'Admin % (console)%';

-- "Operator (markuproom room create)"
UPDATE transaction_events SET actor_kind = 'operator', actor_via = 'cli'
WHERE token_id IS NULL AND actor LIKE 'Operator (markuproom room create)%';

-- A room's visitor: "[Sam Sender · ]Markup Room[ · session d833b79a][ · 127.0.0.1]";
-- what follows "Markup Room" waits in actor_address to be split.
UPDATE transaction_events
SET actor_kind = 'room', actor_via = 'room',
    actor_name = CASE WHEN actor LIKE 'Markup Room%' THEN '' ELSE substr(actor, 1, MAX(instr(actor, ' · Markup Room') - 1, 0)) END,
    actor_address = CASE WHEN actor LIKE 'Markup Room%' THEN substr(actor, 12) ELSE substr(actor, instr(actor, ' · Markup Room') + 14) END,
    actor_id = COALESCE((SELECT MIN(r.id) FROM markup_rooms r WHERE r.transaction_id = transaction_events.transaction_id), '')
WHERE token_id IS NULL AND actor_kind = ''
  AND (actor = 'Markup Room' OR actor LIKE 'Markup Room · %' OR actor LIKE '% · Markup Room' OR actor LIKE '% · Markup Room · %');
UPDATE transaction_events SET actor_address = substr(actor_address, 4)
WHERE actor_kind = 'room' AND actor_address LIKE ' · %';
UPDATE transaction_events
SET actor_session = CASE WHEN instr(actor_address, ' · ') > 0
        THEN substr(actor_address, 9, MAX(instr(actor_address, ' · ') - 9, 0)) ELSE substr(actor_address, 9) END,
    actor_address = CASE WHEN instr(actor_address, ' · ') > 0
        THEN substr(actor_address, instr(actor_address, ' · ') + 3) ELSE '' END
WHERE actor_kind = 'room' AND actor_address LIKE 'session %';

-- Template versions: "API token 3 (CRM)", "ada@example.com (admin console)", "Markup Room r_…".
UPDATE template_versions
SET actor_name = substr(actor_label, instr(actor_label, '(') + 1, MAX(length(actor_label) - instr(actor_label, '(') - 1, 0))
WHERE actor_kind = 'api_token' AND actor_label LIKE 'API token % (%)';
UPDATE template_versions
SET actor_name = substr(actor_label, 1, MAX(length(actor_label) - 16, 0))
WHERE actor_kind = 'admin' AND actor_label LIKE '% (admin console)';

-- +goose Down
ALTER TABLE template_versions DROP COLUMN actor_name;
ALTER TABLE transaction_events DROP COLUMN actor_address;
ALTER TABLE transaction_events DROP COLUMN actor_session;
ALTER TABLE transaction_events DROP COLUMN actor_for;
ALTER TABLE transaction_events DROP COLUMN actor_via;
ALTER TABLE transaction_events DROP COLUMN actor_name;
ALTER TABLE transaction_events DROP COLUMN actor_id;
ALTER TABLE transaction_events DROP COLUMN actor_kind;
