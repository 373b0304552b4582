package models

import (
	"context"
	"errors"
	"slices"
	"strconv"
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
}

// TagBatchCreate is one new tag of a batch, on the document at DocumentPosition.
type TagBatchCreate struct {
	DocumentPosition int
	Form             RoomTagForm
	// Suggestion, when not empty, is the key (SuggestionKey) of the suggested
	// field of the tag's page this tag accepts: its customData then records
	// the label it came from, as a placed text tag's does.
	Suggestion string
}

// TagBatchUpdate is the new fields of one existing tag (it stays in its document).
type TagBatchUpdate struct {
	ID   string
	Form RoomTagForm
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
//	 "delete": ["t_…"]}
//
// A tag's fields are the one-tag routes' (RoomTagForm) with JSON types:
// numbers for page, x, y, width, height and fontSize, a boolean for
// required, strings for the rest; a create may also name the suggested
// field it accepts ("suggestion": its SuggestionKey). Syntax, types and unknown fields are 400;
// an empty batch (empty_batch), more than MaxTagBatchChanges entries
// (too_many_changes) and a tag id named twice (duplicate_tag) are 422.
// Every problem points into the body ("#/create/3/x").
func ParseTagBatch(body []byte) (*TagBatch, error) {
	var p Problems
	o, ok := parseBody(&p, body)
	if !ok {
		return nil, p.Err(KindInvalid, "The batch is not valid JSON; see errors.")
	}
	creates, _ := o.array("create", false, 0)
	updates, _ := o.array("update", false, 0)
	deletes, _ := o.array("delete", false, 0)
	o.finish()
	if err := p.Err(KindInvalid, "The batch is not valid; see errors for each field."); err != nil {
		return nil, err
	}
	switch n := len(creates) + len(updates) + len(deletes); {
	case n == 0:
		return nil, Unprocessable("#", "empty_batch", "The batch holds no change: send at least one entry in create, update or delete.")
	case n > MaxTagBatchChanges:
		return nil, Unprocessable("#", "too_many_changes", "The batch holds "+strconv.Itoa(n)+" changes; at most "+strconv.Itoa(MaxTagBatchChanges)+" are allowed in one request.")
	}
	b := &TagBatch{}
	for i, node := range creates {
		e, ok := readObject(&p, pointer("#/create", i), node)
		if !ok {
			continue
		}
		pos, _ := e.integer("documentPosition", true, 0, MaxDocuments-1)
		suggestion, _ := e.str("suggestion", false, MaxShortTextLength)
		b.Create = append(b.Create, TagBatchCreate{DocumentPosition: pos, Form: readTagForm(e), Suggestion: suggestion})
		e.finish()
	}
	for i, node := range updates {
		e, ok := readObject(&p, pointer("#/update", i), node)
		if !ok {
			continue
		}
		id, _ := e.str("id", true, MaxShortTextLength)
		b.Update = append(b.Update, TagBatchUpdate{ID: id, Form: readTagForm(e)})
		e.finish()
	}
	for i, node := range deletes {
		if node.kind != "string" {
			p.Add(pointer("#/delete", i), "invalid_type", "A tag id to delete must be a string, got %s.", node.kind)
			continue
		}
		b.Delete = append(b.Delete, decodeJSONString(node.raw))
	}
	if err := p.Err(KindInvalid, "The batch is not valid; see errors for each field."); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	once := func(ptr, id string) {
		if seen[id] {
			p.Add(ptr, "duplicate_tag", "The tag %q appears more than once in the batch; a tag may be updated or deleted once per batch.", truncateForDetail(id))
		}
		seen[id] = true
	}
	for i, u := range b.Update {
		once(pointer(pointer("#/update", i), "id"), u.ID)
	}
	for i, id := range b.Delete {
		once(pointer("#/delete", i), id)
	}
	if err := p.Err(KindUnprocessable, "The batch names a tag twice; see errors."); err != nil {
		return nil, err
	}
	return b, nil
}

// readTagForm reads the fields of one tag of a batch into the form the
// one-tag routes check, so both go through checkForm. A field of the wrong
// JSON type is reported here; absent and null fields stay empty.
func readTagForm(o *jsonObject) RoomTagForm {
	text := func(name string) string {
		raw, ok := o.raw(name)
		if !ok {
			return ""
		}
		if raw.kind != "string" {
			o.p.Add(o.at(name), "invalid_type", "The field %q must be a string, got %s.", name, raw.kind)
			return ""
		}
		return decodeJSONString(raw.raw)
	}
	number := func(name string) string {
		raw, ok := o.raw(name)
		if !ok {
			return ""
		}
		if raw.kind != "number" {
			o.p.Add(o.at(name), "invalid_type", "The field %q must be a number, got %s.", name, raw.kind)
			return ""
		}
		return string(raw.raw)
	}
	f := RoomTagForm{
		Type: text("type"), SignerID: text("signerId"), Page: number("page"),
		X: number("x"), Y: number("y"), Width: number("width"), Height: number("height"),
		DateFormat: text("dateFormat"), StateFormat: text("stateFormat"), FontSize: number("fontSize"),
	}
	if r := o.boolean("required"); r != nil {
		f.Required = strconv.FormatBool(*r)
	}
	return f
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

func (e *tagEditor) applyBatch(ctx context.Context, b *TagBatch) (*TagBatchResult, error) {
	docs := map[int]*roomDocument{}
	docAt := func(pos int) (*roomDocument, error) {
		if d, ok := docs[pos]; ok {
			return d, nil
		}
		d, err := e.document(ctx, pos)
		if err != nil {
			return nil, err
		}
		docs[pos] = d
		return d, nil
	}

	// The tags named by update and delete, each a tag of this transaction.
	ids := make([]string, 0, len(b.Update)+len(b.Delete))
	for _, u := range b.Update {
		ids = append(ids, u.ID)
	}
	ids = append(ids, b.Delete...)
	stored, err := e.tagsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	var missing Problems
	for i, u := range b.Update {
		if stored[u.ID] == nil {
			missing.Add(pointer(pointer("#/update", i), "id"), "unknown_tag", "No tag of this room has the id %q.", truncateForDetail(u.ID))
		}
	}
	for i, id := range b.Delete {
		if stored[id] == nil {
			missing.Add(pointer("#/delete", i), "unknown_tag", "No tag of this room has the id %q.", truncateForDetail(id))
		}
	}
	if err := missing.Err(KindNotFound, "The batch names tags this room does not have; nothing was changed."); err != nil {
		return nil, err
	}

	// Every entry checked before anything is written; problems of all
	// entries are reported together (the 400s alone when there are any).
	var invalid, unprocessable, notFound []FieldError
	collect := func(err error) error {
		var ve *ValidationError
		if !errors.As(err, &ve) {
			return err
		}
		switch ve.Kind {
		case KindInvalid:
			invalid = append(invalid, ve.Errors...)
		case KindNotFound:
			notFound = append(notFound, ve.Errors...)
		default:
			unprocessable = append(unprocessable, ve.Errors...)
		}
		return nil
	}
	created := make([]*Tag, len(b.Create))
	for i, c := range b.Create {
		base := pointer("#/create", i)
		doc, err := docAt(c.DocumentPosition)
		if errors.Is(err, ErrNotFound) {
			err = NotFoundAt(pointer(base, "documentPosition"), "unknown_document", "The transaction has no document at position "+strconv.Itoa(c.DocumentPosition)+".")
		}
		if err == nil {
			created[i], err = e.checkForm(doc, c.Form, base)
		}
		if err == nil && c.Suggestion != "" {
			created[i].CustomData, err = acceptedSuggestion(doc, created[i].Page, c.Suggestion, pointer(base, "suggestion"))
		}
		if err != nil {
			if err := collect(err); err != nil {
				return nil, err
			}
		}
	}
	updated := make([]*Tag, len(b.Update))
	for i, u := range b.Update {
		old := stored[u.ID]
		doc, err := docAt(old.DocumentPosition)
		if err == nil {
			updated[i], err = e.checkForm(doc, u.Form, pointer("#/update", i))
		}
		if err != nil {
			if err := collect(err); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case len(invalid) > 0:
		return nil, &ValidationError{Kind: KindInvalid, Detail: "Tags of the batch are not valid; see errors for each field. Nothing was changed.", Errors: invalid}
	case len(notFound) > 0:
		return nil, &ValidationError{Kind: KindNotFound, Detail: "The batch names documents this room does not have; nothing was changed.", Errors: notFound}
	case len(unprocessable) > 0:
		return nil, &ValidationError{Kind: KindUnprocessable, Detail: "Tags of the batch cannot be placed; see errors for each problem. Nothing was changed.", Errors: unprocessable}
	}

	// Tag counts of the touched documents, on the result.
	delta := map[int]int{}
	for _, c := range b.Create {
		delta[c.DocumentPosition]++
	}
	for _, id := range b.Delete {
		delta[stored[id].DocumentPosition]--
	}
	touched := map[int]bool{}
	for pos := range delta {
		touched[pos] = true
	}
	for _, u := range b.Update {
		touched[stored[u.ID].DocumentPosition] = true
	}
	positions := make([]int, 0, len(touched))
	for pos := range touched {
		positions = append(positions, pos)
	}
	slices.Sort(positions)
	next := map[int]int{} // document position → next free tag position
	for _, pos := range positions {
		var row struct {
			N      int64
			MaxPos *int
		}
		if err := e.tx.db.WithContext(ctx).Model(&Tag{}).Select("COUNT(*) AS n, MAX(position) AS max_pos").
			Where("transaction_id = ? AND document_position = ?", e.t.ID, pos).Scan(&row).Error; err != nil {
			return nil, mapDBError(err)
		}
		if int(row.N)+delta[pos] > MaxTagsPerDocument {
			return nil, Unprocessable("#", "too_many_tags", "A document holds at most "+strconv.Itoa(MaxTagsPerDocument)+
				" tags; after this batch document "+strconv.Itoa(pos+1)+" would hold "+strconv.Itoa(int(row.N)+delta[pos])+".")
		}
		if row.MaxPos != nil {
			next[pos] = *row.MaxPos + 1
		}
	}

	// Writes: deletes, updates, then the new rows in one insert.
	for start := 0; start < len(b.Delete); start += 500 {
		chunk := b.Delete[start:min(start+500, len(b.Delete))]
		if err := e.tx.db.WithContext(ctx).Where("transaction_id = ? AND tag_id IN ?", e.t.ID, chunk).Delete(&Tag{}).Error; err != nil {
			return nil, mapDBError(err)
		}
	}
	res := &TagBatchResult{}
	for i, u := range b.Update {
		if err := e.updateTag(ctx, stored[u.ID], updated[i]); err != nil {
			return nil, err
		}
		res.Updated = append(res.Updated, e.result(updated[i]))
	}
	rows := make([]Tag, len(b.Create))
	for i, c := range b.Create {
		id, err := NewTagID()
		if err != nil {
			return nil, err
		}
		tag := created[i]
		tag.TransactionID, tag.DocumentPosition, tag.TagID, tag.Position = e.t.ID, c.DocumentPosition, id, next[c.DocumentPosition]
		next[c.DocumentPosition]++
		rows[i] = *tag
		res.Created = append(res.Created, e.result(tag))
	}
	if err := insertRows(ctx, e.tx, "transaction_tags", tagColumns(), rows, tagValues); err != nil {
		return nil, err
	}

	// Every edited document's XFDF, the version and the history: one statement on PostgreSQL.
	var writes writeBatch
	titles := make([]string, len(positions))
	for i, pos := range positions {
		if err := e.tx.addDocumentXFDF(ctx, &writes, e.t.ID, pos, e.participants); err != nil {
			return nil, err
		}
		doc, err := docAt(pos)
		if err != nil {
			return nil, err
		}
		titles[i] = doc.row.Title
	}
	summary := &TagsBatchSummary{
		Created: len(b.Create), Updated: len(b.Update), Deleted: len(b.Delete),
		Documents: positions, DocumentTitles: titles,
	}
	if err := e.bump(ctx, &writes, len(b.Create)-len(b.Delete), summary); err != nil {
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
