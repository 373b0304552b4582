package models

import (
	"context"
	"time"
)

// AdminRoomRow is one room of the console's Markup Rooms table.
type AdminRoomRow struct {
	ID               string
	OrganizationName string
	SenderName       string
	SenderEmail      string
	TransactionID    string
	// Title is the transaction's first document's title (empty without documents).
	Title     string
	State     string
	ExpiresAt time.Time
	CreatedAt time.Time
}

// Status is the row's room status at time now (open, completed or expired).
func (r AdminRoomRow) Status(now time.Time) string {
	room := Room{State: r.State, ExpiresAt: r.ExpiresAt}
	return room.Status(now)
}

// AdminListRooms pages every organization's rooms, newest first; after is
// the last id of the page shown.
func (s *Store) AdminListRooms(ctx context.Context, after string) ([]AdminRoomRow, bool, error) {
	q := s.db.WithContext(ctx).Table("markup_rooms AS r").
		Select(`r.id, o.name AS organization_name, u.first_name || ' ' || u.last_name AS sender_name, u.email AS sender_email,
			r.transaction_id, r.status AS state, r.expires_at, r.created_at,
			COALESCE((SELECT d.title FROM transaction_documents d WHERE d.transaction_id = r.transaction_id ORDER BY d.position LIMIT 1), '') AS title`).
		Joins("JOIN organizations o ON o.id = r.organization_id").
		Joins("JOIN users u ON u.id = r.sender_id").
		Order("r.id DESC").Limit(AdminPageSize + 1)
	if after != "" {
		q = q.Where("r.id < ?", after)
	}
	var rows []AdminRoomRow
	if err := q.Scan(&rows).Error; err != nil {
		return nil, false, mapDBError(err)
	}
	more := len(rows) > AdminPageSize
	if more {
		rows = rows[:AdminPageSize]
	}
	return rows, more, nil
}

// ExpireRoom ends an open room now: its URL answers 410 from then on, and
// so do the browser sessions that opened it. A completed or already
// expired room is left as it is (ErrConflict).
func (s *Store) ExpireRoom(ctx context.Context, id string) error {
	return s.audited(ctx, ActivityExpire, func(tx *Store) (string, error) {
		now := tx.Now()
		res := tx.db.WithContext(ctx).Model(&Room{}).Where("id = ? AND status = ? AND expires_at > ?", id, RoomOpen, now).
			Updates(map[string]any{"expires_at": now, "updated_at": now})
		if res.Error != nil {
			return "", mapDBError(res.Error)
		}
		if res.RowsAffected > 0 {
			room, err := tx.RoomByID(ctx, id)
			if err != nil {
				return "", err
			}
			tx.roomEvent(ctx, room.TransactionID, RoomEventRoomExpired, struct{}{})
			return "Markup Room " + id, tx.audit(ctx, AuditEntry{OrganizationID: room.OrganizationID, Action: "room.expired",
				TargetType: "room", TargetID: id, TransactionID: room.TransactionID, Summary: "Expired the Markup Room of " + roomSender(room)})
		}
		var n int64
		if err := tx.db.WithContext(ctx).Model(&Room{}).Where("id = ?", id).Count(&n).Error; err != nil {
			return "", mapDBError(err)
		}
		if n == 0 {
			return "", ErrNotFound
		}
		return "", ErrConflict
	})
}
