package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
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

// deletedPageTags is the tags of a deleted page kept for its undo (table
// deleted_page_tags): once per transaction, document version, page and
// content, so that deleting the same page of the same version again with the
// same tags (delete, undo, delete, …) stores nothing new. The page_deleted
// event names its row by Digest (PageDeletedSummary.TagsKept).
type deletedPageTags struct {
	TransactionID string    `gorm:"column:transaction_id;primaryKey"`
	DocumentID    string    `gorm:"column:document_id;primaryKey"`
	Page          int       `gorm:"column:page;primaryKey"`
	Digest        string    `gorm:"column:digest;primaryKey"`
	Tags          string    `gorm:"column:tags"`
	CreatedAt     time.Time `gorm:"column:created_at"`
}

// TableName implements gorm's Tabler.
func (deletedPageTags) TableName() string { return "deleted_page_tags" }

// keepTags stores the tags of page of document version documentID that a
// page deletion removes (unless the same tags are kept already) and returns
// their digest, for the event's TagsKept.
func (s *Store) keepTags(ctx context.Context, txID, documentID string, page int, tags []DeletedTag) (string, error) {
	b, err := json.Marshal(tags)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	digest := hex.EncodeToString(sum[:])
	row := deletedPageTags{TransactionID: txID, DocumentID: documentID, Page: page, Digest: digest, Tags: string(b), CreatedAt: s.Now()}
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return "", mapDBError(err)
	}
	return digest, nil
}

// keptTags reads the tags a page deletion removed: from deleted_page_tags
// when the event names a row (TagsKept), else from the event itself (rows
// written before that table, which carry the tags inline).
func (s *Store) keptTags(ctx context.Context, txID string, sum *PageDeletedSummary) ([]DeletedTag, error) {
	if sum.TagsKept == "" {
		return sum.Tags, nil
	}
	return s.keptRow(ctx, txID, sum.FromDocumentID, sum.Page, sum.TagsKept)
}

// undoneTags reads the tags an undo of the edit undone brings back: a
// deleted page's, or every tag of a revised document as it was before (a
// revision recorded before its tags were kept cannot be undone: 422, as a
// document changed since).
func (s *Store) undoneTags(ctx context.Context, txID string, undone HistorySummary, title string) ([]DeletedTag, error) {
	switch sum := undone.(type) {
	case PageDeletedSummary:
		return s.keptTags(ctx, txID, &sum)
	case RevisedSummary:
		if sum.TagsKept == "" {
			return nil, errDocumentChanged(title)
		}
		return s.keptRow(ctx, txID, sum.FromDocumentID, 0, sum.TagsKept)
	}
	return nil, nil
}

// keptRow reads the tags keepTags stored for page of document version
// documentID under digest (page 0: a revision's, every page).
func (s *Store) keptRow(ctx context.Context, txID, documentID string, page int, digest string) ([]DeletedTag, error) {
	var rows []deletedPageTags
	err := s.db.WithContext(ctx).Where("transaction_id = ? AND document_id = ? AND page = ? AND digest = ?",
		txID, documentID, page, digest).Limit(1).Find(&rows).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("restore a document version: its kept tags %s are missing", digest)
	}
	var tags []DeletedTag
	if err := json.Unmarshal([]byte(rows[0].Tags), &tags); err != nil {
		return nil, fmt.Errorf("restore a document version: its kept tags %s: %w", digest, err)
	}
	return tags, nil
}

func deletedTagOf(t Tag) DeletedTag {
	return DeletedTag{
		TagID: t.TagID, Position: t.Position, Type: t.Type, Page: t.Page, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height,
		SignerID: t.SignerID, CustomData: json.RawMessage(t.CustomData), Required: t.Required, StateFormat: t.StateFormat,
		DateFormat: t.DateFormat, FontSize: t.FontSize,
	}
}

// RestoreRoomDocument undoes the page edit or the revision that turned
// document version into the document now at docPos of a room's transaction
// (documents.advancedEdit): the document points at version again and the
// tags go back — a moved page's tags to their old page, a deleted page's
// tags (kept whole, see keptTags) back with their ids, a revision's tags to
// where they were before it (placeBack). current is the
// document id the caller believes is at docPos: when the document changed
// since (another id), or version was not turned into it by one page edit,
// the undo is refused (422, "document_changed") and nothing changes. A
// version that this room's transaction never held is ErrNotFound. The
// history and the kept tags are read and decoded before the database
// transaction; inside it the room is checked again, the document must still
// be current, and only rows are written; the history records a
// page_restored event.
func (s *Store) RestoreRoomDocument(ctx context.Context, roomID string, docPos int, version, current string) (*PageEdit, error) {
	room, doc, err := s.checkedRoomDocument(ctx, roomID, docPos, ActionAdvancedEdit)
	if err != nil {
		return nil, err
	}
	var held int64
	if err := s.db.WithContext(ctx).Model(&pastDocument{}).Where("transaction_id = ? AND document_id = ?", room.TransactionID, version).Count(&held).Error; err != nil {
		return nil, mapDBError(err)
	}
	if held == 0 {
		return nil, ErrNotFound
	}
	if current != doc.upload.ID {
		return nil, errDocumentChanged(doc.row.Title)
	}
	undone, err := s.pageEditBetween(ctx, room.TransactionID, version, current)
	if err != nil {
		return nil, err
	}
	if undone == nil {
		return nil, errDocumentChanged(doc.row.Title)
	}
	uploads, err := s.FindDocumentsByRef(ctx, room.OrganizationID, []string{version})
	if err != nil {
		return nil, err
	}
	back := uploads[version]
	if back == nil {
		return nil, ErrNotFound
	}
	kept, err := s.undoneTags(ctx, room.TransactionID, undone, doc.row.Title)
	if err != nil {
		return nil, err
	}
	var result *PageEdit
	err = s.inTx(ctx, func(tx *Store) error {
		room, t, err := tx.lockRoom(ctx, roomID, ActionAdvancedEdit)
		if err != nil {
			return err
		}
		ed := &tagEditor{tx: tx, room: room, t: t}
		row, err := tx.documentRow(ctx, t.ID, docPos)
		if err != nil {
			return err
		}
		if current != row.DocumentID {
			return errDocumentChanged(row.Title)
		}
		e := &pageEdit{tx: tx, t: t, docPos: docPos}
		result = &PageEdit{Kind: EventPageRestored, Position: docPos, FromDocumentID: current, ToDocumentID: version}
		summary := &PageRestoredSummary{
			Document: docPos, DocumentTitle: row.Title, Pages: back.PageCount, Undoes: undone.Kind(),
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
			if err := tx.restoreTags(ctx, e, sum.Page, kept); err != nil {
				return err
			}
			restored := len(kept)
			result.Page = sum.Page
			summary.Page, summary.TagsRestored = &sum.Page, &restored
		case RevisedSummary:
			restored, err := e.placeBack(ctx, kept, back.PageCount)
			if err != nil {
				return err
			}
			summary.TagsRestored = &restored
		}
		if err := tx.rememberPastDocument(ctx, t.ID, current); err != nil {
			return err
		}
		db := tx.db.WithContext(ctx)
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
	// Only the events that name to are read and decoded (ids are stored
	// document ids: no LIKE wildcard in them).
	err := s.db.WithContext(ctx).Where("transaction_id = ? AND kind IN ?", txID, []string{EventPageDeleted, EventPageMoved, EventRevised}).
		Where("summary LIKE ?", `%"toDocumentId":"`+to+`"%`).
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
		case RevisedSummary:
			if sum.FromDocumentID == from && sum.ToDocumentID == to {
				return sum, nil
			}
		}
	}
	return nil, nil
}

// restoreTags undoes the deletion of page: the tags of the pages from the
// deleted one on move down one page, and the deleted tags (kept) come back
// with their ids (at their old position in the document when it is free,
// else after the last; a signer removed since leaves the tag unassigned).
func (s *Store) restoreTags(ctx context.Context, e *pageEdit, page int, kept []DeletedTag) error {
	if _, err := e.exec(ctx, "UPDATE transaction_tags SET page = page + 1, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND page >= ?", page); err != nil {
		return err
	}
	if len(kept) == 0 {
		return nil
	}
	db := s.db.WithContext(ctx)
	var existing []Tag
	if err := db.Select("position", "tag_id").Where("transaction_id = ? AND document_position = ?", e.t.ID, e.docPos).Find(&existing).Error; err != nil {
		return mapDBError(err)
	}
	if len(existing)+len(kept) > MaxTagsPerDocument {
		return Unprocessable("#", "too_many_tags", "problem.room.undo_too_many_tags", "back", len(kept), "max", MaxTagsPerDocument, "now", len(existing))
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
	rows := make([]Tag, 0, len(kept))
	for _, d := range kept {
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
			TransactionID: e.t.ID, DocumentPosition: e.docPos, Position: pos, TagID: d.TagID, Type: d.Type, Page: page,
			X: d.X, Y: d.Y, Width: d.Width, Height: d.Height, SignerID: signer, CustomData: RawJSON(d.CustomData),
			Required: d.Required, StateFormat: d.StateFormat, DateFormat: d.DateFormat, FontSize: d.FontSize,
		})
	}
	if err := e.tx.insertTagRows(ctx, rows); err != nil {
		return err
	}
	e.tagDelta = len(rows)
	return nil
}
