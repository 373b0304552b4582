package models

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"
)

// AuditFilter selects audit events; zero fields select everything.
type AuditFilter struct {
	// OrganizationID, when not nil, keeps one organization's events (0: the
	// events of no organization).
	OrganizationID *int64
	// Actor keeps the events whose actor's id is Actor or whose actor's name
	// contains it (case-insensitive).
	Actor string
	// Action keeps one action ("participant.renamed"), or every action under
	// a prefix that ends with a dot ("participant.").
	Action string
	// TransactionID keeps the events of one transaction.
	TransactionID string
	// From and To keep the events at or after From and before To.
	From, To time.Time
}

// AuditOrder is the order of a page of audit events; the cursor is the id
// of the last event of the previous page in that order.
type AuditOrder int

const (
	// AuditNewestFirst is the console's order.
	AuditNewestFirst AuditOrder = iota
	// AuditOldestFirst is the order in which a puller (a SIEM) reads the
	// trail. Ids are given as events are inserted, before their changes
	// commit, so an event of a slow change may get a smaller id than one
	// that commits before it (docs/decisions.md, "Audit sealing"); the
	// chain's own order is its seq, given by the sealer.
	AuditOldestFirst
)

// MaxAuditPage is the most events one page holds.
const MaxAuditPage = 1000

// AuditPage is one page of audit events and the cursor of the next (0: none).
type AuditPage struct {
	Events []AuditEvent
	Next   int64
}

// ListAuditEvents reads one page of the events f selects, in order, after
// the event whose id is cursor (0: from the start); limit is clamped to
// 1…MaxAuditPage.
func (s *Store) ListAuditEvents(ctx context.Context, f AuditFilter, order AuditOrder, cursor int64, limit int) (*AuditPage, error) {
	limit = min(max(limit, 1), MaxAuditPage)
	q := f.apply(s.db.WithContext(ctx).Model(&AuditEvent{}))
	if order == AuditOldestFirst {
		if cursor > 0 {
			q = q.Where("id > ?", cursor)
		}
		q = q.Order("id ASC")
	} else {
		if cursor > 0 {
			q = q.Where("id < ?", cursor)
		}
		q = q.Order("id DESC")
	}
	var rows []AuditEvent
	if err := q.Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	page := &AuditPage{Events: rows}
	if len(rows) > limit {
		page.Events = rows[:limit]
		page.Next = rows[limit-1].ID
	}
	return page, nil
}

// apply adds f's conditions to q.
func (f AuditFilter) apply(q *gorm.DB) *gorm.DB {
	if f.OrganizationID != nil {
		q = q.Where("organization_id = ?", *f.OrganizationID)
	}
	if f.Actor != "" {
		q = q.Where(`(actor_id = ? OR LOWER(actor_name) LIKE ? ESCAPE '\')`, f.Actor, "%"+escapeLike(strings.ToLower(f.Actor))+"%")
	}
	if strings.HasSuffix(f.Action, ".") {
		q = q.Where(`action LIKE ? ESCAPE '\'`, escapeLike(f.Action)+"%")
	} else if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if f.TransactionID != "" {
		q = q.Where("transaction_id = ?", f.TransactionID)
	}
	if !f.From.IsZero() {
		q = q.Where("at >= ?", f.From.UTC())
	}
	if !f.To.IsZero() {
		q = q.Where("at < ?", f.To.UTC())
	}
	return q
}
