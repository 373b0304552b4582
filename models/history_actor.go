package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// RoomVisitor is the browser session that changes a Markup Room: a short id
// of its session and its client address, named in the history entries of
// its changes (WithRoomVisitor).
type RoomVisitor struct {
	// Session is the session's short id (ShortSessionID), never its secret.
	Session    string
	ClientAddr string
}

type roomVisitorKey struct{}

// WithRoomVisitor returns a context whose room changes the history
// attributes to v.
func WithRoomVisitor(ctx context.Context, v RoomVisitor) context.Context {
	return context.WithValue(ctx, roomVisitorKey{}, v)
}

// ShortSessionID is the short id a room session is shown by: the first 8
// hex digits of a SHA-256 of its id, so the id itself never leaves the
// session.
func ShortSessionID(sessionID string) string {
	if sessionID == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(sessionID))
	return hex.EncodeToString(sum[:4])
}

// roomActor names a room's change in the history: the room's sender
// ("Sam Sender · Markup Room"), then the session's short id and client
// address when the context carries them (WithRoomVisitor).
func roomActor(ctx context.Context, room *Room) Actor {
	label := "Markup Room"
	if room.SenderName != "" {
		label = room.SenderName + " · Markup Room"
	}
	if v, ok := ctx.Value(roomVisitorKey{}).(RoomVisitor); ok {
		if v.Session != "" {
			label += " · session " + v.Session
		}
		if v.ClientAddr != "" {
			label += " · " + v.ClientAddr
		}
	}
	return Actor{OrganizationID: room.OrganizationID, UserID: &room.SenderID, Label: label}
}

// ActorParts splits a history entry's actor label into who (the room's
// sender, an API token, an admin) and where from (a room session's short id
// and client address, as roomActor writes them; empty for other labels).
func ActorParts(label string) (who, from string) {
	if i := strings.Index(label, " · session "); i >= 0 {
		return label[:i], label[i+len(" · "):]
	}
	return label, ""
}
