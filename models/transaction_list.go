package models

import (
	"context"
	"slices"
)

// Page sizes of transaction lists.
const (
	DefaultListLimit = 50
	MaxListLimit     = 200
)

// TransactionFilter selects and pages a transaction list.
type TransactionFilter struct {
	Status      string
	ReferenceID string
	// Limit is the page size (DefaultListLimit when 0).
	Limit int
	// Cursor is the opaque NextCursor of the previous page.
	Cursor string
}

// TransactionPage is one page of a list, newest first.
type TransactionPage struct {
	Items      []Transaction
	NextCursor string
}

// ListTransactions lists an organization's transactions, newest first, by
// cursor (ids are time-ordered UUIDv7, so the cursor is the last id seen).
func (s *Store) ListTransactions(ctx context.Context, orgID int64, f TransactionFilter) (*TransactionPage, error) {
	var p Problems
	if f.Status != "" && !slices.Contains(TransactionStatuses(), f.Status) {
		p.Add("query:status", "invalid_enum", "problem.list.tx_status")
	}
	limit, after := pageArgs(&p, f.Limit, f.Cursor)
	if err := p.Err(KindInvalid, "problem.summary.list_invalid"); err != nil {
		return nil, err
	}
	q := s.db.WithContext(ctx).Where("organization_id = ?", orgID)
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.ReferenceID != "" {
		q = q.Where("reference_id = ?", f.ReferenceID)
	}
	if after != "" {
		q = q.Where("id < ?", after)
	}
	var rows []Transaction
	if err := q.Order("id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	page := &TransactionPage{Items: rows}
	if len(rows) > limit {
		page.Items = rows[:limit]
		page.NextCursor = encodeCursor(rows[limit-1].ID)
	}
	return page, nil
}

// pageArgs checks a list's limit and cursor; the cursor is the last id seen.
func pageArgs(p *Problems, limit int, cursor string) (int, string) {
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		p.Add("query:limit", "out_of_range", "problem.list.limit_between", "max", MaxListLimit)
	}
	var after string
	if cursor != "" {
		var ok bool
		if after, ok = ParseCursor(cursor); !ok {
			p.Add("query:cursor", "invalid_cursor", "problem.list.cursor")
		}
	}
	return limit, after
}
