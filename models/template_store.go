package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// CreateTemplate stores a new template (its version 1) from a checked body,
// as one database transaction. An organization keeping its most templates
// (StoreOptions.MaxTemplates) is refused with a 422.
func (s *Store) CreateTemplate(ctx context.Context, actor TemplateActor, in *TemplateInput) (*Template, error) {
	c, err := s.prepareTemplate(ctx, actor.OrganizationID, in)
	if err != nil {
		return nil, err
	}
	uid, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	now := s.Now()
	t := &Template{ID: uid.String(), OrganizationID: actor.OrganizationID, CreatedAt: now, UpdatedAt: now}
	applyVersion(t, newTemplateVersion(t.ID, 1, actor, c, now))
	err = s.inTx(ctx, func(tx *Store) error {
		if err := tx.lockOrganization(ctx, actor.OrganizationID); err != nil {
			return err
		}
		var n int64
		err := tx.db.WithContext(ctx).Model(&Template{}).Where("organization_id = ? AND archived_at IS NULL", actor.OrganizationID).Count(&n).Error
		if err != nil {
			return mapDBError(err)
		}
		if n >= int64(tx.maxTemplates) {
			return Unprocessable("#", "too_many_templates", "problem.template.too_many", "max", n)
		}
		var b writeBatch
		addRows(&b, 1, "templates", templateColumns(), []Template{*t}, templateValues)
		tx.addTemplateVersion(&b, t.Current)
		addTemplateGeneration(&b, actor.OrganizationID)
		if err := tx.execBatch(ctx, &b); err != nil {
			return err
		}
		return tx.audit(ctx, AuditEntry{OrganizationID: actor.OrganizationID, Action: "template.created", TargetType: "template",
			TargetID: t.ID, Summary: "Created template " + t.Name + " (" + templateCounts(t) + ")"})
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// templateCounts is "2 documents, 3 roles, 10 tags".
func templateCounts(t *Template) string {
	return count(t.DocumentCount, "document") + ", " + count(t.RoleCount, "role") + ", " + count(t.TagCount, "tag")
}

// ReplaceTemplate makes a checked body the template's new current version
// (version + 1), as one database transaction. ifMatch, when not empty, must
// match the current ETag (else ErrPreconditionFailed).
func (s *Store) ReplaceTemplate(ctx context.Context, actor TemplateActor, id string, in *TemplateInput, ifMatch string) (*Template, error) {
	c, err := s.prepareTemplate(ctx, actor.OrganizationID, in)
	if err != nil {
		// An unknown id answers 404 rather than the body's problems.
		if _, rowErr := s.getTemplateRow(ctx, s.db, actor.OrganizationID, id); errors.Is(rowErr, ErrNotFound) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return s.addVersion(ctx, actor, id, ifMatch, func(*Store, *Template) (*templateContent, *int, error) { return c, nil, nil })
}

// RestoreTemplateVersion makes a new current version equal to version n of
// the template (its name, description, documents with their fingerprints,
// roles and tags). Version n is read before the database transaction: a
// version never changes once written.
func (s *Store) RestoreTemplateVersion(ctx context.Context, actor TemplateActor, id string, n int) (*Template, error) {
	v, err := s.GetTemplateVersion(ctx, actor.OrganizationID, id, n)
	if err != nil {
		return nil, err
	}
	if err := s.loadTemplateFingerprints(ctx, actor.OrganizationID, v); err != nil {
		return nil, err
	}
	c := &templateContent{name: v.Name, description: v.Description, documents: v.Documents, roles: v.Roles, tags: v.Tags}
	return s.addVersion(ctx, actor, id, "", func(*Store, *Template) (*templateContent, *int, error) { return c, &n, nil })
}

// loadTemplateFingerprints reads the fingerprints of v's documents (those of
// a version written without one are taken from its uploads).
func (s *Store) loadTemplateFingerprints(ctx context.Context, orgID int64, v *TemplateVersion) error {
	var rows []TemplateDocument
	err := s.db.WithContext(ctx).Select("position", "fingerprint").Where("template_id = ? AND version = ?", v.TemplateID, v.Version).
		Find(&rows).Error
	if err != nil {
		return mapDBError(err)
	}
	for _, r := range rows {
		if r.Position >= 0 && r.Position < len(v.Documents) {
			v.Documents[r.Position].Fingerprint = r.Fingerprint
		}
	}
	for i := range v.Documents {
		d := &v.Documents[i]
		if d.Fingerprint != nil {
			continue
		}
		doc, err := s.GetDocument(ctx, orgID, d.DocumentID)
		if err != nil {
			return err
		}
		if d.Fingerprint, err = s.storedFingerprint(ctx, doc); err != nil {
			return err
		}
	}
	return nil
}

// addVersion locks a live template, asks content for the new version's
// content and writes it as the template's current version.
func (s *Store) addVersion(ctx context.Context, actor TemplateActor, id, ifMatch string,
	content func(tx *Store, old *Template) (*templateContent, *int, error)) (*Template, error) {
	var t *Template
	err := s.inTx(ctx, func(tx *Store) error {
		old, err := tx.lockTemplate(ctx, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		if ifMatch != "" && !etagMatches(ifMatch, old.ETag()) {
			return ErrPreconditionFailed
		}
		c, restoredFrom, err := content(tx, old)
		if err != nil {
			return err
		}
		now := s.Now()
		v := newTemplateVersion(id, old.Version+1, actor, c, now)
		v.RestoredFrom = restoredFrom
		t = old
		applyVersion(t, v)
		t.UpdatedAt = now
		var b writeBatch
		tx.addTemplateVersion(&b, v)
		b.add(`UPDATE templates SET name = ?, description = ?, version = ?, document_count = ?, page_count = ?, tag_count = ?,
	role_count = ?, updated_at = ? WHERE id = ?`,
			t.Name, t.Description, t.Version, t.DocumentCount, t.PageCount, t.TagCount, t.RoleCount, t.UpdatedAt, t.ID)
		addTemplateGeneration(&b, actor.OrganizationID)
		if err := tx.execBatch(ctx, &b); err != nil {
			return err
		}
		e := AuditEntry{OrganizationID: actor.OrganizationID, Action: "template.replaced", TargetType: "template", TargetID: id,
			Summary: fmt.Sprintf("Saved version %d of template %s (%s)", t.Version, t.Name, templateCounts(t))}
		if restoredFrom != nil {
			e.Action = "template.version_restored"
			e.Summary = fmt.Sprintf("Restored version %d of template %s as version %d", *restoredFrom, t.Name, t.Version)
		}
		return tx.audit(ctx, e)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ArchiveTemplate archives a template: it leaves lists and reads, and its
// versions are kept.
func (s *Store) ArchiveTemplate(ctx context.Context, actor TemplateActor, id string) error {
	now := s.Now()
	return s.inTx(ctx, func(tx *Store) error {
		res := tx.db.WithContext(ctx).Model(&Template{}).
			Where("id = ? AND organization_id = ? AND archived_at IS NULL", id, actor.OrganizationID).
			Updates(map[string]any{"archived_at": now, "updated_at": now})
		if res.Error != nil {
			return mapDBError(res.Error)
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		var b writeBatch
		addTemplateGeneration(&b, actor.OrganizationID)
		if err := tx.execBatch(ctx, &b); err != nil {
			return err
		}
		var names []string
		if err := tx.db.WithContext(ctx).Model(&Template{}).Where("id = ?", id).Pluck("name", &names).Error; err != nil {
			return mapDBError(err)
		}
		return tx.audit(ctx, AuditEntry{OrganizationID: actor.OrganizationID, Action: "template.archived", TargetType: "template",
			TargetID: id, Summary: "Archived template " + strings.Join(names, "")})
	})
}

// GetTemplate reads a live template of one organization with its current
// version; another organization's, or an archived one, is ErrNotFound.
func (s *Store) GetTemplate(ctx context.Context, orgID int64, id string) (*Template, error) {
	t, err := s.getTemplateRow(ctx, s.db, orgID, id)
	if err != nil {
		return nil, err
	}
	if t.Current, err = s.loadTemplateVersion(ctx, id, t.Version, true); err != nil {
		return nil, err
	}
	return t, nil
}

// GetTemplateVersion reads version n of a live template of one organization.
func (s *Store) GetTemplateVersion(ctx context.Context, orgID int64, id string, n int) (*TemplateVersion, error) {
	if _, err := s.getTemplateRow(ctx, s.db, orgID, id); err != nil {
		return nil, err
	}
	return s.loadTemplateVersion(ctx, id, n, true)
}

// ListTemplateVersions lists the versions of a live template of one
// organization, newest first, without their roles, tags and documents.
func (s *Store) ListTemplateVersions(ctx context.Context, orgID int64, id string) ([]TemplateVersion, error) {
	if _, err := s.getTemplateRow(ctx, s.db, orgID, id); err != nil {
		return nil, err
	}
	var out []TemplateVersion
	err := s.db.WithContext(ctx).Omit("roles", "tags").Where("template_id = ?", id).Order("version DESC").Find(&out).Error
	return out, mapDBError(err)
}

// TemplateFilter selects and pages a template list.
type TemplateFilter struct {
	// Query keeps the templates whose name contains it (any case).
	Query string
	// Limit is the page size (DefaultListLimit when 0).
	Limit int
	// Cursor is the opaque NextCursor of the previous page.
	Cursor string
}

// TemplatePage is one page of a template list, newest first.
type TemplatePage struct {
	Items      []Template
	NextCursor string
}

// ListTemplates lists an organization's live templates, newest first, by
// cursor (ids are time-ordered UUIDv7, so the cursor is the last id seen).
func (s *Store) ListTemplates(ctx context.Context, orgID int64, f TemplateFilter) (*TemplatePage, error) {
	var p Problems
	limit, after := pageArgs(&p, f.Limit, f.Cursor)
	if len([]rune(f.Query)) > MaxTitleLength {
		p.Add("query:q", "too_long", "problem.list.q_too_long", "max", MaxTitleLength)
	}
	if err := p.Err(KindInvalid, "problem.summary.list_invalid"); err != nil {
		return nil, err
	}
	q := s.db.WithContext(ctx).Where("organization_id = ? AND archived_at IS NULL", orgID)
	if f.Query != "" {
		q = q.Where(`LOWER(name) LIKE ? ESCAPE '\'`, "%"+escapeLike(strings.ToLower(f.Query))+"%")
	}
	if after != "" {
		q = q.Where("id < ?", after)
	}
	var rows []Template
	if err := q.Order("id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	page := &TemplatePage{Items: rows}
	if len(rows) > limit {
		page.Items = rows[:limit]
		page.NextCursor = encodeCursor(rows[limit-1].ID)
	}
	return page, nil
}

// newTemplateVersion is the version n of template id holding c.
func newTemplateVersion(id string, n int, actor TemplateActor, c *templateContent, now time.Time) *TemplateVersion {
	v := &TemplateVersion{
		TemplateID: id, Version: n, Name: c.name, Description: c.description,
		ActorKind: actor.Kind, ActorID: actor.ID, ActorLabel: actor.Label(), ActorName: actor.Name,
		Roles: c.roles, Tags: c.tags, TagCount: len(c.tags), CreatedAt: now,
		Documents: make([]TemplateDocument, len(c.documents)),
	}
	if v.Roles == nil {
		v.Roles = TemplateRoles{}
	}
	if v.Tags == nil {
		v.Tags = TemplateTagList{}
	}
	for i, d := range c.documents {
		d.TemplateID, d.Version, d.Position = id, n, i
		v.Documents[i] = d
	}
	return v
}

// applyVersion makes v the current version of t.
func applyVersion(t *Template, v *TemplateVersion) {
	t.Name, t.Description, t.Version = v.Name, v.Description, v.Version
	t.DocumentCount, t.PageCount, t.TagCount, t.RoleCount = len(v.Documents), v.PageCount(), v.TagCount, len(v.Roles)
	t.Current = v
}

// addTemplateVersion adds the INSERTs of a version and its documents to b.
func (s *Store) addTemplateVersion(b *writeBatch, v *TemplateVersion) {
	addRows(b, 1, "template_versions", templateVersionColumns(), []TemplateVersion{*v}, templateVersionValues)
	addRows(b, s.batchRows(), "template_documents", templateDocumentColumns(), v.Documents, templateDocumentValues)
}

// lockOrganization holds the organization's row until the database
// transaction ends, so that concurrent creations count templates in turn
// (FOR NO KEY UPDATE: rows that refer to the organization may still be
// written; SQLite's IMMEDIATE transactions already serialize writers).
func (s *Store) lockOrganization(ctx context.Context, orgID int64) error {
	if s.dialect != DialectPostgres {
		return nil
	}
	var ids []int64
	err := s.db.WithContext(ctx).Raw("SELECT id FROM organizations WHERE id = ? FOR NO KEY UPDATE", orgID).Scan(&ids).Error
	if err != nil {
		return mapDBError(err)
	}
	if len(ids) == 0 {
		return ErrNotFound
	}
	return nil
}

// lockTemplate reads a live template row and holds it until the database
// transaction ends.
func (s *Store) lockTemplate(ctx context.Context, orgID int64, id string) (*Template, error) {
	q := s.db
	if s.dialect == DialectPostgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	return s.getTemplateRow(ctx, q, orgID, id)
}

func (s *Store) getTemplateRow(ctx context.Context, q *gorm.DB, orgID int64, id string) (*Template, error) {
	var t Template
	err := q.WithContext(ctx).Where("id = ? AND organization_id = ? AND archived_at IS NULL", id, orgID).Take(&t).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	return &t, nil
}

// loadTemplateVersion reads version n of template id, with its documents
// when withDocuments (their fingerprints left out).
func (s *Store) loadTemplateVersion(ctx context.Context, id string, n int, withDocuments bool) (*TemplateVersion, error) {
	db := s.db.WithContext(ctx)
	var v TemplateVersion
	if err := db.Where("template_id = ? AND version = ?", id, n).Take(&v).Error; err != nil {
		return nil, mapDBError(err)
	}
	if withDocuments {
		err := db.Omit("fingerprint").Where("template_id = ? AND version = ?", id, n).Order("position").Find(&v.Documents).Error
		if err != nil {
			return nil, mapDBError(err)
		}
	}
	return &v, nil
}

func templateColumns() []string {
	return []string{"id", "organization_id", "name", "description", "version", "document_count", "page_count", "tag_count",
		"role_count", "uses", "last_used_at", "archived_at", "created_at", "updated_at"}
}

func templateValues(t *Template) []any {
	return []any{t.ID, t.OrganizationID, t.Name, t.Description, t.Version, t.DocumentCount, t.PageCount, t.TagCount,
		t.RoleCount, t.Uses, t.LastUsedAt, t.ArchivedAt, t.CreatedAt, t.UpdatedAt}
}

func templateVersionColumns() []string {
	return []string{"template_id", "version", "name", "description", "actor_kind", "actor_id", "actor_label", "actor_name",
		"restored_from", "roles", "tags", "tag_count", "created_at"}
}

func templateVersionValues(v *TemplateVersion) []any {
	return []any{v.TemplateID, v.Version, v.Name, v.Description, v.ActorKind, v.ActorID, v.ActorLabel, v.ActorName,
		v.RestoredFrom, v.Roles, v.Tags, v.TagCount, v.CreatedAt}
}

func templateDocumentColumns() []string {
	return []string{"template_id", "version", "position", "document_id", "title", "pages", "page_boxes", "fingerprint"}
}

func templateDocumentValues(d *TemplateDocument) []any {
	return []any{d.TemplateID, d.Version, d.Position, d.DocumentID, d.Title, d.Pages, d.PageBoxes, d.Fingerprint}
}
