package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// DeletedTag is a tag as a page deletion's history event keeps it, whole,
// so that undoing the deletion brings it back as it was (same id).
type DeletedTag struct {
	TagID       string          `json:"tagId"`
	Position    int             `json:"position"`
	Type        string          `json:"type"`
	Page        int             `json:"page"`
	X           float64         `json:"x"`
	Y           float64         `json:"y"`
	Width       float64         `json:"width"`
	Height      float64         `json:"height"`
	SignerID    string          `json:"signerId"`
	CustomData  json.RawMessage `json:"customData,omitempty"`
	Required    *bool           `json:"required,omitempty"`
	StateFormat *string         `json:"stateFormat,omitempty"`
	DateFormat  *string         `json:"dateFormat,omitempty"`
	FontSize    *float64        `json:"fontSize,omitempty"`
}

func deletedTagOf(t Tag) DeletedTag {
	return DeletedTag{
		TagID: t.TagID, Position: t.Position, Type: t.Type, Page: t.Page, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height,
		SignerID: t.SignerID, CustomData: json.RawMessage(t.CustomData), Required: t.Required, StateFormat: t.StateFormat,
		DateFormat: t.DateFormat, FontSize: t.FontSize,
	}
}

// RestoreRoomDocument undoes the page edit that turned document version
// into the document now at docPos of a room's transaction
// (documents.advancedEdit): the document points at version again and the
// tags go back — a moved page's tags to their old page, a deleted page's
// tags (kept whole in the deletion's history event) back with their ids. current
// is the document id the caller believes is at docPos: when the document
// changed since (another id), or version was not turned into it by one page
// edit, the undo is refused (422, "document_changed") and nothing changes. A
// version that this room's transaction never held is ErrNotFound. All in one
// database transaction; the history records a page_restored event.
func (s *Store) RestoreRoomDocument(ctx context.Context, roomID string, docPos int, version, current string) (*PageEdit, error) {
	var result *PageEdit
	err := s.inTx(ctx, func(tx *Store) error {
		room, t, err := tx.lockRoom(ctx, roomID, ActionAdvancedEdit)
		if err != nil {
			return err
		}
		ed := &tagEditor{tx: tx, room: room, t: t}
		doc, err := ed.document(ctx, docPos)
		if err != nil {
			return err
		}
		db := tx.db.WithContext(ctx)
		var held int64
		if err := db.Model(&pastDocument{}).Where("transaction_id = ? AND document_id = ?", t.ID, version).Count(&held).Error; err != nil {
			return mapDBError(err)
		}
		if held == 0 {
			return ErrNotFound
		}
		if current != doc.upload.ID {
			return errDocumentChanged(doc.row.Title)
		}
		undone, err := tx.pageEditBetween(ctx, t.ID, version, current)
		if err != nil {
			return err
		}
		if undone == nil {
			return errDocumentChanged(doc.row.Title)
		}
		uploads, err := tx.FindDocumentsByRef(ctx, t.OrganizationID, []string{version})
		if err != nil {
			return err
		}
		back := uploads[version]
		if back == nil {
			return ErrNotFound
		}
		e := &pageEdit{tx: tx, t: t, docPos: docPos}
		result = &PageEdit{Kind: EventPageRestored, Position: docPos, FromDocumentID: current, ToDocumentID: version}
		summary := &PageRestoredSummary{
			Document: docPos, DocumentTitle: doc.row.Title, Pages: back.PageCount, Undoes: undone.Kind(),
			FromDocumentID: current, ToDocumentID: version,
		}
		switch sum := undone.(type) {
		case PageMovedSummary:
			if err := e.moveTags(ctx, sum.To, sum.From); err != nil {
				return err
			}
			result.From, result.To = sum.To, sum.From
			summary.From, summary.To = &sum.To, &sum.From
		case PageDeletedSummary:
			if err := tx.restoreTags(ctx, e, &sum); err != nil {
				return err
			}
			restored := len(sum.Tags)
			result.Page = sum.Page
			summary.Page, summary.TagsRestored = &sum.Page, &restored
		}
		if err := tx.rememberPastDocument(ctx, t.ID, current); err != nil {
			return err
		}
		err = db.Model(&TransactionDocument{}).Where("transaction_id = ? AND position = ?", t.ID, docPos).
			Updates(map[string]any{"document_id": back.ID, "gcs_ref_id": back.ObjectKey, "pages": back.PageCount}).Error
		if err != nil {
			return mapDBError(err)
		}
		if err := db.Where("transaction_id = ?", t.ID).Order("position").Find(&ed.participants).Error; err != nil {
			return mapDBError(err)
		}
		return ed.finish(ctx, docPos, e.tagDelta, summary)
	})
	if err != nil {
		return nil, err
	}
	return result, nil
}

// pageEditBetween finds the page edit (a PageDeletedSummary or a
// PageMovedSummary) that turned document from into document to in a
// transaction's history; nil when there is none.
func (s *Store) pageEditBetween(ctx context.Context, txID, from, to string) (HistorySummary, error) {
	var events []TransactionEvent
	err := s.db.WithContext(ctx).Where("transaction_id = ? AND kind IN ?", txID, []string{EventPageDeleted, EventPageMoved}).
		Order("created_at DESC").Order("id DESC").Find(&events).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	for i := range events {
		sum, err := events[i].Decode()
		if err != nil {
			return nil, err
		}
		switch sum := sum.(type) {
		case PageMovedSummary:
			if sum.FromDocumentID == from && sum.ToDocumentID == to {
				return sum, nil
			}
		case PageDeletedSummary:
			if sum.FromDocumentID == from && sum.ToDocumentID == to {
				return sum, nil
			}
		}
	}
	return nil, nil
}

// restoreTags undoes a page deletion's tags: the tags of the pages from the
// deleted one on move down one page, and the deleted tags come back with
// their ids (at their old position in the document when it is free, else
// after the last; a signer removed since leaves the tag unassigned).
func (s *Store) restoreTags(ctx context.Context, e *pageEdit, sum *PageDeletedSummary) error {
	if _, err := e.exec(ctx, "UPDATE transaction_tags SET page = page + 1 WHERE transaction_id = ? AND document_position = ? AND page >= ?", sum.Page); err != nil {
		return err
	}
	if len(sum.Tags) == 0 {
		return nil
	}
	db := s.db.WithContext(ctx)
	var existing []Tag
	if err := db.Select("position", "tag_id").Where("transaction_id = ? AND document_position = ?", e.t.ID, e.docPos).Find(&existing).Error; err != nil {
		return mapDBError(err)
	}
	if len(existing)+len(sum.Tags) > MaxTagsPerDocument {
		return Unprocessable("#", "too_many_tags", fmt.Sprintf(
			"Undoing this would bring back %d tags, and a document holds at most %d: it has %d now. Remove some first.",
			len(sum.Tags), MaxTagsPerDocument, len(existing)))
	}
	taken := make(map[int]bool, len(existing))
	next := 0
	for _, tg := range existing {
		taken[tg.Position] = true
		next = max(next, tg.Position+1)
	}
	var ids []string
	if err := db.Model(&Participant{}).Where("transaction_id = ?", e.t.ID).Pluck("participant_id", &ids).Error; err != nil {
		return mapDBError(err)
	}
	signers := make(map[string]bool, len(ids))
	for _, id := range ids {
		signers[id] = true
	}
	rows := make([]Tag, 0, len(sum.Tags))
	for _, d := range sum.Tags {
		var dup int64
		if err := db.Model(&Tag{}).Where("transaction_id = ? AND tag_id = ?", e.t.ID, d.TagID).Count(&dup).Error; err != nil {
			return mapDBError(err)
		}
		if dup > 0 {
			return errors.New("restore a deleted page: one of its tags exists again")
		}
		pos := d.Position
		if taken[pos] {
			pos = next
		}
		taken[pos] = true
		next = max(next, pos+1)
		signer := d.SignerID
		if !signers[signer] {
			signer = ""
		}
		rows = append(rows, Tag{
			TransactionID: e.t.ID, DocumentPosition: e.docPos, Position: pos, TagID: d.TagID, Type: d.Type, Page: sum.Page,
			X: d.X, Y: d.Y, Width: d.Width, Height: d.Height, SignerID: signer, CustomData: RawJSON(d.CustomData),
			Required: d.Required, StateFormat: d.StateFormat, DateFormat: d.DateFormat, FontSize: d.FontSize,
		})
	}
	if err := insertRows(ctx, e.tx, "transaction_tags", tagColumns(), rows, tagValues); err != nil {
		return err
	}
	e.tagDelta = len(rows)
	return nil
}
