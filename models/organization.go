package models

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxNameLength bounds names of organizations, users and tokens.
const MaxNameLength = 255

// Organization is a customer account: it owns users, tokens, documents and transactions.
type Organization struct {
	ID         int64  `gorm:"column:id;primaryKey"`
	Name       string `gorm:"column:name"`
	APIEnabled bool   `gorm:"column:api_enabled"`
	// EmbedOrigins are the origins allowed to frame the organization's
	// rooms, normalised and joined by commas ("": none); see
	// AllowedEmbedOrigins and SetOrganizationEmbedOrigins.
	EmbedOrigins string    `gorm:"column:embed_origins"`
	CreatedAt    time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt    time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

// TableName implements gorm's tabler.
func (Organization) TableName() string { return "organizations" }

// CreateOrganization adds an organization.
func (s *Store) CreateOrganization(ctx context.Context, name string, apiEnabled bool) (*Organization, error) {
	name = strings.TrimSpace(name)
	var p Problems
	checkRequiredLine(&p, "#/name", name, MaxNameLength)
	if err := p.Err(KindInvalid, "problem.summary.org_invalid"); err != nil {
		return nil, err
	}
	now := s.Now()
	org := &Organization{Name: name, APIEnabled: apiEnabled, CreatedAt: now, UpdatedAt: now}
	err := s.audited(ctx, ActivityCreate, func(tx *Store) (string, error) {
		if err := tx.db.WithContext(ctx).Create(org).Error; err != nil {
			return "", mapDBError(err)
		}
		return "organization " + name, tx.audit(ctx, AuditEntry{OrganizationID: org.ID, Action: "organization.created",
			TargetType: "organization", TargetID: formatInt(org.ID),
			Summary: fmt.Sprintf("Created organization %s (API access %s)", name, onOff(apiEnabled))})
	})
	if err != nil {
		return nil, err
	}
	return org, nil
}

// GetOrganization reads one organization.
func (s *Store) GetOrganization(ctx context.Context, id int64) (*Organization, error) {
	var org Organization
	if err := s.db.WithContext(ctx).First(&org, "id = ?", id).Error; err != nil {
		return nil, mapDBError(err)
	}
	return &org, nil
}

// SetOrganizationAPIEnabled turns an organization's API permission on or off.
func (s *Store) SetOrganizationAPIEnabled(ctx context.Context, id int64, enabled bool) error {
	defer s.forgetOrganizationTokens(id) // this instance sees the switch at once (token_cache.go)
	state := "off"
	if enabled {
		state = "on"
	}
	return s.audited(ctx, ActivityToggle, func(tx *Store) (string, error) {
		res := tx.db.WithContext(ctx).Model(&Organization{}).Where("id = ?", id).
			Updates(map[string]any{"api_enabled": enabled, "updated_at": tx.Now()})
		if res.Error != nil {
			return "", mapDBError(res.Error)
		}
		if res.RowsAffected == 0 {
			return "", ErrNotFound
		}
		action := "organization.api_disabled"
		if enabled {
			action = "organization.api_enabled"
		}
		if err := tx.audit(ctx, AuditEntry{OrganizationID: id, Action: action, TargetType: "organization",
			TargetID: formatInt(id), Summary: "Turned API access " + state + " for organization " + formatInt(id)}); err != nil {
			return "", err
		}
		return "API access " + state + " for organization " + strconv.FormatInt(id, 10), nil
	})
}

// onOff is "on" or "off".
func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// textProblem tells what is wrong with s as text of at most max characters, if anything.
func textProblem(s string, max int) (code string, msg Message) {
	if !utf8.ValidString(s) {
		return "invalid_encoding", Msg("problem.value.not_utf8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "invalid_character", Msg("problem.value.nul")
	}
	if len(s) > max { // bytes ≥ characters: count characters only when it may matter
		if n := utf8.RuneCountInString(s); n > max {
			return "too_long", Msg("problem.value.too_long", "length", n, "max", max)
		}
	}
	return "", Message{}
}
