package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

// RoomVisitor is the browser session that changes a Markup Room: a short id
// of its session and its client address, named in the history entries of
// its changes (WithRoomVisitor).
type RoomVisitor struct {
	// Session is the session's short id (ShortSessionID), never its secret.
	Session    string
	ClientAddr string
	// Client is the id the editor's page sends with its changes (a random
	// id per page, not a secret): the room's events carry it, so a page
	// skips its own changes and not those of another tab of its session.
	Client string
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

// roomActor names a room's change in the history: the room's sender, then
// the session's short id and client address when the context carries them
// (WithRoomVisitor).
func roomActor(ctx context.Context, room *Room) Actor {
	a := Actor{OrganizationID: room.OrganizationID, UserID: &room.SenderID, Kind: HistoryActorRoom, ID: room.ID,
		Name: room.SenderName, Via: "room"}
	if v, ok := ctx.Value(roomVisitorKey{}).(RoomVisitor); ok {
		a.Session, a.Address = v.Session, v.ClientAddr
	}
	return a
}
