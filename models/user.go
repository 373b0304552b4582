package models

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/markuproom/markuproom/models/passwordhash"
)

// User is a person of an organization: a sender of Markup Rooms, and an admin when IsAdmin.
type User struct {
	ID             int64  `gorm:"column:id;primaryKey"`
	OrganizationID int64  `gorm:"column:organization_id"`
	Email          string `gorm:"column:email"`
	EmailKey       string `gorm:"column:email_key"`
	FirstName      string `gorm:"column:first_name"`
	LastName       string `gorm:"column:last_name"`
	IsAdmin        bool   `gorm:"column:is_admin"`
	PasswordHash   string `gorm:"column:password_hash"`
	// DisabledAt is set when an admin disabled the user: no sign-in, not a sender.
	DisabledAt *time.Time `gorm:"column:disabled_at"`
	CreatedAt  time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt  time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
}

// TableName implements gorm's tabler.
func (User) TableName() string { return "users" }

// FullName is "First Last".
func (u *User) FullName() string {
	return strings.TrimSpace(u.FirstName + " " + u.LastName)
}

// NewUser is the input of CreateUser.
type NewUser struct {
	OrganizationID int64
	Email          string
	FirstName      string
	LastName       string
	Admin          bool
	// Password is optional; empty means the user cannot log in to the console.
	Password string
}

// CreateUser adds a user to an organization; the e-mail is unique per organization, ignoring case.
func (s *Store) CreateUser(ctx context.Context, in NewUser) (*User, error) {
	in.Email = strings.TrimSpace(in.Email)
	in.FirstName = strings.TrimSpace(in.FirstName)
	in.LastName = strings.TrimSpace(in.LastName)
	var p Problems
	checkEmail(&p, "#/email", in.Email)
	checkRequiredLine(&p, "#/firstName", in.FirstName, MaxNameLength)
	checkRequiredLine(&p, "#/lastName", in.LastName, MaxNameLength)
	if len(in.Password) > passwordhash.MaxPasswordLength {
		p.Add("#/password", "too_long", "problem.user.password_too_long", "max", passwordhash.MaxPasswordLength)
	} else if in.Password != "" && len(in.Password) < 8 {
		p.Add("#/password", "too_short", "problem.user.password_too_short")
	}
	if err := p.Err(KindInvalid, "problem.summary.user_invalid"); err != nil {
		return nil, err
	}
	if _, err := s.GetOrganization(ctx, in.OrganizationID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, Unprocessable("#/organizationId", "unknown_organization", "problem.org.unknown")
		}
		return nil, err
	}
	var hash string
	if in.Password != "" {
		var err error
		if hash, err = passwordhash.Hash(in.Password); err != nil {
			return nil, err
		}
	}
	now := s.Now()
	u := &User{
		OrganizationID: in.OrganizationID, Email: in.Email, EmailKey: EmailKey(in.Email),
		FirstName: in.FirstName, LastName: in.LastName, IsAdmin: in.Admin, PasswordHash: hash,
		CreatedAt: now, UpdatedAt: now,
	}
	err := s.audited(ctx, ActivityCreate, func(tx *Store) (string, error) {
		if err := tx.db.WithContext(ctx).Create(u).Error; err != nil {
			return "", mapDBError(err)
		}
		role := "user"
		if u.IsAdmin {
			role = "admin"
		}
		return "user " + u.Email, tx.audit(ctx, AuditEntry{OrganizationID: u.OrganizationID, Action: "user.created",
			TargetType: "user", TargetID: formatInt(u.ID), Summary: "Created " + role + " " + u.Email})
	})
	if err != nil {
		if errors.Is(err, ErrConflict) {
			return nil, Unprocessable("#/email", "duplicate_email", "problem.user.email_taken")
		}
		return nil, err
	}
	return u, nil
}

// GetUserInOrganization reads a user of one organization; another organization's user is ErrNotFound.
func (s *Store) GetUserInOrganization(ctx context.Context, orgID, userID int64) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).Where("id = ? AND organization_id = ?", userID, orgID).First(&u).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	return &u, nil
}
