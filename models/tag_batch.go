package models

import (
	"context"
	"math"
)

// EventTagsBatch is the one history entry of a batch of tag edits of the
// Markup Room (POST /rooms/{id}/tags/batch), summarised by TagsBatchSummary.
const EventTagsBatch = "tags_batch"

// MaxTagBatchChanges bounds the entries of one batch (create + update +
// delete together).
const MaxTagBatchChanges = 5000

// TagBatch is a group of tag edits of one room that are written together or
// not at all: the editor's multi-selection moves, deletes, pastes and copies
// to pages.
type TagBatch struct {
	Create []TagBatchCreate
	Update []TagBatchUpdate
	// Delete lists the ids of the tags to remove.
	Delete []string
	// Versions are the tags' versions the entries of update and delete
	// were made against, by tag id (absent: not checked; tag_version.go).
	Versions map[string]int
}

// TagBatchCreate is one new tag of a batch, on the document at DocumentPosition.
type TagBatchCreate struct {
	DocumentPosition int
	// Form is the tag's fields as sent (readBatchTag), checked by checkForm.
	Form TagDraft
	// Suggestion, when not empty, is the key (SuggestionKey) of the suggested
	// field of the tag's page this tag accepts: its customData then records
	// the label it came from, as a placed text tag's does.
	Suggestion string
}

// TagBatchUpdate is the new fields of one existing tag (it stays in its document).
type TagBatchUpdate struct {
	ID string
	// Form is the tag's fields as sent (readBatchTag), checked by checkForm.
	Form TagDraft
}

// TagBatchResult is what a batch stored: the created tags in request order,
// then the updated ones in request order.
type TagBatchResult struct {
	Created, Updated []*TagEdit
}

// ParseTagBatch reads the JSON body of a batch of tag edits:
//
//	{"create": [{"documentPosition": 0, "type": …, "signerId": …, "page": 2, "x": 72, …}],
//	 "update": [{"id": "t_…", "type": …, …}],
//	 "delete": ["t_…", {"id": "t_…", "version": 3}]}
//
// A tag's fields are the one-tag routes' (RoomTagForm) with JSON types:
// numbers for page, x, y, width, height and fontSize, a boolean for
// required, strings for the rest; a create may also name the suggested
// field it accepts ("suggestion": its SuggestionKey); an update or a delete
// may name the version of the tag it was made against ("version"). Syntax, types and unknown fields are 400;
// an empty batch (empty_batch), more than MaxTagBatchChanges entries
// (too_many_changes) and a tag id named twice (duplicate_tag) are 422.
// Every problem points into the body ("#/create/3/x").
func ParseTagBatch(body []byte) (*TagBatch, error) {
	var p Problems
	o, ok := parseBody(&p, body)
	if !ok {
		return nil, p.Err(KindInvalid, "problem.summary.batch_json")
	}
	creates, _ := o.array("create", false, 0)
	updates, _ := o.array("update", false, 0)
	deletes, _ := o.array("delete", false, 0)
	o.finish()
	if err := p.Err(KindInvalid, "problem.summary.batch_invalid"); err != nil {
		return nil, err
	}
	switch n := len(creates) + len(updates) + len(deletes); {
	case n == 0:
		return nil, Unprocessable("#", "empty_batch", "problem.batch.empty")
	case n > MaxTagBatchChanges:
		return nil, Unprocessable("#", "too_many_changes", "problem.batch.too_many_changes", "changes", n, "max", MaxTagBatchChanges)
	}
	b := &TagBatch{Versions: map[string]int{}}
	for i, node := range creates {
		e, ok := readObject(&p, pointer("#/create", i), node)
		if !ok {
			continue
		}
		pos, _ := e.integer("documentPosition", true, 0, MaxDocuments-1)
		suggestion, _ := e.str("suggestion", false, MaxShortTextLength)
		b.Create = append(b.Create, TagBatchCreate{DocumentPosition: pos, Form: readBatchTag(e), Suggestion: suggestion})
		e.finish()
	}
	for i, node := range updates {
		e, ok := readObject(&p, pointer("#/update", i), node)
		if !ok {
			continue
		}
		id, _ := e.str("id", true, MaxShortTextLength)
		b.Update = append(b.Update, TagBatchUpdate{ID: id, Form: readBatchTag(e)})
		if v := e.optInt("version", 1, math.MaxInt32); v != nil {
			b.Versions[id] = *v
		}
		e.finish()
	}
	for i, node := range deletes {
		switch node.kind {
		case "string":
			b.Delete = append(b.Delete, decodeJSONString(node.raw))
		case "object":
			e, _ := readObject(&p, pointer("#/delete", i), node)
			id, _ := e.str("id", true, MaxShortTextLength)
			if v := e.optInt("version", 1, math.MaxInt32); v != nil {
				b.Versions[id] = *v
			}
			e.finish()
			b.Delete = append(b.Delete, id)
		default:
			p.Add(pointer("#/delete", i), "invalid_type", "problem.batch.delete_type", "kind", node.kind)
		}
	}
	if err := p.Err(KindInvalid, "problem.summary.batch_invalid"); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	once := func(ptr, id string) {
		if seen[id] {
			p.Add(ptr, "duplicate_tag", "problem.batch.duplicate_tag", "id", Quoted(truncateForDetail(id)))
		}
		seen[id] = true
	}
	for i, u := range b.Update {
		once(pointer(pointer("#/update", i), "id"), u.ID)
	}
	for i, id := range b.Delete {
		once(pointer("#/delete", i), id)
	}
	if err := p.Err(KindUnprocessable, "problem.summary.batch_twice"); err != nil {
		return nil, err
	}
	return b, nil
}

// readBatchTag decodes the fields of one tag of a batch into the TagDraft
// the one-tag routes' forms decode into, so both go through checkForm. A
// field of the wrong JSON type is reported here; absent and null fields
// are absent, except that the type and the signer are always there (as a
// form sends them: empty when absent). A number is read as a form's is
// (parseFormNumber), so one that is not a finite decimal is unreadable.
func readBatchTag(o *jsonObject) TagDraft {
	d := TagDraft{CustomData: RawJSON("{}")}
	text := func(name string) *string {
		v, _ := o.text(name)
		return v
	}
	number := func(name string) *float64 {
		raw, ok := o.raw(name)
		if !ok {
			return nil
		}
		if raw.kind != "number" {
			o.p.Add(o.at(name), "invalid_type", "problem.field.not_number", "field", Quoted(name), "kind", raw.kind)
			return nil
		}
		f, ok := parseFormNumber(string(raw.raw))
		if !ok {
			d.unreadable = append(d.unreadable, name)
			return nil
		}
		return &f
	}
	always := func(v *string) *string {
		if v == nil {
			v = new(string)
		}
		return v
	}
	d.Type, d.SignerID = always(text("type")), always(text("signerId"))
	d.Page, d.X, d.Y, d.Width, d.Height = number("page"), number("x"), number("y"), number("width"), number("height")
	if v := text("dateFormat"); v != nil && *v != "" {
		d.DateFormat = v
	}
	if v := text("stateFormat"); v != nil && *v != "" {
		d.StateFormat = v
	}
	d.FontSize = number("fontSize")
	d.Required = o.boolean("required")
	return d
}

// ApplyRoomTagBatch writes a batch of tag edits of a room's transaction in
// one database transaction, all or nothing, with the one-tag routes' checks
// (room state, documents.edit, checkForm) and one history entry
// (EventTagsBatch). An id in update or delete that is not a tag of this
// room's transaction is a 404 pointing at the entry; a create on a document
// the transaction does not hold is a 404 at its documentPosition. Every
// document touched keeps at most MaxTagsPerDocument tags, counted on the
// result (422 too_many_tags), and has its XFDF regenerated once.
func (s *Store) ApplyRoomTagBatch(ctx context.Context, roomID string, b *TagBatch) (*TagBatchResult, error) {
	var out *TagBatchResult
	err := s.editRoomTag(ctx, roomID, func(e *tagEditor) error {
		var err error
		out, err = e.applyBatch(ctx, b)
		return err
	})
	return out, err
}

// applyBatch checks every entry of b, then writes them and the history entry
// (the steps in tag_batch_apply.go).
func (e *tagEditor) applyBatch(ctx context.Context, b *TagBatch) (*TagBatchResult, error) {
	docs := &batchDocuments{e: e, byPosition: map[int]*roomDocument{}}
	stored, err := e.batchTags(ctx, b)
	if err != nil {
		return nil, err
	}
	created, updated, err := e.checkBatch(ctx, b, stored, docs)
	if err != nil {
		return nil, err
	}
	positions, next, err := e.batchTagCounts(ctx, b, stored)
	if err != nil {
		return nil, err
	}
	res, err := e.writeBatchTags(ctx, b, stored, created, updated, next)
	if err != nil {
		return nil, err
	}
	if err := e.recordBatch(ctx, b, positions, docs, batchTypes(b, stored, created, updated), batchLive(b, stored, res)); err != nil {
		return nil, err
	}
	return res, nil
}

// tagsByID reads the tags of the room's transaction with these ids (in
// chunks, so a batch of thousands stays within every database's limit on
// bound parameters); an id that is no tag of it is absent from the map.
func (e *tagEditor) tagsByID(ctx context.Context, ids []string) (map[string]*Tag, error) {
	out := make(map[string]*Tag, len(ids))
	for start := 0; start < len(ids); start += 500 {
		var rows []Tag
		chunk := ids[start:min(start+500, len(ids))]
		if err := e.tx.db.WithContext(ctx).Where("transaction_id = ? AND tag_id IN ?", e.t.ID, chunk).Find(&rows).Error; err != nil {
			return nil, mapDBError(err)
		}
		for i := range rows {
			out[rows[i].TagID] = &rows[i]
		}
	}
	return out, nil
}
