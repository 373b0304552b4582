package models

import (
	"context"
	"database/sql"
	"strings"

	"gorm.io/gorm"
)

// ExportPageSize is how many rows an export reads from the database at once:
// the exports hold one page in memory, whatever the list's length.
const ExportPageSize = 1000

// ExportListSeparator joins the items of one cell of an export (names,
// e-mails, titles, ids), in order.
const ExportListSeparator = "; "

// AdminExportRow is one transaction as the console's exports write it: the
// table's row (without its Participants list) and what the table leaves
// out, each list joined with ExportListSeparator.
type AdminExportRow struct {
	AdminTransactionRow
	// ParticipantNames and ParticipantEmails are the participants' full
	// names and e-mail addresses, both in position order (the n-th name and
	// the n-th address are one person).
	ParticipantNames, ParticipantEmails string
	// DocumentTitles are every document's title, in position order.
	DocumentTitles string
	// RoomIDs are the transaction's Markup Rooms, oldest first.
	RoomIDs string
}

// AdminExportTransactions reads one page of the console's transactions
// table for an export: the rows f selects (its After and Before are not
// used), newest first, after the transaction whose id is after (empty: from
// the newest), at most limit (clamped to 1…ExportPageSize). A page shorter
// than limit is the last. Keyset paging on the time-ordered id reads every
// row once, however long the list, and never skips or repeats one that
// exists throughout the export. Each row's lists are subqueries of the one
// statement, each an index lookup on the row's id: a page is one query.
func (s *Store) AdminExportTransactions(ctx context.Context, f AdminTransactionFilter, after string, limit int) ([]AdminExportRow, error) {
	limit = min(max(limit, 1), ExportPageSize)
	var scanned []struct {
		AdminExportRow
		People string
	}
	err := s.withoutJIT(ctx, func(s *Store) error {
		q, err := s.adminTransactionsQuery(ctx, &f, adminRowColumns+s.exportColumns())
		if err != nil {
			return err
		}
		if after != "" {
			q = q.Where("t.id < ?", after)
		}
		return mapDBError(q.Order("t.id DESC").Limit(limit).Scan(&scanned).Error)
	})
	if err != nil {
		return nil, err
	}
	rows := make([]AdminExportRow, len(scanned))
	for i := range scanned {
		r := &rows[i]
		*r = scanned[i].AdminExportRow
		r.StatusSince = r.CreatedAt
		if !r.LastStatusChange.IsZero() {
			r.StatusSince = r.LastStatusChange.Time
		}
		r.ParticipantNames, r.ParticipantEmails = splitPeople(scanned[i].People)
	}
	return rows, nil
}

// Separators of the participants' aggregate: control characters, which a
// name or an e-mail address never holds (both are single lines of text).
const (
	peopleSeparator = "\x1e" // between two participants
	personSeparator = "\x1f" // between a name and its address
)

// splitPeople turns the participants' aggregate into names and addresses,
// each joined with ExportListSeparator.
func splitPeople(people string) (names, emails string) {
	if people == "" {
		return "", ""
	}
	var n, e strings.Builder
	for i, person := range strings.Split(people, peopleSeparator) {
		if i > 0 {
			n.WriteString(ExportListSeparator)
			e.WriteString(ExportListSeparator)
		}
		name, email, _ := strings.Cut(person, personSeparator)
		n.WriteString(name)
		e.WriteString(email)
	}
	return n.String(), e.String()
}

// withoutJIT runs read on PostgreSQL in a read-only transaction with JIT
// compilation off, elsewhere as it is. A page's plan costs a subquery per
// row and list, an estimate that can pass jit_above_cost (while the tables'
// statistics are young, after a bulk load) although the query runs in
// milliseconds: compiling it took ~200 ms a page, 20 s for 100,000 rows.
func (s *Store) withoutJIT(ctx context.Context, read func(s *Store) error) error {
	if s.dialect != DialectPostgres {
		return read(s)
	}
	return mapDBError(s.db.WithContext(ctx).Transaction(func(db *gorm.DB) error {
		if err := db.Exec("SET LOCAL jit = off").Error; err != nil {
			return err
		}
		c := *s
		c.db = db
		return read(&c)
	}, &sql.TxOptions{ReadOnly: true}))
}

// exportColumns are the export's lists as columns of the table's query:
// ordered string aggregates (string_agg on PostgreSQL, group_concat on
// SQLite; both take ORDER BY), a participant's name built as FullName
// builds it and paired with their address in one aggregate (splitPeople).
func (s *Store) exportColumns() string {
	agg, char := "group_concat", "char"
	if s.dialect == DialectPostgres {
		agg, char = "string_agg", "chr"
	}
	list := func(expr, sep, table, alias, order, as string) string {
		return ",\n\tCOALESCE((SELECT " + agg + "(" + expr + ", " + sep + " ORDER BY " + alias + "." + order + ") FROM " + table + " " + alias +
			" WHERE " + alias + ".transaction_id = t.id), '') AS " + as
	}
	name := `p.first_name || CASE WHEN COALESCE(p.middle_name, '') <> '' THEN ' ' || p.middle_name ELSE '' END || ' ' || p.last_name`
	sep := "'" + strings.ReplaceAll(ExportListSeparator, "'", "''") + "'"
	return list(name+" || "+char+"(31) || p.email", char+"(30)", "transaction_participants", "p", "position", "people") +
		list("d.title", sep, "transaction_documents", "d", "position", "document_titles") +
		list("r.id", sep, "markup_rooms", "r", "id", "room_ids")
}
