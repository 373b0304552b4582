package models

import (
	"context"
	"errors"
	"slices"
)

// The steps of tagEditor.applyBatch (models/tag_batch.go), in order.

// batchDocuments reads each document of the room a batch touches once, by position.
type batchDocuments struct {
	e          *tagEditor
	byPosition map[int]*roomDocument
}

// at returns the document at position pos.
func (d *batchDocuments) at(ctx context.Context, pos int) (*roomDocument, error) {
	if doc, ok := d.byPosition[pos]; ok {
		return doc, nil
	}
	doc, err := d.e.document(ctx, pos)
	if err != nil {
		return nil, err
	}
	d.byPosition[pos] = doc
	return doc, nil
}

// batchTags reads the tags named by update and delete, each a tag of this
// transaction; an id that is not is a 404 pointing at its entry.
func (e *tagEditor) batchTags(ctx context.Context, b *TagBatch) (map[string]*Tag, error) {
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
			missing.Add(pointer(pointer("#/update", i), "id"), "unknown_tag", "problem.batch.unknown_tag", "id", Quoted(truncateForDetail(u.ID)))
		}
	}
	for i, id := range b.Delete {
		if stored[id] == nil {
			missing.Add(pointer("#/delete", i), "unknown_tag", "problem.batch.unknown_tag", "id", Quoted(truncateForDetail(id)))
		}
	}
	if err := missing.Err(KindNotFound, "problem.summary.batch_tags_missing"); err != nil {
		return nil, err
	}
	var stale []TagConflict
	for i, u := range b.Update {
		stale = staleTag(stale, pointer(pointer("#/update", i), "version"), stored[u.ID], b.Versions[u.ID])
	}
	for i, id := range b.Delete {
		stale = staleTag(stale, pointer("#/delete", i), stored[id], b.Versions[id])
	}
	if err := tagChangedErr(stale); err != nil {
		return nil, err
	}
	return stored, nil
}

// batchProblems gathers the problems of every entry of a batch, by kind.
type batchProblems struct {
	invalid, unprocessable, notFound []FieldError
}

// collect keeps the problems of a *ValidationError and returns nil, or
// returns any other error.
func (p *batchProblems) collect(err error) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	switch ve.Kind {
	case KindInvalid:
		p.invalid = append(p.invalid, ve.Errors...)
	case KindNotFound:
		p.notFound = append(p.notFound, ve.Errors...)
	default:
		p.unprocessable = append(p.unprocessable, ve.Errors...)
	}
	return nil
}

// err is the batch's one error: the 400s alone when there are any, then the
// 404s, then the 422s; nil when every entry passed.
func (p *batchProblems) err() error {
	switch {
	case len(p.invalid) > 0:
		return &ValidationError{Kind: KindInvalid, Message: Msg("problem.summary.batch_tags_invalid"), Errors: p.invalid}
	case len(p.notFound) > 0:
		return &ValidationError{Kind: KindNotFound, Message: Msg("problem.summary.batch_documents_missing"), Errors: p.notFound}
	case len(p.unprocessable) > 0:
		return &ValidationError{Kind: KindUnprocessable, Message: Msg("problem.summary.batch_tags_unplaceable"), Errors: p.unprocessable}
	}
	return nil
}

// checkBatch checks every entry before anything is written, through the
// one-tag checker; problems of all entries are reported together. It
// returns the tags to create and the updated tags, in the batch's order.
func (e *tagEditor) checkBatch(ctx context.Context, b *TagBatch, stored map[string]*Tag, docs *batchDocuments) (created, updated []*Tag, err error) {
	var problems batchProblems
	created = make([]*Tag, len(b.Create))
	for i, c := range b.Create {
		base := pointer("#/create", i)
		doc, err := docs.at(ctx, c.DocumentPosition)
		if errors.Is(err, ErrNotFound) {
			err = NotFoundAt(pointer(base, "documentPosition"), "unknown_document", "problem.tx.no_document_at", "position", c.DocumentPosition)
		}
		if err == nil {
			created[i], err = e.checkForm(doc, c.Form, base)
		}
		if err == nil && c.Suggestion != "" {
			created[i].CustomData, err = acceptedSuggestion(doc, created[i].Page, c.Suggestion, pointer(base, "suggestion"))
		}
		if err != nil {
			if err := problems.collect(err); err != nil {
				return nil, nil, err
			}
		}
	}
	updated = make([]*Tag, len(b.Update))
	for i, u := range b.Update {
		old := stored[u.ID]
		doc, err := docs.at(ctx, old.DocumentPosition)
		if err == nil {
			updated[i], err = e.checkForm(doc, u.Form, pointer("#/update", i))
		}
		if err != nil {
			if err := problems.collect(err); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := problems.err(); err != nil {
		return nil, nil, err
	}
	return created, updated, nil
}

// batchTagCounts checks the tag counts of the touched documents, on the
// result (422 too_many_tags). It returns the touched positions, sorted, and
// each document's next free tag position.
func (e *tagEditor) batchTagCounts(ctx context.Context, b *TagBatch, stored map[string]*Tag) (positions []int, next map[int]int, err error) {
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
	positions = make([]int, 0, len(touched))
	for pos := range touched {
		positions = append(positions, pos)
	}
	slices.Sort(positions)
	next = map[int]int{} // document position → next free tag position
	for _, pos := range positions {
		var row struct {
			N      int64
			MaxPos *int
		}
		if err := e.tx.db.WithContext(ctx).Model(&Tag{}).Select("COUNT(*) AS n, MAX(position) AS max_pos").
			Where("transaction_id = ? AND document_position = ?", e.t.ID, pos).Scan(&row).Error; err != nil {
			return nil, nil, mapDBError(err)
		}
		if int(row.N)+delta[pos] > MaxTagsPerDocument {
			return nil, nil, Unprocessable("#", "too_many_tags", "problem.batch.too_many_tags", "max", MaxTagsPerDocument, "document", pos+1, "tags", int(row.N)+delta[pos])
		}
		if row.MaxPos != nil {
			next[pos] = *row.MaxPos + 1
		}
	}
	return positions, next, nil
}

// writeBatchTags writes the deletes, the updates, then the new rows in one
// insert, numbering them from next.
func (e *tagEditor) writeBatchTags(ctx context.Context, b *TagBatch, stored map[string]*Tag, created, updated []*Tag, next map[int]int) (*TagBatchResult, error) {
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
	if err := e.tx.insertTagRows(ctx, rows); err != nil {
		return nil, err
	}
	return res, nil
}

// recordBatch writes every edited document's XFDF, the version and the
// history entry: one statement on PostgreSQL.
func (e *tagEditor) recordBatch(ctx context.Context, b *TagBatch, positions []int, docs *batchDocuments, types map[string]int, live batchEvents) error {
	var writes writeBatch
	titles := make([]string, len(positions))
	for i, pos := range positions {
		if err := e.tx.addDocumentXFDF(ctx, &writes, e.t.ID, pos, e.participants); err != nil {
			return err
		}
		doc, err := docs.at(ctx, pos)
		if err != nil {
			return err
		}
		titles[i] = doc.row.Title
	}
	summary := &TagsBatchSummary{
		Created: len(b.Create), Updated: len(b.Update), Deleted: len(b.Delete),
		Documents: positions, DocumentTitles: titles, Types: types, live: live,
	}
	return e.bump(ctx, &writes, len(b.Create)-len(b.Delete), summary)
}

// batchTypes counts the tags a batch creates, changes (by their new type) and
// deletes by tag type code, for its history entry.
func batchTypes(b *TagBatch, stored map[string]*Tag, created, updated []*Tag) map[string]int {
	types := map[string]int{}
	for _, t := range created {
		types[t.Type]++
	}
	for _, t := range updated {
		types[t.Type]++
	}
	for _, id := range b.Delete {
		if t := stored[id]; t != nil {
			types[t.Type]++
		}
	}
	return types
}

// batchLive is what a batch's room events carry: the ids of the tags it
// created and updated, and the tags it deleted as they were.
func batchLive(b *TagBatch, stored map[string]*Tag, res *TagBatchResult) batchEvents {
	var live batchEvents
	for _, c := range res.Created {
		live.created = append(live.created, eventTagOf(&c.Tag))
	}
	for _, u := range res.Updated {
		live.updated = append(live.updated, eventTagOf(&u.Tag))
	}
	for _, id := range b.Delete {
		if t := stored[id]; t != nil {
			live.deleted = append(live.deleted, eventTagOf(t))
		}
	}
	return live
}
