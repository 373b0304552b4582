package models

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"time"

	"gorm.io/gorm"
)

// AdminSessionTouchEvery is how often a console session's last request is
// written: at most once a minute, so a busy console costs one UPDATE a
// minute, not one per request. The idle timeout is measured from that
// record, so a session may end up to this much before its exact idle time.
const AdminSessionTouchEvery = time.Minute

// AdminSession is a signed-in console session, kept in the database so that
// it can end everywhere at once: the browser's cookie only names it (by a
// random id the table keeps as a SHA-256 hash, so a database read does not
// give working cookies).
type AdminSession struct {
	IDHash     string     `gorm:"column:id_hash;primaryKey"`
	UserID     int64      `gorm:"column:user_id"`
	ClientAddr string     `gorm:"column:client_addr"`
	CreatedAt  time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	LastSeenAt time.Time  `gorm:"column:last_seen_at"`
	EndedAt    *time.Time `gorm:"column:ended_at"`
}

// TableName implements gorm's tabler.
func (AdminSession) TableName() string { return "admin_sessions" }

// AdminSessionLimits end a session that long without a request (Idle) and
// that long after sign-in (MaxAge).
type AdminSessionLimits struct {
	Idle   time.Duration
	MaxAge time.Duration
}

func adminSessionHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:])
}

// StartAdminSession records a new console session of user from clientAddr
// and returns its id, the secret the browser's cookie carries.
func (s *Store) StartAdminSession(ctx context.Context, userID int64, clientAddr string) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	id := base64.RawURLEncoding.EncodeToString(b)
	now := s.Now()
	rec := AdminSession{IDHash: adminSessionHash(id), UserID: userID, ClientAddr: clip(clientAddr), CreatedAt: now, LastSeenAt: now}
	if err := s.db.WithContext(ctx).Create(&rec).Error; err != nil {
		return "", mapDBError(err)
	}
	return id, nil
}

// AdminSessionUser checks a console session on a request and returns its
// admin. A session that is unknown, ended, idle past limits.Idle or older
// than limits.MaxAge is ErrNotFound (an expired one is ended on the way); a
// user who is disabled or no longer an admin is ErrForbidden, as from
// ActiveAdmin. The last request is recorded at most every
// AdminSessionTouchEvery.
func (s *Store) AdminSessionUser(ctx context.Context, id string, limits AdminSessionLimits) (*User, error) {
	if id == "" {
		return nil, ErrNotFound
	}
	hash := adminSessionHash(id)
	var rec AdminSession
	if err := s.db.WithContext(ctx).Where("id_hash = ?", hash).Take(&rec).Error; err != nil {
		return nil, mapDBError(err)
	}
	if rec.EndedAt != nil {
		return nil, ErrNotFound
	}
	now := s.Now()
	if now.Sub(rec.LastSeenAt) >= limits.Idle || now.Sub(rec.CreatedAt) >= limits.MaxAge {
		if err := s.endAdminSessions(s.db.WithContext(ctx).Where("id_hash = ?", hash), now); err != nil {
			return nil, err
		}
		return nil, ErrNotFound
	}
	u, err := s.ActiveAdmin(ctx, rec.UserID)
	if err != nil {
		return nil, err
	}
	if now.Sub(rec.LastSeenAt) >= AdminSessionTouchEvery {
		err := s.db.WithContext(ctx).Model(&AdminSession{}).Where("id_hash = ? AND ended_at IS NULL", hash).
			Update("last_seen_at", now).Error
		if err != nil {
			return nil, mapDBError(err)
		}
	}
	return u, nil
}

// EndAdminSession ends one console session (signing out); an unknown or
// already ended one is no error.
func (s *Store) EndAdminSession(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	return s.endAdminSessions(s.db.WithContext(ctx).Where("id_hash = ?", adminSessionHash(id)), s.Now())
}

// EndAdminSessionsOf ends every open console session of a user ("Sign out
// everywhere") and says how many there were.
func (s *Store) EndAdminSessionsOf(ctx context.Context, userID int64) (int64, error) {
	res := s.db.WithContext(ctx).Model(&AdminSession{}).Where("user_id = ? AND ended_at IS NULL", userID).
		Update("ended_at", s.Now())
	return res.RowsAffected, mapDBError(res.Error)
}

// SignOutAdmin ends the console session a browser signs out of; the
// activity log records it for the admin in ctx.
func (s *Store) SignOutAdmin(ctx context.Context, id string) error {
	return s.audited(ctx, ActivityLogout, func(tx *Store) (string, error) {
		if err := tx.EndAdminSession(ctx, id); err != nil {
			return "", err
		}
		return "", tx.auditAdmin(ctx, "admin.signed_out", "Signed out")
	})
}

// SignOutEverywhere ends every open console session of a user and says how
// many there were; the activity log records it for the admin in ctx.
func (s *Store) SignOutEverywhere(ctx context.Context, userID int64) (int64, error) {
	var n int64
	err := s.audited(ctx, ActivitySignOutEverywhere, func(tx *Store) (string, error) {
		var err error
		n, err = tx.EndAdminSessionsOf(ctx, userID)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(n, 10) + " sessions", tx.auditAdmin(ctx, "admin.sessions_revoked",
			"Signed out everywhere: ended "+count(int(n), "session"))
	})
	return n, err
}

// endAdminSessions ends the open sessions q selects.
func (s *Store) endAdminSessions(q *gorm.DB, now time.Time) error {
	return mapDBError(q.Model(&AdminSession{}).Where("ended_at IS NULL").Update("ended_at", now).Error)
}
