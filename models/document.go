package models

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
)

// MaxTitleLength bounds document titles.
const MaxTitleLength = 255

// Document is an uploaded PDF owned by an organization.
type Document struct {
	ID             string `gorm:"column:id;primaryKey"`
	OrganizationID int64  `gorm:"column:organization_id"`
	// ObjectKey is the key of the file in the bucket, reported to callers as gcsRefId.
	ObjectKey         string    `gorm:"column:object_key"`
	Title             string    `gorm:"column:title"`
	FileName          string    `gorm:"column:file_name"`
	SizeBytes         int64     `gorm:"column:size_bytes"`
	SHA256            string    `gorm:"column:sha256"`
	PageCount         int       `gorm:"column:page_count"`
	Pages             PageList  `gorm:"column:pages"`
	UploadedByTokenID *int64    `gorm:"column:uploaded_by_token_id"`
	CreatedAt         time.Time `gorm:"column:created_at;autoCreateTime:false"`
	// Detection is the JSON of what the content proposes as tags
	// (detect.Detection), written with the row; nil for a document uploaded
	// before detection existed, until ensureDetection computes it once.
	Detection *string `gorm:"column:detection;<-:create"`
	// Fingerprint is the content's template fingerprint
	// (templatematch.Fingerprint.MarshalBinary), written with the row; nil
	// for a document stored before fingerprints were kept, until
	// Store.DocumentFingerprint computes it once.
	Fingerprint []byte `gorm:"column:fingerprint;<-:create"`
}

// TableName implements gorm's tabler.
func (Document) TableName() string { return "documents" }

// LocationPath is the path of the document's content, the "location" a
// Markup Room request lists; prefix it with the public base URL.
func (d *Document) LocationPath() string {
	return "/api/v1/documents/" + d.ID + "/content"
}

// DocumentIDFromLocation extracts the document id from a location URL or path
// ending in /documents/{id}/content; other strings are returned unchanged, so
// an id or a gcsRefId passes through.
func DocumentIDFromLocation(ref string) string {
	ref = strings.TrimSpace(ref)
	if i := strings.IndexAny(ref, "?#"); i >= 0 && strings.Contains(ref, "/documents/") {
		ref = ref[:i]
	}
	rest, ok := strings.CutSuffix(ref, "/content")
	if !ok {
		return ref
	}
	i := strings.LastIndex(rest, "/documents/")
	if i < 0 {
		return ref
	}
	id := rest[i+len("/documents/"):]
	if id == "" || strings.Contains(id, "/") {
		return ref
	}
	return id
}

// PageList is the geometry of every page, stored as JSON text.
type PageList []pdf.Page

// Value implements driver.Valuer.
func (p PageList) Value() (driver.Value, error) {
	if p == nil {
		p = PageList{}
	}
	return jsonColumn([]pdf.Page(p))
}

// Scan implements sql.Scanner.
func (p *PageList) Scan(src any) error { return scanJSONColumn(src, (*[]pdf.Page)(p), "PageList") }

// GetDocument reads a document of one organization; another organization's document is ErrNotFound.
func (s *Store) GetDocument(ctx context.Context, orgID int64, id string) (*Document, error) {
	var d Document
	err := s.db.WithContext(ctx).Where("id = ? AND organization_id = ?", id, orgID).First(&d).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	return &d, nil
}

// FindDocumentsByRef resolves references (document ids, gcsRefIds or
// locations) to documents of one organization with two queries at most;
// references that name nothing of this organization are absent from the map.
func (s *Store) FindDocumentsByRef(ctx context.Context, orgID int64, refs []string) (map[string]*Document, error) {
	out := make(map[string]*Document, len(refs))
	if len(refs) == 0 {
		return out, nil
	}
	keys := DocumentLookupKeys(refs)
	if s.dialect == DialectPostgres {
		docs, err := s.queryDocuments(ctx, orgID, keys)
		if err != nil {
			return nil, err
		}
		return MatchDocumentRefs(refs, docs), nil
	}
	var docs []Document
	err := s.db.WithContext(ctx).Where("organization_id = ? AND (id IN ? OR object_key IN ?)", orgID, keys, keys).Find(&docs).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	return MatchDocumentRefs(refs, docs), nil
}

// documentsByKeySQL reads an organization's documents whose id or object
// key is one of $2, every column a Document holds.
const documentsByKeySQL = `SELECT id, organization_id, object_key, title, file_name, size_bytes, sha256, page_count, pages,
	uploaded_by_token_id, created_at, detection, fingerprint
	FROM documents WHERE organization_id = $1 AND (id = ANY($2) OR object_key = ANY($2))`

// queryDocuments is FindDocumentsByRef's read on PostgreSQL, straight from
// the connection: every create and replace makes it, and GORM's reflection
// was a tenth of a replace's CPU.
func (s *Store) queryDocuments(ctx context.Context, orgID int64, keys []string) ([]Document, error) {
	rows, err := s.db.Statement.ConnPool.QueryContext(ctx, documentsByKeySQL, orgID, keys)
	if err != nil {
		return nil, mapDBError(err)
	}
	defer rows.Close()
	var docs []Document
	for rows.Next() {
		var d Document
		if err := rows.Scan(&d.ID, &d.OrganizationID, &d.ObjectKey, &d.Title, &d.FileName, &d.SizeBytes, &d.SHA256, &d.PageCount,
			&d.Pages, &d.UploadedByTokenID, &d.CreatedAt, &d.Detection, &d.Fingerprint); err != nil {
			return nil, mapDBError(err)
		}
		docs = append(docs, d)
	}
	return docs, mapDBError(rows.Err())
}

// DocumentLookupKeys returns, for each reference a request names (a location,
// an id or a gcsRefId), the key its document is found by: an id or an object key.
func DocumentLookupKeys(refs []string) []string {
	keys := make([]string, len(refs))
	for i, r := range refs {
		keys[i] = DocumentIDFromLocation(r)
	}
	return keys
}

// MatchDocumentRefs maps each reference to the document among docs whose id or
// object key it names; a reference that names none is left out.
func MatchDocumentRefs(refs []string, docs []Document) map[string]*Document {
	byKey := make(map[string]*Document, 2*len(docs))
	for i := range docs {
		byKey[docs[i].ID] = &docs[i]
		byKey[docs[i].ObjectKey] = &docs[i]
	}
	out := make(map[string]*Document, len(refs))
	for _, r := range refs {
		if d, ok := byKey[DocumentIDFromLocation(r)]; ok {
			out[r] = d
		}
	}
	return out
}

// OpenDocumentContent opens the stored PDF of a document for reading; the caller closes it.
func (s *Store) OpenDocumentContent(ctx context.Context, d *Document) (DocumentContent, error) {
	r, err := s.bucket.NewReader(ctx, d.ObjectKey, nil)
	if err != nil {
		return nil, fmt.Errorf("open document %s: %w", d.ID, err)
	}
	return r, nil
}

// DocumentContent is a seekable reader over a stored PDF.
type DocumentContent interface {
	Read(p []byte) (int, error)
	Seek(offset int64, whence int) (int64, error)
	Close() error
}
