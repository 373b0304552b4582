package models

import (
	"context"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
)

// AdminPageSize is how many rows an admin console table shows at once.
const AdminPageSize = 50

// maxSearchLength bounds the console's search text.
const maxSearchLength = 200

// AdminTransactionFilter selects and pages the console's transactions table.
type AdminTransactionFilter struct {
	OrganizationID int64
	Status         string
	// Search matches referenceId and participant e-mails, case-insensitively, anywhere.
	Search string
	// After (the next page) and Before (the previous one) are the ids at the
	// edges of the page shown; at most one is set.
	After, Before string
}

// AdminTransactionRow is one row of the console's transactions table.
type AdminTransactionRow struct {
	ID               string
	OrganizationID   int64
	OrganizationName string
	// ReferenceID is the caller's referenceId, empty when a room set it to
	// its own id (a room created without one).
	ReferenceID      string
	Status           string
	ParticipantCount int
	DocumentCount    int
	// Title is the first document's title (empty without documents).
	Title string
	// SenderName is the sender of the transaction's first Markup Room,
	// empty for a transaction made through the API alone.
	SenderName string
	// CreatedBy is who created the transaction, as its history names them.
	CreatedBy string
	// Participants are the participants' full names, in position order.
	Participants []string `gorm:"-"`
	// StatusSince is when the status was last set: its last change in the
	// history, else the creation.
	StatusSince time.Time `gorm:"-"`
	// LastStatusChange is the history's last status change, if any.
	LastStatusChange dbTime
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// AdminTransactionPage is one page of the table, newest first.
type AdminTransactionPage struct {
	Rows             []AdminTransactionRow
	HasNext, HasPrev bool
	FirstID, LastID  string
	Filter           AdminTransactionFilter
}

// AdminListTransactions pages every organization's transactions, newest
// first (keyset pagination on the time-ordered id), filtered by
// organization, status and a search of referenceId and participant e-mails.
func (s *Store) AdminListTransactions(ctx context.Context, f AdminTransactionFilter) (*AdminTransactionPage, error) {
	q, err := s.adminTransactionsQuery(ctx, &f, adminRowColumns+adminTitleColumn)
	if err != nil {
		return nil, err
	}
	k, err := pageAdminRows(q, "t.id", f.After, f.Before, func(r *AdminTransactionRow) string { return r.ID })
	if err != nil {
		return nil, err
	}
	if err := s.fillAdminTransactionRows(ctx, k.Rows); err != nil {
		return nil, err
	}
	return &AdminTransactionPage{Rows: k.Rows, HasNext: k.HasNext, HasPrev: k.HasPrev, FirstID: k.FirstID, LastID: k.LastID, Filter: f}, nil
}

// adminRowColumns are the columns of a row of the console's transactions,
// each subquery an index lookup on the row's id; the table adds its title
// (adminTitleColumn), the exports their lists.
const adminRowColumns = `t.id, t.organization_id, o.name AS organization_name, t.status, t.participant_count, t.document_count, t.created_at, t.updated_at,
	CASE WHEN EXISTS (SELECT 1 FROM markup_rooms r WHERE r.transaction_id = t.id AND r.id = t.reference_id) THEN '' ELSE t.reference_id END AS reference_id,
	COALESCE((SELECT u.first_name || ' ' || u.last_name FROM markup_rooms r JOIN users u ON u.id = r.sender_id
		WHERE r.transaction_id = t.id ORDER BY r.id LIMIT 1), '') AS sender_name,
	COALESCE((SELECT e.actor FROM transaction_events e WHERE e.transaction_id = t.id AND e.kind = 'created' ORDER BY e.created_at LIMIT 1), '') AS created_by,
	(SELECT e.created_at FROM transaction_events e WHERE e.transaction_id = t.id AND e.kind = 'status_changed' ORDER BY e.created_at DESC LIMIT 1) AS last_status_change`

// adminTitleColumn is a row's first document's title.
const adminTitleColumn = `,
	COALESCE((SELECT d.title FROM transaction_documents d WHERE d.transaction_id = t.id ORDER BY d.position LIMIT 1), '') AS title`

// adminTransactionsQuery checks f (trimming its search) and builds the query
// of the console's transactions table selecting columns, filtered but
// neither ordered nor paged: the page (AdminListTransactions) and the
// exports (AdminExportTransactions) select the same rows.
func (s *Store) adminTransactionsQuery(ctx context.Context, f *AdminTransactionFilter, columns string) (*gorm.DB, error) {
	var p Problems
	if f.Status != "" && !slices.Contains(TransactionStatuses(), f.Status) {
		p.Add("query:status", "invalid_enum", "problem.list.admin_tx_status")
	}
	f.Search = strings.TrimSpace(f.Search)
	if len([]rune(f.Search)) > maxSearchLength {
		p.Add("query:q", "too_long", "problem.list.search_too_long", "max", 200)
	}
	if err := p.Err(KindInvalid, "problem.summary.filter_invalid"); err != nil {
		return nil, err
	}
	q := s.db.WithContext(ctx).Table("transactions AS t").
		Select(columns).
		Joins("JOIN organizations o ON o.id = t.organization_id")
	if f.OrganizationID > 0 {
		q = q.Where("t.organization_id = ?", f.OrganizationID)
	}
	if f.Status != "" {
		q = q.Where("t.status = ?", f.Status)
	}
	if f.Search != "" {
		like := "%" + escapeLike(strings.ToLower(f.Search)) + "%"
		q = q.Where(`(LOWER(t.reference_id) LIKE ? ESCAPE '\' OR EXISTS (SELECT 1 FROM transaction_participants tp
			WHERE tp.transaction_id = t.id AND LOWER(tp.email) LIKE ? ESCAPE '\'))`, like, like)
	}
	return q, nil
}

// fillAdminTransactionRows reads the page's participants' names, one query
// for the whole page (never one per row), and dates each row's status.
func (s *Store) fillAdminTransactionRows(ctx context.Context, rows []AdminTransactionRow) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]string, len(rows))
	at := make(map[string]*AdminTransactionRow, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
		rows[i].StatusSince = rows[i].CreatedAt
		if !rows[i].LastStatusChange.IsZero() {
			rows[i].StatusSince = rows[i].LastStatusChange.Time
		}
		at[rows[i].ID] = &rows[i]
	}
	var people []struct {
		TransactionID, FirstName, LastName string
		MiddleName                         *string
	}
	err := s.db.WithContext(ctx).Table("transaction_participants").
		Select("transaction_id, first_name, middle_name, last_name").
		Where("transaction_id IN ?", ids).Order("transaction_id, position").Scan(&people).Error
	if err != nil {
		return mapDBError(err)
	}
	for _, p := range people {
		part := Participant{FirstName: p.FirstName, MiddleName: p.MiddleName, LastName: p.LastName}
		r := at[p.TransactionID]
		r.Participants = append(r.Participants, part.FullName())
	}
	return nil
}

// OrganizationNames lists every organization's id and name, by name.
func (s *Store) OrganizationNames(ctx context.Context) ([]Organization, error) {
	var out []Organization
	return out, mapDBError(s.db.WithContext(ctx).Select("id", "name").Order("name, id").Find(&out).Error)
}

// escapeLike makes a search text literal inside a LIKE pattern.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}
