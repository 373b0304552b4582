package models

import (
	"context"
	"strconv"
	"strings"
)

// Tag rows are the most numerous rows a write sends: a replace of 2
// documents × 25 tags has 50, a template applied in a room 500. On
// PostgreSQL they go as one INSERT … SELECT FROM unnest(…) of one array per
// column (18 parameters however many tags), not as a multi-row VALUES list
// of 18 parameters a tag: each value is then written once into its array's
// text instead of being boxed, converted and bound one by one, and the statement
// has the same text whatever the count, so its plan is prepared once.
// SQLite, which has no arrays, keeps the multi-row INSERTs.

// tagArraysSQL inserts the tag rows given as one array per column (in the
// order of tagColumns), all of the transaction given first. Each array is
// sent as the text of a PostgreSQL array literal (pgArray) and read by the
// array type's input function: one string a column, where pgx would box
// every element of a Go slice.
const tagArraysSQL = `INSERT INTO transaction_tags (transaction_id, document_position, position, tag_id, type, x, y, width, height,
	signer_id, custom_data, page, required, state_format, date_format, font_size, version, needs_look)
SELECT ?, * FROM unnest(?::text::integer[], ?::text::integer[], ?::text::text[], ?::text::text[], ?::text::double precision[],
	?::text::double precision[], ?::text::double precision[], ?::text::double precision[], ?::text::text[], ?::text::text[],
	?::text::integer[], ?::text::boolean[], ?::text::text[], ?::text::text[], ?::text::double precision[], ?::text::integer[],
	?::text::text[])`

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
	b.stmts = append(b.stmts, batchStmt{params: 18, build: func() (string, []any) {
		return tagArraysSQL, tagArrays(tags)
	}})
	b.args += 18
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
	var docPos, pos, tagID, typ, x, y, w, h, signer, custom, page, required, stateFormat, dateFormat, fontSize, version, needsLook pgArray
	for i := range tags {
		t := &tags[i]
		docPos.int(t.DocumentPosition)
		pos.int(t.Position)
		tagID.str(t.TagID)
		typ.str(t.Type)
		x.float(t.X)
		y.float(t.Y)
		w.float(t.Width)
		h.float(t.Height)
		signer.str(t.SignerID)
		custom.str(string(t.CustomData.orEmpty()))
		page.int(t.Page)
		if t.Required == nil {
			required.null()
		} else {
			required.boolean(*t.Required)
		}
		stateFormat.optStr(t.StateFormat)
		dateFormat.optStr(t.DateFormat)
		if t.FontSize == nil {
			fontSize.null()
		} else {
			fontSize.float(*t.FontSize)
		}
		version.int(max(t.Version, 1))
		needsLook.optStr(t.NeedsLook)
	}
	return []any{tags[0].TransactionID, docPos.text(), pos.text(), tagID.text(), typ.text(), x.text(), y.text(), w.text(), h.text(),
		signer.text(), custom.text(), page.text(), required.text(), stateFormat.text(), dateFormat.text(), fontSize.text(), version.text(), needsLook.text()}
}

// pgArray writes the text of a one-dimensional PostgreSQL array literal:
// {1,2}, {"a","b \"c\""}, {NULL,t}. Strings are always quoted (so "NULL"
// stays a string), with " and \ escaped by a backslash; numbers are written
// so that they read back exactly (strconv's shortest form).
type pgArray struct {
	b []byte
}

func (a *pgArray) next() {
	if len(a.b) == 0 {
		a.b = append(make([]byte, 0, 64), '{')
		return
	}
	a.b = append(a.b, ',')
}

func (a *pgArray) int(v int) {
	a.next()
	a.b = strconv.AppendInt(a.b, int64(v), 10)
}

func (a *pgArray) float(v float64) {
	a.next()
	a.b = strconv.AppendFloat(a.b, v, 'g', -1, 64)
}

func (a *pgArray) boolean(v bool) {
	a.next()
	if v {
		a.b = append(a.b, 't')
	} else {
		a.b = append(a.b, 'f')
	}
}

func (a *pgArray) null() {
	a.next()
	a.b = append(a.b, "NULL"...)
}

func (a *pgArray) str(s string) {
	a.next()
	a.b = append(a.b, '"')
	for {
		i := strings.IndexAny(s, `"\`)
		if i < 0 {
			break
		}
		a.b = append(a.b, s[:i]...)
		a.b = append(a.b, '\\', s[i])
		s = s[i+1:]
	}
	a.b = append(a.b, s...)
	a.b = append(a.b, '"')
}

func (a *pgArray) optStr(s *string) {
	if s == nil {
		a.null()
		return
	}
	a.str(*s)
}

// text is the literal ("{}" for no elements).
func (a *pgArray) text() string {
	if len(a.b) == 0 {
		return "{}"
	}
	return string(append(a.b, '}'))
}

// insertTagRows writes tags (of one transaction) straight on s's connection
// or database transaction, as addTagRows builds them.
func (s *Store) insertTagRows(ctx context.Context, tags []Tag) error {
	var b writeBatch
	s.addTagRows(&b, tags)
	return s.execBatch(ctx, &b)
}

// tagSelectSQL reads tag rows, columns in the order of tagColumns.
var tagSelectSQL = "SELECT " + strings.Join(tagColumns(), ", ") + " FROM transaction_tags WHERE "

// queryTags reads the tag rows matching cond (with ? placeholders for args,
// and its ORDER BY) straight from the connection, without GORM's
// reflection: a document's tags are read whole after every room edit, and
// a template applied in a room makes that 500 rows.
func (s *Store) queryTags(ctx context.Context, cond string, args ...any) ([]Tag, error) {
	q := tagSelectSQL + cond
	if s.dialect == DialectPostgres {
		q = numberPlaceholders(q, 0)
	}
	rows, err := s.db.Statement.ConnPool.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, mapDBError(err)
	}
	defer rows.Close()
	tags := []Tag{} // as GORM's Find gives: empty, not nil
	for rows.Next() {
		var t Tag
		if err := rows.Scan(&t.TransactionID, &t.DocumentPosition, &t.Position, &t.TagID, &t.Type, &t.X, &t.Y, &t.Width, &t.Height,
			&t.SignerID, &t.CustomData, &t.Page, &t.Required, &t.StateFormat, &t.DateFormat, &t.FontSize, &t.Version, &t.NeedsLook); err != nil {
			return nil, mapDBError(err)
		}
		tags = append(tags, t)
	}
	return tags, mapDBError(rows.Err())
}
