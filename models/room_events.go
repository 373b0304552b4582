package models

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The types of a room's events (RoomEvent.Type): codes, worded by no one
// but the editor that reads them (docs/live.md).
const (
	RoomEventTagCreated           = "tag_created"
	RoomEventTagUpdated           = "tag_updated"
	RoomEventTagDeleted           = "tag_deleted"
	RoomEventPageMoved            = "page_moved"
	RoomEventPageDeleted          = "page_deleted"
	RoomEventPageRestored         = "page_restored"
	RoomEventDocumentAdded        = "document_added"
	RoomEventDocumentRemoved      = "document_removed"
	RoomEventDocumentRenamed      = "document_renamed"
	RoomEventDocumentRevised      = "document_revised"
	RoomEventParticipantAdded     = "participant_added"
	RoomEventParticipantUpdated   = "participant_updated"
	RoomEventParticipantRemoved   = "participant_removed"
	RoomEventTemplateApplied      = "template_applied"
	RoomEventSuggestionsDismissed = "suggestions_dismissed"
	RoomEventSuggestionsRestored  = "suggestions_restored"
	RoomEventTransactionReplaced  = "transaction_replaced"
	RoomEventStatusChanged        = "status_changed"
	RoomEventRoomCompleted        = "room_completed"
	RoomEventRoomExpired          = "room_expired"
)

// MaxRoomEvents is how many events a room keeps: an older one is deleted
// in the transaction that writes the 10,001st, and a stream that asks for
// it is told to reset.
const MaxRoomEvents = 10000

// RoomEvent is one committed change of a room, as its stream sends it.
type RoomEvent struct {
	RoomID string `gorm:"column:room_id;primaryKey"`
	// Seq is the room's own number of the event: 1, 2, 3… in commit order.
	Seq  int64  `gorm:"column:seq;primaryKey"`
	Type string `gorm:"column:type"`
	// Data is the event's JSON object: codes, ids and numbers.
	Data string `gorm:"column:data"`
	// Session is the short id of the room session that made the change
	// (ShortSessionID; "" for the API or the console), Client the id the
	// editor's page sent with it (RoomVisitor.Client): an editor skips its
	// own events by it.
	Session   string    `gorm:"column:session"`
	Client    string    `gorm:"column:client"`
	CreatedAt time.Time `gorm:"column:created_at"`
}

// TableName implements gorm's tabler.
func (RoomEvent) TableName() string { return "room_events" }

// RoomEventTag is a tag as a room event carries it: what the editor needs
// to draw it.
type RoomEventTag struct {
	ID       string  `json:"id"`
	Version  int     `json:"version,omitempty"`
	Type     string  `json:"type"`
	Document int     `json:"document"`
	Page     int     `json:"page"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	Width    float64 `json:"width"`
	Height   float64 `json:"height"`
	// Participant is the tag's signer's participant id ("" unassigned).
	Participant string `json:"participant,omitempty"`
}

// roomEventTags is the data of the tag events: the tags as they are after
// the change (a deleted one as it was).
type roomEventTags struct {
	Tags []RoomEventTag `json:"tags"`
}

// roomEventDraft is one event queued inside a database transaction: the
// rooms of transaction txID get it when it commits (flushRoomEvents).
type roomEventDraft struct {
	txID            string
	typ             string
	data            any
	session, client string
}

// committedRoomEvent is the last sequence number a database transaction
// gave one room: the hub is told of it once the transaction commits.
type committedRoomEvent struct {
	roomID string
	seq    int64
}

// roomEvent queues an event of every room of transaction txID, written
// with the change that s's database transaction makes (nothing when it
// rolls back). s must belong to one (inTx).
func (s *Store) roomEvent(ctx context.Context, txID, typ string, data any) {
	if s.pending == nil {
		return
	}
	d := roomEventDraft{txID: txID, typ: typ, data: data}
	if v, ok := ctx.Value(roomVisitorKey{}).(RoomVisitor); ok {
		d.session, d.client = v.Session, v.Client
	}
	s.pending.roomEvents = append(s.pending.roomEvents, d)
}

// tagEvent queues a tag_created, tag_updated or tag_deleted event of tags.
func (s *Store) tagEvent(ctx context.Context, txID, typ string, tags []RoomEventTag) {
	if len(tags) > 0 {
		s.roomEvent(ctx, txID, typ, roomEventTags{Tags: tags})
	}
}

// eventTagOf is tag t as an event carries it.
func eventTagOf(t *Tag) RoomEventTag {
	return RoomEventTag{ID: t.TagID, Version: max(t.Version, 1), Type: t.Type, Document: t.DocumentPosition, Page: t.Page,
		X: t.X, Y: t.Y, Width: t.Width, Height: t.Height, Participant: t.SignerID}
}

// flushRoomEvents writes the transaction's queued room events just before
// it commits: per transaction, its rooms' counters moved on by the number
// of events (UPDATE … RETURNING, which holds each room's row until the
// commit, so the numbers of a room are gap-free and in commit order), the
// rows, the events past MaxRoomEvents deleted, and on PostgreSQL a
// notification (delivered at the commit) for the other instances.
func (s *Store) flushRoomEvents(ctx context.Context) error {
	drafts := s.pending.roomEvents
	s.pending.roomEvents = nil
	var order []string
	byTx := map[string][]roomEventDraft{}
	for _, d := range drafts {
		if _, ok := byTx[d.txID]; !ok {
			order = append(order, d.txID)
		}
		byTx[d.txID] = append(byTx[d.txID], d)
	}
	for _, txID := range order {
		if err := s.writeRoomEvents(ctx, txID, byTx[txID]); err != nil {
			return err
		}
	}
	return nil
}

// writeRoomEvents writes drafts, the events of transaction txID, for each
// of its rooms (none when no room edits it). On PostgreSQL it is one
// statement (roomEventsSQL); on SQLite, where a statement is no round trip,
// one for each step.
func (s *Store) writeRoomEvents(ctx context.Context, txID string, drafts []roomEventDraft) error {
	data := make([]string, len(drafts))
	for i, d := range drafts {
		v := d.data
		if v == nil {
			v = struct{}{}
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		data[i] = string(raw)
	}
	now := s.Now()
	if s.dialect == DialectPostgres {
		return s.writeRoomEventsPostgres(ctx, txID, drafts, data, now)
	}
	type counter struct {
		ID       string `gorm:"column:id"`
		EventSeq int64  `gorm:"column:event_seq"`
	}
	var rooms []counter
	err := s.db.WithContext(ctx).Raw(`UPDATE markup_rooms SET event_seq = event_seq + ? WHERE transaction_id = ? RETURNING id, event_seq`,
		len(drafts), txID).Scan(&rooms).Error
	if err != nil || len(rooms) == 0 {
		return mapDBError(err)
	}
	var b writeBatch
	for _, r := range rooms {
		first := r.EventSeq - int64(len(drafts)) + 1
		rows := make([]RoomEvent, len(drafts))
		for i, d := range drafts {
			rows[i] = RoomEvent{RoomID: r.ID, Seq: first + int64(i), Type: d.typ, Data: data[i],
				Session: d.session, Client: d.client, CreatedAt: now}
		}
		addRows(&b, s.batchRows(), "room_events", roomEventColumns(), rows, roomEventValues)
		if r.EventSeq > MaxRoomEvents {
			b.add(`DELETE FROM room_events WHERE room_id = ? AND seq <= ?`, r.ID, r.EventSeq-MaxRoomEvents)
		}
		s.pending.committed = append(s.pending.committed, committedRoomEvent{roomID: r.ID, seq: r.EventSeq})
	}
	return s.execBatch(ctx, &b)
}

// roomEventsSQL writes a transaction's room events on PostgreSQL in one
// statement: its rooms' counters moved on, the rows, the events past
// MaxRoomEvents deleted and a notification per room (delivered at the
// commit); it answers each room's id and last number. %s is the VALUES
// list of the events: (k, type, data, session, client), k from 1.
const roomEventsSQL = `WITH r AS (
	UPDATE markup_rooms SET event_seq = event_seq + ? WHERE transaction_id = ? RETURNING id, event_seq
), ins AS (
	INSERT INTO room_events (room_id, seq, type, data, session, client, created_at)
	SELECT r.id, r.event_seq - ? + v.k, v.type, v.data, v.session, v.client, ?::timestamptz
	FROM r CROSS JOIN (VALUES %s) AS v(k, type, data, session, client)
), del AS (
	DELETE FROM room_events d USING r WHERE d.room_id = r.id AND d.seq <= r.event_seq - ?
)
SELECT r.id, r.event_seq, pg_notify(?, r.id || ' ' || r.event_seq) FROM r`

func (s *Store) writeRoomEventsPostgres(ctx context.Context, txID string, drafts []roomEventDraft, data []string, now time.Time) error {
	n := len(drafts)
	values := make([]string, n)
	args := []any{n, txID, n, now}
	for i, d := range drafts {
		values[i] = "(?::bigint, ?::text, ?::text, ?::text, ?::text)"
		args = append(args, i+1, d.typ, data[i], d.session, d.client)
	}
	args = append(args, MaxRoomEvents, roomEventsChannel)
	q := numberPlaceholders(fmt.Sprintf(roomEventsSQL, strings.Join(values, ", ")), 0)
	rows, err := s.db.Statement.ConnPool.QueryContext(ctx, q, args...)
	if err != nil {
		return mapDBError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var e committedRoomEvent
		var notified any
		if err := rows.Scan(&e.roomID, &e.seq, &notified); err != nil {
			return mapDBError(err)
		}
		s.pending.committed = append(s.pending.committed, e)
	}
	return mapDBError(rows.Err())
}

func roomEventColumns() []string {
	return []string{"room_id", "seq", "type", "data", "session", "client", "created_at"}
}

func roomEventValues(e *RoomEvent) []any {
	return []any{e.RoomID, e.Seq, e.Type, e.Data, e.Session, e.Client, e.CreatedAt}
}

// roomEventsChannel is the PostgreSQL notification channel of room events:
// its payload is "<room id> <seq>", the room's last sequence number of a
// committed transaction.
const roomEventsChannel = "markuproom_room_events"
