package models

import (
	"context"
	"errors"
	"math"
	"strconv"

	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/secret"
	"github.com/markuproom/markuproom/models/xfdf"
)

// Event kinds of the Markup Room's one-tag edits.
const (
	EventTagAdded   = "tag_added"
	EventTagChanged = "tag_changed"
	EventTagRemoved = "tag_removed"
)

// UnassignedColor draws a tag that belongs to no participant yet.
const UnassignedColor = "#8A8F98"

// NewTagID generates a stable id for a new tag.
func NewTagID() (string, error) {
	s, err := secret.RandomHex(8)
	if err != nil {
		return "", err
	}
	return "t_" + s, nil
}

// RoomTagForm is one tag as the Markup Room editor posts it: the fields of
// the OpenAPI document's Tag schema as text, coordinates in PDF points from the page's bottom-left
// corner. An empty SignerID leaves the tag unassigned (a draft may hold
// such tags; creating the e-signature session needs every tag assigned).
// It is decoded into a TagDraft (RoomTagForm.draft) and checked as every tag is.
type RoomTagForm struct {
	Type, SignerID, Page, X, Y, Width, Height string
	// Optional fields: empty means absent.
	Required, DateFormat, StateFormat, FontSize string
	// Version is the tag's version the edit was made against ("": not
	// checked; tag_version.go).
	Version string
}

// TagEdit is a tag as stored by a room edit, with what the editor draws it with.
type TagEdit struct {
	Tag Tag
	// Signer is the tag's participant (nil when unassigned) at SignerIndex.
	Signer      *Participant
	SignerIndex int
}

// AddRoomTag places a new tag on the document at docPos of a room's
// transaction. Only the new row is written.
func (s *Store) AddRoomTag(ctx context.Context, roomID string, docPos int, f RoomTagForm) (*TagEdit, error) {
	id, err := NewTagID()
	if err != nil {
		return nil, err
	}
	var out *TagEdit
	err = s.editRoomTag(ctx, roomID, func(e *tagEditor) error {
		doc, err := e.document(ctx, docPos)
		if err != nil {
			return err
		}
		// The document's tags, read once: their number, the next position
		// and, with the new one, the XFDF.
		tags, err := e.tx.documentTags(ctx, e.t.ID, docPos)
		if err != nil {
			return err
		}
		if len(tags) >= MaxTagsPerDocument {
			return Unprocessable("#", "too_many_tags", "problem.doc.too_many_tags", "max", MaxTagsPerDocument)
		}
		tag, err := e.checkForm(doc, f.draft(), "#")
		if err != nil {
			return err
		}
		tag.TransactionID, tag.DocumentPosition, tag.TagID = e.t.ID, docPos, id
		for _, other := range tags {
			tag.Position = max(tag.Position, other.Position+1)
		}
		// The new row, the XFDF, the version and the history: one statement on PostgreSQL.
		var b writeBatch
		addRows(&b, 1, "transaction_tags", tagColumns(), []Tag{*tag}, tagValues)
		if err := addXFDF(&b, &doc.row, append(tags, *tag), e.participants); err != nil {
			return err
		}
		out = e.result(tag)
		return e.bump(ctx, &b, +1, &TagAddedSummary{
			Document: doc.row.Position, DocumentTitle: doc.row.Title, Page: tag.Page, TagID: tag.TagID, Type: tag.Type,
			live: []RoomEventTag{eventTagOf(tag)},
		})
	})
	return out, err
}

// UpdateRoomTag replaces the fields of one tag of a room's transaction (it
// may move to another page of its document). Only that row changes.
func (s *Store) UpdateRoomTag(ctx context.Context, roomID, tagID string, f RoomTagForm) (*TagEdit, error) {
	var out *TagEdit
	version, err := ParseTagVersion(f.Version, "#/version")
	if err != nil {
		return nil, err
	}
	err = s.editRoomTag(ctx, roomID, func(e *tagEditor) error {
		old, doc, err := e.tag(ctx, tagID)
		if err != nil {
			return err
		}
		if err := tagChangedErr(staleTag(nil, "#/version", old, version)); err != nil {
			return err
		}
		tag, err := e.checkForm(doc, f.draft(), "#")
		if err != nil {
			return err
		}
		if err := e.updateTag(ctx, old, tag); err != nil {
			return err
		}
		out = e.result(tag)
		change := tagChange(doc, tag, old)
		change.live = []RoomEventTag{eventTagOf(tag)}
		return e.finishDocument(ctx, &doc.row, 0, change)
	})
	return out, err
}

// DeleteRoomTag removes one tag from a room's transaction; version is the
// tag's version the removal was made against (0: not checked).
func (s *Store) DeleteRoomTag(ctx context.Context, roomID, tagID string, version int) error {
	return s.editRoomTag(ctx, roomID, func(e *tagEditor) error {
		old, doc, err := e.tag(ctx, tagID)
		if err != nil {
			return err
		}
		if err := tagChangedErr(staleTag(nil, "#/version", old, version)); err != nil {
			return err
		}
		err = e.tx.db.WithContext(ctx).
			Where("transaction_id = ? AND document_position = ? AND position = ?", old.TransactionID, old.DocumentPosition, old.Position).
			Delete(&Tag{}).Error
		if err != nil {
			return mapDBError(err)
		}
		return e.finishDocument(ctx, &doc.row, -1, &TagRemovedSummary{
			Document: doc.row.Position, DocumentTitle: doc.row.Title, Page: old.Page, TagID: old.TagID, Type: old.Type,
		})
	})
}

// tagEditor is one room tag edit in progress, inside its database transaction
// with the transaction row locked.
type tagEditor struct {
	tx           *Store
	room         *Room
	t            *Transaction
	participants []Participant
	// rules are the room's tag rules, made once for all the tags of an edit
	// (a template applied checks 500).
	rules tagRules
}

// editRoomTag runs one tag edit: room state and documents.edit checked, the
// transaction row locked (edits of one room take turns, so two tabs never
// interleave inside one edit), then fn, all in one database transaction.
func (s *Store) editRoomTag(ctx context.Context, roomID string, fn func(*tagEditor) error) error {
	return s.inTx(ctx, func(tx *Store) error {
		room, t, err := tx.lockRoom(ctx, roomID, ActionEditTags)
		if err != nil {
			return err
		}
		e := &tagEditor{tx: tx, room: room, t: t}
		if err := tx.db.WithContext(ctx).Where("transaction_id = ?", t.ID).Order("position").Find(&e.participants).Error; err != nil {
			return mapDBError(err)
		}
		return fn(e)
	})
}

// roomDocument is a transaction document with the page geometry of its upload.
type roomDocument struct {
	row    TransactionDocument
	upload *Document
	// suggestions caches the upload's suggested fields (suggested).
	suggestions []detect.DetectedTag
}

func (e *tagEditor) document(ctx context.Context, pos int) (*roomDocument, error) {
	var rows []TransactionDocument
	if err := e.tx.db.WithContext(ctx).Where("transaction_id = ? AND position = ?", e.t.ID, pos).Limit(1).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	if len(rows) == 0 {
		return nil, ErrNotFound
	}
	uploads, err := e.tx.FindDocumentsByRef(ctx, e.t.OrganizationID, []string{rows[0].DocumentID})
	if err != nil {
		return nil, err
	}
	up := uploads[rows[0].DocumentID]
	if up == nil {
		return nil, errors.New("tag edit: the upload of a transaction document is missing")
	}
	return &roomDocument{row: rows[0], upload: up}, nil
}

// tag reads one tag of the room's transaction by its id, with its document.
func (e *tagEditor) tag(ctx context.Context, tagID string) (*Tag, *roomDocument, error) {
	var rows []Tag
	if err := e.tx.db.WithContext(ctx).Where("transaction_id = ? AND tag_id = ?", e.t.ID, tagID).Limit(1).Find(&rows).Error; err != nil {
		return nil, nil, mapDBError(err)
	}
	if len(rows) == 0 {
		return nil, nil, ErrNotFound
	}
	doc, err := e.document(ctx, rows[0].DocumentPosition)
	if err != nil {
		return nil, nil, err
	}
	return &rows[0], doc, nil
}

// checkForm checks a posted tag (a form's, decoded by RoomTagForm.draft,
// or a batch entry's) with operation A's rules: the tag's own fields
// (checkTag, 400), then its signer, page and rectangle against the room
// (422). Problems point below base: "#" for the one-tag routes, the
// entry's pointer ("#/create/3") for a batch.
func (e *tagEditor) checkForm(doc *roomDocument, d TagDraft, base string) (*Tag, error) {
	if e.rules.typeCodes == nil {
		e.rules = roomTagRules()
	}
	var bad Problems
	in := checkTag(&bad, base, d, e.rules)
	if err := bad.Err(KindInvalid, "problem.summary.tag_invalid"); err != nil {
		return nil, err
	}
	var p Problems
	if in.SignerID != "" && e.signerIndex(in.SignerID) < 0 {
		p.Add(pointer(base, "signerId"), "unknown_signer", "problem.room.unknown_signer", "id", Quoted(truncateForDetail(in.SignerID)))
	}
	if in.Page > doc.upload.PageCount {
		p.Add(pointer(base, "page"), "page_out_of_range", "problem.doc.page_out_of_range", "pages", doc.upload.PageCount, "page", in.Page)
	} else if box := doc.upload.Pages[in.Page-1].CropBox; !box.Contains(in.X, in.Y, in.Width, in.Height) {
		p.AddMessage(base, "outside_page", outsidePage(in.X, in.Y, in.Width, in.Height, in.Page, box))
	}
	if err := p.Err(KindUnprocessable, "problem.summary.tag_unprocessable"); err != nil {
		return nil, err
	}
	return &Tag{
		Type: in.Type, X: in.X, Y: in.Y, Width: in.Width, Height: in.Height, SignerID: in.SignerID,
		CustomData: in.CustomData, Page: in.Page, Required: in.Required, StateFormat: in.StateFormat,
		DateFormat: in.DateFormat, FontSize: in.FontSize,
	}, nil
}

// updateTag writes the checked fields of tag over the stored row old (the
// tag keeps its id, document, position and customData). Only that row changes.
func (e *tagEditor) updateTag(ctx context.Context, old, tag *Tag) error {
	tag.TransactionID, tag.DocumentPosition, tag.Position, tag.TagID = old.TransactionID, old.DocumentPosition, old.Position, old.TagID
	tag.CustomData, tag.Version, tag.NeedsLook = old.CustomData, old.Version+1, nil // an edit is the look a revision asked for
	err := e.tx.db.WithContext(ctx).Model(&Tag{}).
		Where("transaction_id = ? AND document_position = ? AND position = ?", tag.TransactionID, tag.DocumentPosition, tag.Position).
		Select("type", "x", "y", "width", "height", "signer_id", "page", "required", "state_format", "date_format", "font_size", "version", "needs_look").
		Updates(tag).Error
	return mapDBError(err)
}

func (e *tagEditor) signerIndex(id string) int {
	for i := range e.participants {
		if e.participants[i].ParticipantID == id {
			return i
		}
	}
	return -1
}

func (e *tagEditor) result(tag *Tag) *TagEdit {
	out := &TagEdit{Tag: *tag, SignerIndex: e.signerIndex(tag.SignerID)}
	if out.SignerIndex >= 0 {
		out.Signer = &e.participants[out.SignerIndex]
	}
	return out
}

// finish regenerates the edited document's XFDF, moves the transaction to
// its next version and records the edit in its history.
func (e *tagEditor) finish(ctx context.Context, docPos, tagDelta int, summary roomEditSummary) error {
	var b writeBatch
	if err := e.tx.addDocumentXFDF(ctx, &b, e.t.ID, docPos, e.participants); err != nil {
		return err
	}
	return e.bump(ctx, &b, tagDelta, summary)
}

// finishDocument is finish for an edit that has already read the
// document's row (row): its XFDF is rebuilt without reading it again.
func (e *tagEditor) finishDocument(ctx context.Context, row *TransactionDocument, tagDelta int, summary roomEditSummary) error {
	tags, err := e.tx.documentTags(ctx, e.t.ID, row.Position)
	if err != nil {
		return err
	}
	var b writeBatch
	if err := addXFDF(&b, row, tags, e.participants); err != nil {
		return err
	}
	return e.bump(ctx, &b, tagDelta, summary)
}

// bump counts the edit's tags on the transaction, moves its version on and
// records the history entry, sending them with b's writes (the edit's own)
// in one statement on PostgreSQL.
func (e *tagEditor) bump(ctx context.Context, b *writeBatch, tagDelta int, summary roomEditSummary) error {
	e.t.TagCount += tagDelta
	if err := e.tx.addBump(ctx, b, e.room, e.t, summary); err != nil {
		return err
	}
	return e.tx.execBatch(ctx, b)
}

// addDocumentXFDF reads one document's row and stored tags and adds the
// write of its XFDF, tag annotations regenerated and every other annotation
// kept, to b.
func (s *Store) addDocumentXFDF(ctx context.Context, b *writeBatch, txID string, docPos int, participants []Participant) error {
	var doc TransactionDocument
	if err := s.db.WithContext(ctx).Where("transaction_id = ? AND position = ?", txID, docPos).Take(&doc).Error; err != nil {
		return mapDBError(err)
	}
	tags, err := s.documentTags(ctx, txID, docPos)
	if err != nil {
		return err
	}
	return addXFDF(b, &doc, tags, participants)
}

// documentTags reads one document's tags in their order.
func (s *Store) documentTags(ctx context.Context, txID string, docPos int) ([]Tag, error) {
	return s.queryTags(ctx, "transaction_id = ? AND document_position = ? ORDER BY position", txID, docPos)
}

// addXFDF adds to b the write of doc's XFDF with its tag annotations rebuilt
// from tags (all of the document's tags, in order), keeping every other annotation.
func addXFDF(b *writeBatch, doc *TransactionDocument, tags []Tag, participants []Participant) error {
	merged, err := xfdf.MergeText([]byte(doc.XFDF), tagsToXFDF(doc.TransactionID, doc.Position, tags, colorsOf(participants)))
	if err != nil {
		return err
	}
	b.add("UPDATE transaction_documents SET xfdf = ? WHERE transaction_id = ? AND position = ?", merged, doc.TransactionID, doc.Position)
	return nil
}

// colorsOf maps each participant's id to its signer colour (by its place in participants).
func colorsOf(participants []Participant) map[string]string {
	colorOf := make(map[string]string, len(participants))
	for i, p := range participants {
		colorOf[p.ParticipantID] = SignerColor(i)
	}
	return colorOf
}

// tagChange describes a tag change for the history: the document, page and
// type, and the fields that differ from before.
func tagChange(doc *roomDocument, tag, before *Tag) *TagChangedSummary {
	out := &TagChangedSummary{
		TagID: tag.TagID, Type: tag.Type, Page: tag.Page,
		Document: doc.row.Position, DocumentTitle: doc.row.Title,
	}
	var changed []string
	if before.Page != tag.Page || before.X != tag.X || before.Y != tag.Y {
		changed = append(changed, "position")
	}
	if before.Width != tag.Width || before.Height != tag.Height {
		changed = append(changed, "size")
	}
	if before.Type != tag.Type {
		changed = append(changed, "type")
	}
	if before.SignerID != tag.SignerID {
		changed = append(changed, "signer")
	}
	if !equalPtr(before.Required, tag.Required) || !equalPtr(before.DateFormat, tag.DateFormat) ||
		!equalPtr(before.StateFormat, tag.StateFormat) || !equalPtr(before.FontSize, tag.FontSize) {
		changed = append(changed, "options")
	}
	out.Changed = changed
	if before.Page != tag.Page {
		out.FromPage = before.Page
	}
	return out
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// parseFormNumber reads a number a form posted: plain decimal notation only
// (so no NaN, Inf, Infinity, hexadecimal or digit separators, which
// strconv.ParseFloat would take), finite as a float64 (1e999 is not).
func parseFormNumber(s string) (float64, bool) {
	if s == "" || len(s) > 32 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if !isNumberByte(s[i]) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}
