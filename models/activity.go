package models

import (
	"context"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

// Admin actions recorded in the activity log.
const (
	ActivityLogin       = "login"
	ActivityLogout      = "logout"
	ActivityFailedLogin = "failed login"
	ActivityLockout     = "lockout"
	ActivityCreate      = "create"
	ActivityToggle      = "toggle"
	ActivityDisable     = "disable"
	ActivityRevoke      = "revoke"
	ActivityExpire      = "expire"
	ActivityRetry       = "retry"
	ActivityDelete      = "delete"
	ActivityRestore     = "restore"
	ActivityArchive     = "archive"
	// ActivitySignOutEverywhere ends every console session of the admin.
	ActivitySignOutEverywhere = "sign out everywhere"
	maxActivityTextBytes      = 1000
)

// Activity is one admin action: who, what, on what, when, from where.
type Activity struct {
	ID         int64     `gorm:"column:id;primaryKey"`
	UserID     *int64    `gorm:"column:user_id"`
	Actor      string    `gorm:"column:actor"`
	Action     string    `gorm:"column:action"`
	Target     string    `gorm:"column:target"`
	Detail     string    `gorm:"column:detail"`
	ClientAddr string    `gorm:"column:client_addr"`
	CreatedAt  time.Time `gorm:"column:created_at;autoCreateTime:false"`
	// Repeats counts the same refusal (a failed sign-in, a lockout) from one
	// address for one e-mail within LoginWindow of CreatedAt, kept as this one
	// row; LastAt is the latest of them (nil when Repeats is 1).
	Repeats int        `gorm:"column:repeats"`
	LastAt  *time.Time `gorm:"column:last_at"`
}

// TableName implements gorm's tabler.
func (Activity) TableName() string { return "admin_activity" }

// RecordActivity appends an admin action to the log (never edited
// afterwards, but for the count of a repeated sign-in refusal).
func (s *Store) RecordActivity(ctx context.Context, a Activity) error {
	a.ID = 0
	a.CreatedAt = s.Now()
	a.Repeats, a.LastAt = 1, nil
	a.Actor, a.Target, a.Detail = clip(a.Actor), clip(a.Target), clip(a.Detail)
	return mapDBError(s.db.WithContext(ctx).Create(&a).Error)
}

// recordRepeated records a refused sign-in: the first of its kind (action,
// actor and client address) in LoginWindow is a new row, the next ones add
// to that row's Repeats, so an attack of 500 attempts is one row, not 500.
// (Two refusals racing may still make two rows.)
func (s *Store) recordRepeated(ctx context.Context, a Activity) error {
	now := s.Now()
	a.Actor = clip(a.Actor)
	same := s.db.Model(&Activity{}).Select("MAX(id)").
		Where("action = ? AND actor = ? AND client_addr = ? AND created_at > ?", a.Action, a.Actor, a.ClientAddr, now.Add(-LoginWindow))
	res := s.db.WithContext(ctx).Model(&Activity{}).Where("id = (?)", same).
		Updates(map[string]any{"repeats": gorm.Expr("repeats + 1"), "last_at": now})
	if res.Error != nil {
		return mapDBError(res.Error)
	}
	if res.RowsAffected > 0 {
		return nil
	}
	return s.RecordActivity(ctx, a)
}

// ListActivity reads the log newest first, limit entries older than the
// entry with id before (0: from the newest).
func (s *Store) ListActivity(ctx context.Context, limit int, before int64) ([]Activity, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	q := s.db.WithContext(ctx).Order("id DESC").Limit(limit)
	if before > 0 {
		q = q.Where("id < ?", before)
	}
	var out []Activity
	return out, mapDBError(q.Find(&out).Error)
}

// clip bounds a stored free text (an e-mail typed at sign-in, a remote
// server's error) to maxActivityTextBytes, cut between characters so the
// result stays valid UTF-8 (PostgreSQL refuses anything else).
func clip(s string) string {
	if len(s) <= maxActivityTextBytes {
		return s
	}
	cut := maxActivityTextBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
