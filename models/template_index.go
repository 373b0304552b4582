package models

import (
	"context"
	"sync"
	"time"

	"github.com/markuproom/markuproom/models/templatematch"
)

// maxIndexedOrganizations bounds how many organizations' template indexes a
// Store keeps in memory; the one used least recently is dropped first (and
// built again from the database when next asked). Each index is bounded by
// the organization's limits: MaxTemplates templates of at most
// MaxTemplateDocuments documents.
const maxIndexedOrganizations = 64

// templateDocKey names one document of a template's current version in an
// organization's index.
type templateDocKey struct {
	templateID string
	document   int
}

// templateIndex is one organization's template documents, indexed for
// matching, as of one templates generation. It is never changed once built:
// a new generation builds a new one.
type templateIndex struct {
	generation int64
	index      *templatematch.Index[templateDocKey]
	// templates holds the name and current version of each indexed template.
	templates map[string]templateName
}

type templateName struct {
	name    string
	version int
}

// orgTemplateIndex holds an organization's current index; mu serializes its
// rebuilds (one query at a time builds it, the others wait for it).
type orgTemplateIndex struct {
	mu       sync.Mutex
	current  *templateIndex
	lastUsed time.Time
}

// templateIndexes keeps the Store's per-organization template indexes
// (docs/decisions.md, "Template matching": the index is checked against the
// organization's templates generation on every match).
type templateIndexes struct {
	mu   sync.Mutex
	orgs map[int64]*orgTemplateIndex
	max  int
}

func newTemplateIndexes(max int) *templateIndexes {
	return &templateIndexes{orgs: make(map[int64]*orgTemplateIndex), max: max}
}

// entry returns the organization's slot, making room for it by dropping the
// slot used least recently when the Store holds its most.
func (x *templateIndexes) entry(orgID int64, now time.Time) *orgTemplateIndex {
	x.mu.Lock()
	defer x.mu.Unlock()
	e := x.orgs[orgID]
	if e == nil {
		if len(x.orgs) >= x.max {
			var oldest int64
			var at time.Time
			first := true
			for id, o := range x.orgs {
				if first || o.lastUsed.Before(at) {
					oldest, at, first = id, o.lastUsed, false
				}
			}
			delete(x.orgs, oldest)
		}
		e = &orgTemplateIndex{}
		x.orgs[orgID] = e
	}
	e.lastUsed = now
	return e
}

// templateIndex returns the organization's index as of its current
// templates generation: the one in memory when its generation is the
// database's (one read of the organization's row), else one built from the
// fingerprints of the current versions of its live templates.
func (s *Store) templateIndex(ctx context.Context, orgID int64) (*templateIndex, error) {
	gen, err := s.templateGeneration(ctx, orgID)
	if err != nil {
		return nil, err
	}
	e := s.templateIndexes.entry(orgID, time.Now())
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.current != nil && e.current.generation == gen {
		return e.current, nil
	}
	// Read after the generation: a change committed in between is in the
	// rows but not in gen, so the next match builds the index again.
	idx, err := s.buildTemplateIndex(ctx, orgID, gen)
	if err != nil {
		return nil, err
	}
	e.current = idx
	return idx, nil
}

// templateGeneration reads the organization's templates generation.
func (s *Store) templateGeneration(ctx context.Context, orgID int64) (int64, error) {
	var gens []int64
	err := s.db.WithContext(ctx).Raw("SELECT template_generation FROM organizations WHERE id = ?", orgID).Scan(&gens).Error
	if err != nil {
		return 0, mapDBError(err)
	}
	if len(gens) == 0 {
		return 0, ErrNotFound
	}
	return gens[0], nil
}

// addTemplateGeneration adds to b the count up of the organization's
// templates generation. Every write that changes which template documents
// an organization's current, live templates hold (a template created, a
// version added, a template archived) adds it in its own database
// transaction, so that every Store's index of the organization is rebuilt.
func addTemplateGeneration(b *writeBatch, orgID int64) {
	b.add("UPDATE organizations SET template_generation = template_generation + 1 WHERE id = ?", orgID)
}

// buildTemplateIndex reads the fingerprints of the documents of the current
// versions of the organization's live templates, in one query, and indexes
// them in the order the templates were created.
func (s *Store) buildTemplateIndex(ctx context.Context, orgID, gen int64) (*templateIndex, error) {
	rows, err := s.db.WithContext(ctx).Raw(`SELECT t.id, t.name, t.version, d.position, d.fingerprint
	FROM templates t JOIN template_documents d ON d.template_id = t.id AND d.version = t.version
	WHERE t.organization_id = ? AND t.archived_at IS NULL AND d.fingerprint IS NOT NULL
	ORDER BY t.id, d.position`, orgID).Rows()
	if err != nil {
		return nil, mapDBError(err)
	}
	defer rows.Close()
	idx := &templateIndex{generation: gen, index: &templatematch.Index[templateDocKey]{}, templates: make(map[string]templateName)}
	for rows.Next() {
		var (
			key  templateDocKey
			name templateName
			data []byte
		)
		if err := rows.Scan(&key.templateID, &name.name, &name.version, &key.document, &data); err != nil {
			return nil, mapDBError(err)
		}
		var fp templatematch.Fingerprint
		if err := fp.UnmarshalBinary(data); err != nil {
			// A fingerprint this build cannot read matches nothing; the
			// others are still offered.
			s.log.WarnContext(ctx, "unreadable template fingerprint", "template", key.templateID, "document", key.document, "error", err)
			continue
		}
		idx.templates[key.templateID] = name
		idx.index.Add(key, fp)
	}
	if err := rows.Err(); err != nil {
		return nil, mapDBError(err)
	}
	return idx, nil
}
