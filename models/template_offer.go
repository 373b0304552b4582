package models

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
)

// CarriesTemplate tells whether the document already has tags of the
// template: a tag whose customData names it under "template", as an applied
// template's tags do (templateOrigin). The room offers no template a
// document already carries (docs/decisions.md, "Template offers in the room").
func (d *TransactionDocument) CarriesTemplate(templateID string) bool {
	if templateID == "" {
		return false
	}
	for i := range d.Tags {
		cd := d.Tags[i].CustomData
		if !bytes.Contains(cd, []byte(templateID)) {
			continue
		}
		var origin struct {
			Template string `json:"template"`
		}
		if json.Unmarshal(cd, &origin) == nil && origin.Template == templateID {
			return true
		}
	}
	return false
}

// tagTolerance is how far (in points) a tag may lie from a template's tag
// and still be that tag (a save and a re-read round coordinates).
const tagTolerance = 0.5

// HasTemplateTags tells whether the document already has every tag the
// template places on its document at position doc: one of the same type on
// the same page with the same rectangle (within tagTolerance), whoever signs
// it. A room just saved as a template has them all, without carrying the
// template (its tags were drawn by hand): applying it would add nothing but
// copies (issue 40). A template document with no tags is had too.
func (d *TransactionDocument) HasTemplateTags(tags []TemplateTag, doc int) bool {
	near := func(a, b float64) bool { return math.Abs(a-b) <= tagTolerance }
	for _, want := range tags {
		if want.Document != doc {
			continue
		}
		found := false
		for i := range d.Tags {
			got := &d.Tags[i]
			if got.Type == want.Type && got.Page == want.Page && near(got.X, want.X) && near(got.Y, want.Y) &&
				near(got.Width, want.Width) && near(got.Height, want.Height) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// RoomTemplateOffers gives each document of docs the best template of the
// organization it resembles and does not carry yet (CarriesTemplate) nor
// already has every tag of (HasTemplateTags), by document id; a document
// with no such template is absent. One query reads
// every document's fingerprint and the organization's template index is
// looked up once, whatever the number of documents.
func (s *Store) RoomTemplateOffers(ctx context.Context, orgID int64, docs []TransactionDocument) (map[string]TemplateMatch, error) {
	offers := map[string]TemplateMatch{}
	if len(docs) == 0 {
		return offers, nil
	}
	ids := make([]string, len(docs))
	for i := range docs {
		ids[i] = docs[i].DocumentID
	}
	var rows []Document
	if err := s.db.WithContext(ctx).Where("organization_id = ? AND id IN ?", orgID, ids).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	byID := make(map[string]*Document, len(rows))
	for i := range rows {
		byID[rows[i].ID] = &rows[i]
	}
	var idx *templateIndex
	tagsOf := map[string][]TemplateTag{} // each candidate template's tags, read once
	for i := range docs {
		d := byID[docs[i].DocumentID]
		if d == nil {
			continue
		}
		fp, err := s.documentFingerprint(ctx, d)
		if err != nil {
			return nil, err
		}
		if !fp.HasText() {
			continue // nothing says which form a scan is
		}
		if idx == nil {
			if idx, err = s.templateIndex(ctx, orgID); err != nil {
				return nil, err
			}
		}
		for _, m := range idx.index.Query(fp, MaxTemplateMatches, MinTemplateMatchScore) {
			if docs[i].CarriesTemplate(m.Key.templateID) {
				continue
			}
			t := idx.templates[m.Key.templateID]
			tags, ok := tagsOf[m.Key.templateID]
			if !ok {
				v, err := s.loadTemplateVersion(ctx, m.Key.templateID, t.version, false)
				if err != nil {
					return nil, err
				}
				tags = v.Tags
				tagsOf[m.Key.templateID] = tags
			}
			if docs[i].HasTemplateTags(tags, m.Key.document) {
				continue
			}
			offers[d.ID] = TemplateMatch{TemplateID: m.Key.templateID, Name: t.name, Version: t.version, Document: m.Key.document, Score: m.Score}
			break
		}
	}
	return offers, nil
}
