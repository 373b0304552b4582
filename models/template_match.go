package models

import (
	"context"

	"github.com/markuproom/markuproom/models/templatematch"
)

// Template matching lists at most MaxTemplateMatches templates, those
// scoring at least MinTemplateMatchScore (docs/decisions.md, "Template
// matching").
const (
	MaxTemplateMatches    = 5
	MinTemplateMatchScore = 0.6
)

// TemplateMatch is a template of the organization whose document a new
// upload resembles: the template, its current version, the document (0-based
// position in that version) and the score in 0–1.
type TemplateMatch struct {
	TemplateID string
	Name       string
	Version    int
	Document   int
	Score      float64
}

// DocumentTemplateMatches lists the organization's templates whose document
// the stored document resembles, best first; another organization's
// document is ErrNotFound.
func (s *Store) DocumentTemplateMatches(ctx context.Context, orgID int64, documentID string) ([]TemplateMatch, error) {
	fp, err := s.DocumentFingerprint(ctx, orgID, documentID)
	if err != nil {
		return nil, err
	}
	return s.FingerprintTemplateMatches(ctx, orgID, fp)
}

// FingerprintTemplateMatches lists the organization's templates whose
// document a fingerprint (an upload's, StagedUpload.Fingerprint) resembles:
// documents of the current versions of live templates scoring at least
// MinTemplateMatchScore, best first, at most MaxTemplateMatches. Never nil.
func (s *Store) FingerprintTemplateMatches(ctx context.Context, orgID int64, fp templatematch.Fingerprint) ([]TemplateMatch, error) {
	out := []TemplateMatch{}
	if !fp.HasText() {
		// Nothing says which form a document without text is (a scan).
		return out, nil
	}
	idx, err := s.templateIndex(ctx, orgID)
	if err != nil {
		return nil, err
	}
	for _, m := range idx.index.Query(fp, MaxTemplateMatches, MinTemplateMatchScore) {
		t := idx.templates[m.Key.templateID]
		out = append(out, TemplateMatch{TemplateID: m.Key.templateID, Name: t.name, Version: t.version, Document: m.Key.document, Score: m.Score})
	}
	return out, nil
}
