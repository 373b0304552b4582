package models

import (
	"bytes"
	"context"
	"encoding/json"
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

// RoomTemplateOffers gives each document of docs the best template of the
// organization it resembles and does not carry yet (CarriesTemplate), by
// document id; a document with no such template is absent. One query reads
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
			offers[d.ID] = TemplateMatch{TemplateID: m.Key.templateID, Name: t.name, Version: t.version, Document: m.Key.document, Score: m.Score}
			break
		}
	}
	return offers, nil
}
