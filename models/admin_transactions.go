package models

import (
	"context"
	"slices"
	"strings"
	"time"
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
	ReferenceID      string
	Status           string
	ParticipantCount int
	DocumentCount    int
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
	var p Problems
	if f.Status != "" && !slices.Contains(TransactionStatuses(), f.Status) {
		p.Add("query:status", "invalid_enum", "status must be draft or esign_pending.")
	}
	f.Search = strings.TrimSpace(f.Search)
	if len([]rune(f.Search)) > maxSearchLength {
		p.Add("query:q", "too_long", "The search is longer than 200 characters.")
	}
	if err := p.Err(KindInvalid, "The filter is not valid."); err != nil {
		return nil, err
	}
	q := s.db.WithContext(ctx).Table("transactions AS t").
		Select("t.id, t.organization_id, o.name AS organization_name, t.reference_id, t.status, t.participant_count, t.document_count, t.updated_at").
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
	k, err := pageAdminRows(q, "t.id", f.After, f.Before, func(r *AdminTransactionRow) string { return r.ID })
	if err != nil {
		return nil, err
	}
	return &AdminTransactionPage{Rows: k.Rows, HasNext: k.HasNext, HasPrev: k.HasPrev, FirstID: k.FirstID, LastID: k.LastID, Filter: f}, nil
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
