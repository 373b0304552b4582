package models

import (
	"context"
	"errors"
	"time"
)

// Sign-in limits of the admin console: after this many failures in the
// window, for one account or from one client address, every attempt is
// refused until the window has passed (whether or not the password is right).
const (
	LoginFailuresPerAccount = 5
	LoginFailuresPerAddress = 20
	LoginWindow             = 15 * time.Minute
)

// ErrBadCredentials is the one answer to an unknown e-mail, a wrong
// password, a user who is not an admin and a disabled user.
var ErrBadCredentials = errors.New("the e-mail or the password is not right")

// LockedOutError refuses a sign-in during a lockout; RetryAfter says for how long.
type LockedOutError struct{ RetryAfter time.Duration }

func (e *LockedOutError) Error() string {
	return "too many failed sign-ins; try again later"
}

// LoginAttempt is one sign-in attempt, kept for the lockout rules.
type LoginAttempt struct {
	ID         int64     `gorm:"column:id;primaryKey"`
	EmailKey   string    `gorm:"column:email_key"`
	ClientAddr string    `gorm:"column:client_addr"`
	Succeeded  bool      `gorm:"column:succeeded"`
	CreatedAt  time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

// TableName implements gorm's tabler.
func (LoginAttempt) TableName() string { return "login_attempts" }

// dummyPasswordHash keeps an unknown e-mail as slow as a wrong password.
const dummyPasswordHash = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0Q5xV3uB2gQe9o1VZQw0m6mV8wJ2fW9aPZQ2o0lHk5c"

// AdminSignIn checks an admin's e-mail and password from a client address,
// under the lockout rules, and records the attempt and the activity. It
// answers ErrBadCredentials for every kind of wrong, and *LockedOutError
// during a lockout (checked before the password, so it tells nothing).
func (s *Store) AdminSignIn(ctx context.Context, email, password, clientAddr string) (*User, error) {
	key := EmailKey(email)
	now := s.Now()
	since := now.Add(-LoginWindow)
	for _, limit := range []struct {
		column, value string
		max           int
	}{{"email_key", key, LoginFailuresPerAccount}, {"client_addr", clientAddr, LoginFailuresPerAddress}} {
		var failures []LoginAttempt
		err := s.db.WithContext(ctx).Where(limit.column+" = ? AND succeeded = ? AND created_at > ?", limit.value, false, since).
			Order("created_at DESC").Limit(limit.max).Find(&failures).Error
		if err != nil {
			return nil, err
		}
		if len(failures) >= limit.max {
			retry := failures[len(failures)-1].CreatedAt.Add(LoginWindow).Sub(now)
			if err := s.RecordActivity(ctx, Activity{Actor: email, Action: ActivityLockout, ClientAddr: clientAddr}); err != nil {
				return nil, err
			}
			return nil, &LockedOutError{RetryAfter: retry}
		}
	}
	var candidates []User
	if err := s.db.WithContext(ctx).Where("email_key = ? AND is_admin = ?", key, true).Order("id").Find(&candidates).Error; err != nil {
		return nil, err
	}
	var found *User
	for i := range candidates {
		u := &candidates[i]
		if u.PasswordHash != "" && VerifyPassword(u.PasswordHash, password) && found == nil {
			found = u
		}
	}
	if len(candidates) == 0 {
		VerifyPassword(dummyPasswordHash, password)
	}
	ok := found != nil && found.DisabledAt == nil
	attempt := &LoginAttempt{EmailKey: key, ClientAddr: clientAddr, Succeeded: ok, CreatedAt: now}
	if err := s.db.WithContext(ctx).Create(attempt).Error; err != nil {
		return nil, err
	}
	if !ok {
		if err := s.RecordActivity(ctx, Activity{Actor: email, Action: ActivityFailedLogin, ClientAddr: clientAddr}); err != nil {
			return nil, err
		}
		return nil, ErrBadCredentials
	}
	if err := s.RecordActivity(ctx, Activity{UserID: &found.ID, Actor: found.Email, Action: ActivityLogin, ClientAddr: clientAddr}); err != nil {
		return nil, err
	}
	return found, nil
}

// ActiveAdmin reads a signed-in admin again: ErrNotFound when the user is
// gone, disabled or no longer an admin.
func (s *Store) ActiveAdmin(ctx context.Context, userID int64) (*User, error) {
	var u User
	if err := s.db.WithContext(ctx).Where("id = ?", userID).Take(&u).Error; err != nil {
		return nil, mapDBError(err)
	}
	if !u.IsAdmin || u.DisabledAt != nil {
		return nil, ErrForbidden
	}
	return &u, nil
}

// PurgeLoginAttempts deletes attempts older than the lockout window.
func (s *Store) PurgeLoginAttempts(ctx context.Context) error {
	return s.db.WithContext(ctx).Where("created_at < ?", s.Now().Add(-LoginWindow)).Delete(&LoginAttempt{}).Error
}
