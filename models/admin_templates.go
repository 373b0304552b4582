package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Template states the console's templates table filters by.
const (
	TemplateActive   = "active"
	TemplateArchived = "archived"
)

// AdminTemplateFilter selects and pages the console's templates table.
type AdminTemplateFilter struct {
	OrganizationID int64
	// Status is TemplateActive, TemplateArchived or empty (both).
	Status string
	// Search matches the name, case-insensitively, anywhere.
	Search string
	// After (the next page) and Before (the previous one) are the ids at the
	// edges of the page shown; at most one is set.
	After, Before string
}

// AdminTemplateRow is one row of the console's templates table: the
// template's current version's counts, its versions and its uses.
type AdminTemplateRow struct {
	ID               string
	OrganizationID   int64
	OrganizationName string
	Name             string
	// Version is the current version's number, which is also how many
	// versions the template has (every change adds one).
	Version       int
	DocumentCount int
	PageCount     int
	TagCount      int
	RoleCount     int
	Uses          int64
	LastUsedAt    *time.Time
	ArchivedAt    *time.Time
	UpdatedAt     time.Time
}

// AdminTemplatePage is one page of the table, newest first.
type AdminTemplatePage struct {
	Rows             []AdminTemplateRow
	HasNext, HasPrev bool
	FirstID, LastID  string
	Filter           AdminTemplateFilter
}

// AdminListTemplates pages every organization's templates, archived ones
// included, newest first (keyset pagination on the time-ordered id),
// filtered by organization, state and a search of the name.
func (s *Store) AdminListTemplates(ctx context.Context, f AdminTemplateFilter) (*AdminTemplatePage, error) {
	var p Problems
	if f.Status != "" && f.Status != TemplateActive && f.Status != TemplateArchived {
		p.Add("query:status", "invalid_enum", "problem.list.template_status")
	}
	f.Search = strings.TrimSpace(f.Search)
	if len([]rune(f.Search)) > maxSearchLength {
		p.Add("query:q", "too_long", "problem.list.search_too_long", "max", 200)
	}
	if err := p.Err(KindInvalid, "problem.summary.filter_invalid"); err != nil {
		return nil, err
	}
	q := s.db.WithContext(ctx).Table("templates AS t").
		Select(`t.id, t.organization_id, o.name AS organization_name, t.name, t.version, t.document_count, t.page_count,
	t.tag_count, t.role_count, t.uses, t.last_used_at, t.archived_at, t.updated_at`).
		Joins("JOIN organizations o ON o.id = t.organization_id")
	if f.OrganizationID > 0 {
		q = q.Where("t.organization_id = ?", f.OrganizationID)
	}
	switch f.Status {
	case TemplateActive:
		q = q.Where("t.archived_at IS NULL")
	case TemplateArchived:
		q = q.Where("t.archived_at IS NOT NULL")
	}
	if f.Search != "" {
		q = q.Where(`LOWER(t.name) LIKE ? ESCAPE '\'`, "%"+escapeLike(strings.ToLower(f.Search))+"%")
	}
	k, err := pageAdminRows(q, "t.id", f.After, f.Before, func(r *AdminTemplateRow) string { return r.ID })
	if err != nil {
		return nil, err
	}
	return &AdminTemplatePage{Rows: k.Rows, HasNext: k.HasNext, HasPrev: k.HasPrev, FirstID: k.FirstID, LastID: k.LastID, Filter: f}, nil
}

// AdminTemplate is everything the console shows of one template.
type AdminTemplate struct {
	// Template holds its current version (Current) with its documents.
	Template     *Template
	Organization *Organization
	// Versions are every version, newest first, without roles, tags and documents.
	Versions []TemplateVersion
}

// AdminGetTemplate reads any organization's template, archived or not,
// with its current version and the list of its versions.
func (s *Store) AdminGetTemplate(ctx context.Context, id string) (*AdminTemplate, error) {
	db := s.db.WithContext(ctx)
	var t Template
	if err := db.Where("id = ?", id).Take(&t).Error; err != nil {
		return nil, mapDBError(err)
	}
	var err error
	if t.Current, err = s.loadTemplateVersion(ctx, id, t.Version, true); err != nil {
		return nil, err
	}
	var org Organization
	if err := db.Where("id = ?", t.OrganizationID).Take(&org).Error; err != nil {
		return nil, mapDBError(err)
	}
	var versions []TemplateVersion
	if err := db.Omit("roles", "tags").Where("template_id = ?", id).Order("version DESC").Find(&versions).Error; err != nil {
		return nil, mapDBError(err)
	}
	return &AdminTemplate{Template: &t, Organization: &org, Versions: versions}, nil
}

// AdminRestoreTemplateVersion makes a new current version of any
// organization's template equal to its version n, for the admin in ctx
// (the version's author; the activity log records the restore). An
// archived template is ErrConflict.
func (s *Store) AdminRestoreTemplateVersion(ctx context.Context, id string, n int) (*Template, error) {
	var t *Template
	err := s.audited(ctx, ActivityRestore, func(tx *Store) (string, error) {
		row, actor, err := tx.adminTemplateActor(ctx, id)
		if err != nil {
			return "", err
		}
		if t, err = tx.RestoreTemplateVersion(ctx, actor, id, n); err != nil {
			return "", err
		}
		return fmt.Sprintf("template %q (%s): version %d restored as version %d", row.Name, id, n, t.Version), nil
	})
	return t, err
}

// AdminArchiveTemplate archives any organization's template for the admin
// in ctx (the activity log records it); an archived one is ErrConflict.
func (s *Store) AdminArchiveTemplate(ctx context.Context, id string) error {
	return s.audited(ctx, ActivityArchive, func(tx *Store) (string, error) {
		row, actor, err := tx.adminTemplateActor(ctx, id)
		if err != nil {
			return "", err
		}
		if err := tx.ArchiveTemplate(ctx, actor, id); err != nil {
			return "", err
		}
		return fmt.Sprintf("template %q (%s)", row.Name, id), nil
	})
}

// errNoAdmin is a console change called without an admin in its context.
var errNoAdmin = errors.New("models: a console change needs the admin in its context (WithAdminActor)")

// adminTemplateActor reads a template of any organization and names the
// admin in ctx as the author of its change. An archived template is
// ErrConflict.
func (s *Store) adminTemplateActor(ctx context.Context, id string) (*Template, TemplateActor, error) {
	a, ok := adminActorFrom(ctx)
	if !ok {
		return nil, TemplateActor{}, errNoAdmin
	}
	var t Template
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&t).Error; err != nil {
		return nil, TemplateActor{}, mapDBError(err)
	}
	if t.ArchivedAt != nil {
		return nil, TemplateActor{}, ErrConflict
	}
	actor := TemplateActor{OrganizationID: t.OrganizationID, Kind: TemplateActorAdmin, ID: formatInt(a.UserID), Name: a.Email}
	return &t, actor, nil
}
