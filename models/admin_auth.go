package models

import (
	"context"
	"errors"
	"time"

	"github.com/markuproom/markuproom/models/passwordhash"
)

// Sign-in limits of the admin console. In the window, LoginFailuresPerAccount
// failures of one account from one client address lock that account for that
// address only, and LoginFailuresPerAddress failures from one address (any
// accounts) lock that address; while locked every attempt is refused, whether
// or not the password is right. Failures of an account from every address
// together never lock it: they slow every attempt on it down (LoginDelay), so
// the right password from a new address always gets in.
const (
	LoginFailuresPerAccount = 5
	LoginFailuresPerAddress = 20
	LoginWindow             = 15 * time.Minute
	// LoginDelayBase is the delay at LoginFailuresPerAccount failures of an
	// account; each further failure doubles it, up to LoginDelayMax.
	LoginDelayBase = 250 * time.Millisecond
	LoginDelayMax  = 30 * time.Second
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

// maxCountedFailures bounds the count behind LoginDelay (which is at its
// cap long before).
const maxCountedFailures = 64

// LoginDelay is how long an attempt on an account waits before its password
// is checked, given the account's failures in the window from every
// address: nothing below LoginFailuresPerAccount, then LoginDelayBase
// doubled for each further failure, at most LoginDelayMax.
func LoginDelay(failures int) time.Duration {
	if failures < LoginFailuresPerAccount {
		return 0
	}
	d := LoginDelayBase
	for i := LoginFailuresPerAccount; i < failures && d < LoginDelayMax; i++ {
		d *= 2
	}
	return min(d, LoginDelayMax)
}

// sleepContext waits d, or less if ctx ends first (then its error).
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// AdminSignIn checks an admin's e-mail and password from a client address,
// under the lockout rules, and records the attempt and the activity. It
// answers ErrBadCredentials for every kind of wrong, and *LockedOutError
// during a lockout (checked before the password, so it tells nothing).
// Before the password is checked, the attempt waits LoginDelay for the
// account's recent failures (no database transaction is open meanwhile);
// the wait applies to the right password too, or a quick answer would tell
// an attacker the password was right.
func (s *Store) AdminSignIn(ctx context.Context, email, password, clientAddr string) (*User, error) {
	key := EmailKey(email)
	now := s.Now()
	since := now.Add(-LoginWindow)
	for _, limit := range []struct {
		where string
		args  []any
		max   int
	}{
		{"client_addr = ?", []any{clientAddr}, LoginFailuresPerAddress},
		{"email_key = ? AND client_addr = ?", []any{key, clientAddr}, LoginFailuresPerAccount},
	} {
		var failures []LoginAttempt
		err := s.db.WithContext(ctx).Where(limit.where, limit.args...).Where("succeeded = ? AND created_at > ?", false, since).
			Order("created_at DESC").Limit(limit.max).Find(&failures).Error
		if err != nil {
			return nil, mapDBError(err)
		}
		if len(failures) >= limit.max {
			retry := failures[len(failures)-1].CreatedAt.Add(LoginWindow).Sub(now)
			err := s.inTx(ctx, func(tx *Store) error {
				if err := tx.recordRepeated(ctx, Activity{Actor: email, Action: ActivityLockout, ClientAddr: clientAddr}); err != nil {
					return err
				}
				return tx.auditSignIn(ctx, key, email, clientAddr, nil, "admin.locked_out", "Refused a sign-in during a lockout")
			})
			if err != nil {
				return nil, err
			}
			return nil, &LockedOutError{RetryAfter: retry}
		}
	}
	var recent int64
	recentFailures := s.db.Model(&LoginAttempt{}).Select("id").
		Where("email_key = ? AND succeeded = ? AND created_at > ?", key, false, since).Limit(maxCountedFailures)
	if err := s.db.WithContext(ctx).Table("(?) AS f", recentFailures).Count(&recent).Error; err != nil {
		return nil, mapDBError(err)
	}
	if d := LoginDelay(int(recent)); d > 0 {
		if err := s.sleep(ctx, d); err != nil {
			return nil, err
		}
	}
	var candidates []User
	if err := s.db.WithContext(ctx).Where("email_key = ? AND is_admin = ?", key, true).Order("id").Find(&candidates).Error; err != nil {
		return nil, mapDBError(err)
	}
	var found *User
	hashed := false
	for i := range candidates {
		u := &candidates[i]
		if u.PasswordHash == "" {
			continue
		}
		hashed = true
		if s.verifyPassword(u.PasswordHash, password) && found == nil {
			found = u
		}
	}
	if !hashed {
		s.verifyPassword(passwordhash.DummyHash, password) // every refusal costs one argon2id hash
	}
	ok := found != nil && found.DisabledAt == nil
	err := s.inTx(ctx, func(tx *Store) error {
		attempt := &LoginAttempt{EmailKey: key, ClientAddr: clientAddr, Succeeded: ok, CreatedAt: tx.Now()}
		if err := tx.db.WithContext(ctx).Create(attempt).Error; err != nil {
			return mapDBError(err)
		}
		if !ok {
			if err := tx.recordRepeated(ctx, Activity{Actor: email, Action: ActivityFailedLogin, ClientAddr: clientAddr}); err != nil {
				return err
			}
			return tx.auditSignIn(ctx, key, email, clientAddr, nil, "admin.sign_in_refused", "Refused a sign-in")
		}
		if err := tx.RecordActivity(ctx, Activity{UserID: &found.ID, Actor: found.Email, Action: ActivityLogin, ClientAddr: clientAddr}); err != nil {
			return err
		}
		return tx.auditSignIn(ctx, key, found.Email, clientAddr, found, "admin.signed_in", "Signed in to the admin console")
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBadCredentials
	}
	return found, nil
}

// auditSignIn queues a sign-in's audit event: by the admin who signed in
// (u), or by the e-mail address typed, in the trail of the organization of
// the user the address names (the first, an admin before others), else of
// organization 0.
func (s *Store) auditSignIn(ctx context.Context, key, email, clientAddr string, u *User, action, summary string) error {
	actor := AuditActor{Kind: AuditActorAdmin, Name: email, Via: "console", Address: clientAddr}
	e := AuditEntry{Action: action, TargetType: "user", Summary: summary + " as " + email}
	if u != nil {
		actor.ID, e.OrganizationID, e.TargetID = formatInt(u.ID), u.OrganizationID, formatInt(u.ID)
	} else {
		var users []User
		err := s.db.WithContext(ctx).Select("id", "organization_id").Where("email_key = ?", key).
			Order("is_admin DESC, id").Limit(1).Find(&users).Error
		if err != nil {
			return mapDBError(err)
		}
		if len(users) == 1 {
			e.OrganizationID, e.TargetID = users[0].OrganizationID, formatInt(users[0].ID)
		}
	}
	return s.audit(WithAuditActor(ctx, actor), e)
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
