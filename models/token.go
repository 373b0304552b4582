package models

import (
	"context"
	"crypto/sha256"
	"errors"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models/secret"
)

// apiTokenPrefix starts every API token so that leaked tokens are easy to recognise.
const apiTokenPrefix = "mrt"

// lastUsedResolution limits how often a token's last use is written.
const lastUsedResolution = time.Minute

// APIToken is an organization's bearer credential; only a hash of its secret is stored.
type APIToken struct {
	ID             int64      `gorm:"column:id;primaryKey"`
	OrganizationID int64      `gorm:"column:organization_id"`
	Name           string     `gorm:"column:name"`
	Selector       string     `gorm:"column:selector"`
	SecretHash     []byte     `gorm:"column:secret_hash"`
	CreatedAt      time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	LastUsedAt     *time.Time `gorm:"column:last_used_at"`
	RevokedAt      *time.Time `gorm:"column:revoked_at"`
}

// TableName implements gorm's tabler.
func (APIToken) TableName() string { return "api_tokens" }

// Principal is the authenticated caller of an API request.
type Principal struct {
	Organization *Organization
	Token        *APIToken
}

// AuthError is a refused credential; it matches ErrUnauthorized with errors.Is.
type AuthError struct {
	// Message tells the caller what to fix, without revealing other
	// accounts: a catalog id and its arguments (docs/words.md).
	Message Message
	// InvalidToken is true when a token was presented but is not acceptable
	// (RFC 6750's invalid_token), false when none was presented.
	InvalidToken bool
}

// Error implements error.
func (e *AuthError) Error() string { return e.Message.String() }

// Is makes errors.Is(err, ErrUnauthorized) true.
func (e *AuthError) Is(target error) bool { return target == ErrUnauthorized }

// CreateAPIToken issues a token for an organization and returns it with its plaintext, shown only now.
func (s *Store) CreateAPIToken(ctx context.Context, orgID int64, name string) (*APIToken, string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = "API token"
	}
	var p Problems
	checkLine(&p, "#/name", name, MaxNameLength)
	if err := p.Err(KindInvalid, "problem.summary.token_invalid"); err != nil {
		return nil, "", err
	}
	if _, err := s.GetOrganization(ctx, orgID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, "", Unprocessable("#/organizationId", "unknown_organization", "problem.org.unknown")
		}
		return nil, "", err
	}
	st, err := secret.NewSplitToken(apiTokenPrefix)
	if err != nil {
		return nil, "", err
	}
	t := &APIToken{OrganizationID: orgID, Name: name, Selector: st.Selector, SecretHash: st.Hash, CreatedAt: s.Now()}
	err = s.audited(ctx, ActivityCreate, func(tx *Store) (string, error) {
		if err := tx.db.WithContext(ctx).Create(t).Error; err != nil {
			return "", mapDBError(err)
		}
		label := "API token " + strconv.FormatInt(t.ID, 10) + " (" + t.Name + ")"
		return label, tx.audit(ctx, AuditEntry{OrganizationID: orgID, Action: "token.created", TargetType: "token",
			TargetID: formatInt(t.ID), Summary: "Created " + label})
	})
	if err != nil {
		return nil, "", err
	}
	return t, st.Plaintext, nil
}

// RevokeAPIToken revokes a token, with its audit event in the same
// database transaction; revoking twice keeps the first time.
func (s *Store) RevokeAPIToken(ctx context.Context, id int64) error {
	defer s.forgetToken(id) // this instance refuses it at once (token_cache.go)
	return s.inTx(ctx, func(tx *Store) error {
		var t APIToken
		if err := tx.db.WithContext(ctx).Select("id", "organization_id", "name").Where("id = ?", id).Take(&t).Error; err != nil {
			return mapDBError(err)
		}
		res := tx.db.WithContext(ctx).Model(&APIToken{}).Where("id = ?", id).
			Update("revoked_at", gorm.Expr("COALESCE(revoked_at, ?)", tx.Now()))
		if res.Error != nil {
			return mapDBError(res.Error)
		}
		return tx.audit(ctx, AuditEntry{OrganizationID: t.OrganizationID, Action: "token.revoked", TargetType: "token",
			TargetID: formatInt(id), Summary: "Revoked API token " + formatInt(id) + " (" + t.Name + ")"})
	})
}

// AuthenticateAPIToken checks a bearer token and returns who is calling.
// Unknown, malformed and revoked tokens, and organizations whose API
// permission is off, are refused with an *AuthError.
func (s *Store) AuthenticateAPIToken(ctx context.Context, plaintext string) (*Principal, error) {
	key := sha256.Sum256([]byte(plaintext))
	if p, ok := s.tokens.get(key); ok {
		if s.touchAPIToken(ctx, p.Token) {
			s.tokens.usedAt(key, p.Token.LastUsedAt)
		}
		return p, nil
	}
	loaded := s.tokens.now()
	selector, verifier, ok := secret.ParseSplitToken(apiTokenPrefix, plaintext)
	if !ok {
		return nil, &AuthError{Message: Msg("error.token_unknown"), InvalidToken: true}
	}
	// The token and its organization in one query: this runs on every API call.
	var row struct {
		APIToken
		OrgName       string    `gorm:"column:org_name"`
		OrgAPIEnabled bool      `gorm:"column:org_api_enabled"`
		OrgCreatedAt  time.Time `gorm:"column:org_created_at"`
		OrgUpdatedAt  time.Time `gorm:"column:org_updated_at"`
	}
	err := s.db.WithContext(ctx).Table("api_tokens").
		Select("api_tokens.*, o.name AS org_name, o.api_enabled AS org_api_enabled, o.created_at AS org_created_at, o.updated_at AS org_updated_at").
		Joins("JOIN organizations o ON o.id = api_tokens.organization_id").
		Where("api_tokens.selector = ?", selector).Take(&row).Error
	t := row.APIToken
	if errors.Is(err, gorm.ErrRecordNotFound) {
		// Compare anyway so unknown selectors take as long as wrong verifiers.
		secret.VerifierMatches(verifier, make([]byte, 32))
		return nil, &AuthError{Message: Msg("error.token_unknown"), InvalidToken: true}
	}
	if err != nil {
		return nil, mapDBError(err)
	}
	if !secret.VerifierMatches(verifier, t.SecretHash) {
		return nil, &AuthError{Message: Msg("error.token_unknown"), InvalidToken: true}
	}
	if t.RevokedAt != nil {
		return nil, &AuthError{Message: Msg("error.token_revoked"), InvalidToken: true}
	}
	org := &Organization{ID: t.OrganizationID, Name: row.OrgName, APIEnabled: row.OrgAPIEnabled, CreatedAt: row.OrgCreatedAt, UpdatedAt: row.OrgUpdatedAt}
	if !org.APIEnabled {
		return nil, &AuthError{Message: Msg("error.api_disabled"), InvalidToken: true}
	}
	s.touchAPIToken(ctx, &t)
	p := &Principal{Organization: org, Token: &t}
	s.tokens.put(key, p, loaded)
	return p, nil
}

// APITokenSelector returns the selector an API token's row is found by, and
// false for a string that is no well-formed API token.
func APITokenSelector(plaintext string) (string, bool) {
	selector, _, ok := secret.ParseSplitToken(apiTokenPrefix, plaintext)
	return selector, ok
}

// APITokenMatches tells, in constant time, whether a well-formed API token's
// secret matches the hash stored in its row.
func APITokenMatches(plaintext string, hash []byte) bool {
	_, verifier, ok := secret.ParseSplitToken(apiTokenPrefix, plaintext)
	return ok && secret.VerifierMatches(verifier, hash)
}

// touchAPIToken records the token's use, at most once per
// lastUsedResolution; true when it wrote it.
func (s *Store) touchAPIToken(ctx context.Context, t *APIToken) bool {
	now := s.Now()
	if t.LastUsedAt != nil && now.Sub(*t.LastUsedAt) < lastUsedResolution {
		return false
	}
	err := s.db.WithContext(ctx).Model(&APIToken{}).
		Where("id = ? AND (last_used_at IS NULL OR last_used_at < ?)", t.ID, now.Add(-lastUsedResolution)).
		Update("last_used_at", now).Error
	if err != nil {
		s.log.WarnContext(ctx, "record token use", "token_id", t.ID, "error", err)
		return false
	}
	t.LastUsedAt = &now
	return true
}
