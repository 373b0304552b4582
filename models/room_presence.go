package models

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Presence in a room (docs/live.md, "Presence"): who has its editor open —
// each room session with an open event stream on any instance — and which
// tags each has selected. Nothing of a person is kept but the session's
// short id (ShortSessionID) and the order in which the sessions first
// opened the room.
const (
	// PresenceGone is how long a session's row stays present without a
	// stream's heartbeat (an instance that stopped without a word).
	PresenceGone = 30 * time.Second
	// MaxPresenceSelected is how many tag ids a session's selection shows.
	MaxPresenceSelected = 50
	// roomPresenceChannel is the PostgreSQL notification channel of
	// presence: its payload is the room's id.
	roomPresenceChannel = "markuproom_room_presence"
)

// RoomPresent is one room session with the room open: its short id, its
// number in the room (1: the first session that opened it, named after
// the room's sender; then Guest 2, 3…) and the tags it has selected.
type RoomPresent struct {
	Session  string   `json:"session"`
	Ordinal  int      `json:"n"`
	Selected []string `json:"selected,omitempty"`
}

// roomPresenceRow is a row of room_presence.
type roomPresenceRow struct {
	RoomID   string    `gorm:"column:room_id;primaryKey"`
	Session  string    `gorm:"column:session;primaryKey"`
	Ordinal  int       `gorm:"column:ordinal"`
	Streams  int       `gorm:"column:streams"`
	Selected string    `gorm:"column:selected"`
	SeenAt   time.Time `gorm:"column:seen_at"`
}

// TableName implements gorm's tabler.
func (roomPresenceRow) TableName() string { return "room_presence" }

// joinPresenceSQL adds a stream of a session to a room: a new session takes
// the room's next number; a row not seen for PresenceGone (its instance
// stopped) starts its count again.
const joinPresenceSQL = `INSERT INTO room_presence (room_id, session, ordinal, streams, selected, seen_at)
SELECT ?, ?, COALESCE(MAX(ordinal), 0) + 1, 1, '', ? FROM room_presence WHERE room_id = ?
ON CONFLICT (room_id, session) DO UPDATE SET
	streams = CASE WHEN room_presence.seen_at < ? THEN 1 ELSE room_presence.streams + 1 END,
	selected = CASE WHEN room_presence.seen_at < ? THEN '' ELSE room_presence.selected END,
	seen_at = excluded.seen_at`

// presenceJoinTries bounds how many times a new session of a room tries
// for the next number when others took it in the same instant: each try
// one of them wins, so up to this many sessions opening one room at once
// all get a number.
const presenceJoinTries = 32

// JoinRoomPresence counts one more open stream of session (a short id) in
// room roomID, and tells the room's streams on every instance. A number
// another session took in the same instant (the unique index of migration
// 00032 refuses the second) is tried again with the next.
func (s *Store) JoinRoomPresence(ctx context.Context, roomID, session string) error {
	for try := 1; ; try++ {
		now := s.Now()
		gone := now.Add(-PresenceGone)
		err := s.db.WithContext(ctx).Exec(joinPresenceSQL, roomID, session, now, roomID, gone, gone).Error
		if err == nil {
			break
		}
		if try == presenceJoinTries || !isUniqueViolation(err) {
			return mapDBError(err)
		}
	}
	return s.presenceChanged(ctx, roomID)
}

// LeaveRoomPresence counts one stream of session fewer in room roomID (its
// selection goes with its last one), and tells the room's streams.
func (s *Store) LeaveRoomPresence(ctx context.Context, roomID, session string) error {
	err := s.db.WithContext(ctx).Exec(`UPDATE room_presence SET
	selected = CASE WHEN streams <= 1 THEN '' ELSE selected END,
	streams = CASE WHEN streams > 0 THEN streams - 1 ELSE 0 END
WHERE room_id = ? AND session = ?`, roomID, session).Error
	if err != nil {
		return mapDBError(err)
	}
	return s.presenceChanged(ctx, roomID)
}

// TouchRoomPresence tells that session's stream in room roomID is still
// open (its heartbeat).
func (s *Store) TouchRoomPresence(ctx context.Context, roomID, session string) error {
	err := s.db.WithContext(ctx).Model(&roomPresenceRow{}).Where("room_id = ? AND session = ? AND streams > 0", roomID, session).
		Update("seen_at", s.Now()).Error
	return mapDBError(err)
}

// SelectInRoomPresence records the tags session has selected in room
// roomID (at most MaxPresenceSelected ids, each a tag id's characters;
// none: nothing selected) and tells the room's streams. A session without
// an open stream of the room changes nothing.
func (s *Store) SelectInRoomPresence(ctx context.Context, roomID, session string, tagIDs []string) error {
	if len(tagIDs) > MaxPresenceSelected {
		return Invalid("#/selected", "too_many", "problem.field.too_many_elements", "field", Quoted("selected"), "elements", len(tagIDs), "max", MaxPresenceSelected)
	}
	for i, id := range tagIDs {
		if !presenceTagID(id) {
			return Invalid(pointer("#/selected", i), "invalid_id", "problem.presence.tag_id")
		}
	}
	res := s.db.WithContext(ctx).Model(&roomPresenceRow{}).Where("room_id = ? AND session = ? AND streams > 0", roomID, session).
		Update("selected", strings.Join(tagIDs, ","))
	if res.Error != nil {
		return mapDBError(res.Error)
	}
	if res.RowsAffected == 0 {
		return nil
	}
	return s.presenceChanged(ctx, roomID)
}

// ParsePresenceSelection reads the body of a selection: {"selected": [the
// selected tags' ids]} (at most MaxPresenceSelected).
func ParsePresenceSelection(body []byte) ([]string, error) {
	var p Problems
	o, ok := parseBody(&p, body)
	if !ok {
		return nil, p.Err(KindInvalid, "problem.summary.request_json")
	}
	nodes, _ := o.array("selected", true, MaxPresenceSelected)
	o.finish()
	ids := make([]string, 0, len(nodes))
	for i, n := range nodes {
		var id string
		if n.kind != "string" || json.Unmarshal(n.raw, &id) != nil || !presenceTagID(id) {
			p.Add(pointer("#/selected", i), "invalid_id", "problem.presence.tag_id")
			continue
		}
		ids = append(ids, id)
	}
	if err := p.Err(KindInvalid, "problem.summary.request_invalid"); err != nil {
		return nil, err
	}
	return ids, nil
}

// presenceTagID tells whether id can be a tag's id: 1 to 64 letters,
// digits, dashes and underscores.
func presenceTagID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		b := id[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_') {
			return false
		}
	}
	return true
}

// RoomPresence lists the sessions with room roomID open, by number.
func (s *Store) RoomPresence(ctx context.Context, roomID string) ([]RoomPresent, error) {
	var rows []roomPresenceRow
	err := s.db.WithContext(ctx).Where("room_id = ? AND streams > 0 AND seen_at >= ?", roomID, s.Now().Add(-PresenceGone)).
		Order("ordinal").Find(&rows).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	out := make([]RoomPresent, len(rows))
	for i, r := range rows {
		out[i] = RoomPresent{Session: r.Session, Ordinal: r.Ordinal}
		if r.Selected != "" {
			out[i].Selected = strings.Split(r.Selected, ",")
		}
	}
	return out, nil
}

// presenceChanged tells the streams of room roomID that its presence
// changed: on PostgreSQL every instance's by a notification, which this
// process hears too while it listens (ListenRoomEvents); this process's hub
// directly when it does not (SQLite, or no listener), so that each stream
// reads the room's presence once per change.
func (s *Store) presenceChanged(ctx context.Context, roomID string) error {
	if s.dialect == DialectPostgres {
		if err := s.db.WithContext(ctx).Exec("SELECT pg_notify(?, ?)", roomPresenceChannel, roomID).Error; err != nil {
			return mapDBError(err)
		}
	}
	if s.hub != nil && !s.hub.listening.Load() {
		s.hub.presenceChanged(roomID)
	}
	return nil
}
