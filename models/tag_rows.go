package models

import "context"

// Tag rows are the most numerous rows a write sends: a replace of 2
// documents × 25 tags has 50, a template applied in a room 500. On
// PostgreSQL they go as one INSERT … SELECT FROM unnest(…) of one array per
// column (16 parameters however many tags), not as a multi-row VALUES list
// of 16 parameters a tag: each value is then encoded once inside its array
// instead of being boxed, converted and bound one by one, and the statement
// has the same text whatever the count, so its plan is prepared once.
// SQLite, which has no arrays, keeps the multi-row INSERTs.

// tagArraysSQL inserts the tag rows given as one array per column (in the
// order of tagColumns), all of the transaction given first.
const tagArraysSQL = `INSERT INTO transaction_tags (transaction_id, document_position, position, tag_id, type, x, y, width, height,
	signer_id, custom_data, page, required, state_format, date_format, font_size)
SELECT ?, * FROM unnest(?::integer[], ?::integer[], ?::text[], ?::text[], ?::double precision[], ?::double precision[],
	?::double precision[], ?::double precision[], ?::text[], ?::text[], ?::integer[], ?::boolean[], ?::text[], ?::text[],
	?::double precision[])`

// addTagRows adds to b the INSERT of tags, which belong to one transaction
// (any of its documents): on PostgreSQL one statement of arrays, on SQLite
// multi-row INSERTs of batchRows rows.
func (s *Store) addTagRows(b *writeBatch, tags []Tag) {
	if len(tags) == 0 {
		return
	}
	if s.dialect != DialectPostgres || !oneTransaction(tags) {
		addRows(b, s.batchRows(), "transaction_tags", tagColumns(), tags, tagValues)
		return
	}
	b.stmts = append(b.stmts, batchStmt{params: 16, build: func() (string, []any) {
		return tagArraysSQL, tagArrays(tags)
	}})
	b.args += 16
}

// oneTransaction tells whether tags all belong to the first one's transaction.
func oneTransaction(tags []Tag) bool {
	for i := range tags {
		if tags[i].TransactionID != tags[0].TransactionID {
			return false
		}
	}
	return true
}

// tagArrays are the arguments of tagArraysSQL for tags.
func tagArrays(tags []Tag) []any {
	n := len(tags)
	var (
		docPos, pos, page          = make([]int, n), make([]int, n), make([]int, n)
		tagID, typ, signer, custom = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		x, y, w, h                 = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		required                   = make([]*bool, n)
		stateFormat, dateFormat    = make([]*string, n), make([]*string, n)
		fontSize                   = make([]*float64, n)
	)
	for i := range tags {
		t := &tags[i]
		docPos[i], pos[i], page[i] = t.DocumentPosition, t.Position, t.Page
		tagID[i], typ[i], signer[i], custom[i] = t.TagID, t.Type, t.SignerID, string(t.CustomData.orEmpty())
		x[i], y[i], w[i], h[i] = t.X, t.Y, t.Width, t.Height
		required[i], stateFormat[i], dateFormat[i], fontSize[i] = t.Required, t.StateFormat, t.DateFormat, t.FontSize
	}
	return []any{tags[0].TransactionID, docPos, pos, tagID, typ, x, y, w, h, signer, custom, page, required, stateFormat, dateFormat, fontSize}
}

// insertTagRows writes tags (of one transaction) straight on s's connection
// or database transaction, as addTagRows builds them.
func (s *Store) insertTagRows(ctx context.Context, tags []Tag) error {
	var b writeBatch
	s.addTagRows(&b, tags)
	return s.execBatch(ctx, &b)
}
