package models

import (
	"context"
	"strconv"
)

// AdminOrganizationRow is one organization of the console's list.
type AdminOrganizationRow struct {
	ID         int64
	Name       string
	APIEnabled bool
	Users      int
	Tokens     int
}

// AdminListOrganizations lists every organization with its users and live tokens, by name.
func (s *Store) AdminListOrganizations(ctx context.Context) ([]AdminOrganizationRow, error) {
	var rows []AdminOrganizationRow
	err := s.db.WithContext(ctx).Table("organizations AS o").
		Select(`o.id, o.name, o.api_enabled,
			(SELECT COUNT(*) FROM users u WHERE u.organization_id = o.id) AS users,
			(SELECT COUNT(*) FROM api_tokens t WHERE t.organization_id = o.id AND t.revoked_at IS NULL) AS tokens`).
		Order("o.name, o.id").Scan(&rows).Error
	return rows, mapDBError(err)
}

// OrganizationUsers lists an organization's users, oldest first.
func (s *Store) OrganizationUsers(ctx context.Context, orgID int64) ([]User, error) {
	var out []User
	return out, mapDBError(s.db.WithContext(ctx).Where("organization_id = ?", orgID).Order("id").Find(&out).Error)
}

// OrganizationTokens lists an organization's API tokens, newest first.
func (s *Store) OrganizationTokens(ctx context.Context, orgID int64) ([]APIToken, error) {
	var out []APIToken
	return out, mapDBError(s.db.WithContext(ctx).Where("organization_id = ?", orgID).Order("id DESC").Find(&out).Error)
}

// DisableUser disables a user of an organization: no console sign-in, no
// Markup Rooms as sender, and every console session of the user ends.
// Disabling twice keeps the first time.
func (s *Store) DisableUser(ctx context.Context, orgID, userID int64) error {
	return s.audited(ctx, ActivityDisable, func(tx *Store) (string, error) {
		res := tx.db.WithContext(ctx).Model(&User{}).Where("id = ? AND organization_id = ? AND disabled_at IS NULL", userID, orgID).
			Updates(map[string]any{"disabled_at": tx.Now(), "updated_at": tx.Now()})
		if res.Error != nil {
			return "", mapDBError(res.Error)
		}
		if res.RowsAffected == 0 {
			if _, err := tx.GetUserInOrganization(ctx, orgID, userID); err != nil {
				return "", err
			}
		}
		if _, err := tx.EndAdminSessionsOf(ctx, userID); err != nil {
			return "", err
		}
		u, err := tx.GetUserInOrganization(ctx, orgID, userID)
		if err != nil {
			return "", err
		}
		return "user " + strconv.FormatInt(userID, 10), tx.audit(ctx, AuditEntry{OrganizationID: orgID, Action: "user.disabled",
			TargetType: "user", TargetID: formatInt(userID), Summary: "Disabled user " + u.Email})
	})
}

// RevokeOrganizationToken revokes a token of an organization (another
// organization's token is ErrNotFound).
func (s *Store) RevokeOrganizationToken(ctx context.Context, orgID, tokenID int64) error {
	defer s.forgetToken(tokenID) // again after the commit: a check between RevokeAPIToken and it read the row unrevoked
	return s.audited(ctx, ActivityRevoke, func(tx *Store) (string, error) {
		var n int64
		if err := tx.db.WithContext(ctx).Model(&APIToken{}).Where("id = ? AND organization_id = ?", tokenID, orgID).Count(&n).Error; err != nil {
			return "", mapDBError(err)
		}
		if n == 0 {
			return "", ErrNotFound
		}
		return "API token " + strconv.FormatInt(tokenID, 10), tx.RevokeAPIToken(ctx, tokenID)
	})
}
