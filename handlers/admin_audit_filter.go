package handlers

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/markuproom/markuproom/models"
)

// auditFilterParams are the query parameters that filter the audit trail,
// on the console's page (/admin/audit) and its export (/admin/audit.csv)
// alike; "cursor" pages it.
var auditFilterParams = []string{"org", "actor", "action", "transaction", "from", "to"}

// Bounds of the audit filters' text.
const (
	maxAuditActorFilter  = 200
	maxAuditActionFilter = 100
)

// auditQuery is a request's audit filters, read by parseAuditQuery.
type auditQuery struct {
	// Filter selects the events.
	Filter models.AuditFilter
	// Params are the filter parameters as given (only those set), for the
	// links that keep them (pages, the export).
	Params url.Values
	// Cursor is where the page starts (zero: the newest events).
	Cursor auditCursor
}

// auditCursor is the console's cursor: the events older than the event
// ID (the "Older" link), or newer than it when Newer is set ("Newer").
// Its text is "older-ID" or "newer-ID".
type auditCursor struct {
	ID    int64
	Newer bool
}

// String is the cursor's text ("" for the first page).
func (c auditCursor) String() string {
	switch {
	case c.ID == 0:
		return ""
	case c.Newer:
		return "newer-" + strconv.FormatInt(c.ID, 10)
	default:
		return "older-" + strconv.FormatInt(c.ID, 10)
	}
}

// parseAuditCursor reads a cursor's text; ok is false for text the
// console did not issue.
func parseAuditCursor(s string) (auditCursor, bool) {
	dir, digits, found := strings.Cut(s, "-")
	id, ok := models.ParseRowID(digits)
	if !found || !ok || dir != "older" && dir != "newer" {
		return auditCursor{}, false
	}
	return auditCursor{ID: id, Newer: dir == "newer"}, true
}

// parseAuditQuery reads the audit filters of a query string: org (an
// organization's id, or 0 for the events of none), actor (an actor's id,
// or part of their name), action (one action, or a prefix ending in "."),
// transaction (a transaction's id), from and to (a date, "2026-11-26", or a
// date and time, "2026-11-26T14:30" or with seconds, read as UTC; or an RFC
// 3339 time with its offset: events at or after from and before to, a date
// alone as to covering that whole day) and cursor. Every bad value is
// listed in one *models.ValidationError, each at "query:<name>".
func parseAuditQuery(q url.Values) (auditQuery, error) {
	out := auditQuery{Params: url.Values{}}
	for _, k := range auditFilterParams {
		if v := strings.TrimSpace(q.Get(k)); v != "" {
			out.Params.Set(k, v)
		}
	}
	var p models.Problems
	f := &out.Filter
	if org := out.Params.Get("org"); org == "0" {
		f.OrganizationID = new(int64)
	} else if org != "" {
		id, ok := models.ParseRowID(org)
		if !ok {
			p.Add("query:org", "invalid_type", "problem.audit.org")
		}
		f.OrganizationID = &id
	}
	f.Actor = out.Params.Get("actor")
	if len([]rune(f.Actor)) > maxAuditActorFilter {
		p.Add("query:actor", "too_long", "problem.audit.actor", "max", maxAuditActorFilter)
	}
	f.Action = out.Params.Get("action")
	if f.Action != "" && !validAuditAction(f.Action) {
		p.Add("query:action", "invalid_action", "problem.audit.action", "max", maxAuditActionFilter)
	}
	f.TransactionID = out.Params.Get("transaction")
	if f.TransactionID != "" && !models.ValidServiceID(f.TransactionID) {
		p.Add("query:transaction", "invalid_id", "problem.audit.transaction")
	}
	var err error
	if f.From, err = parseAuditTime(out.Params.Get("from"), false); err != nil {
		p.Add("query:from", "invalid_time", "problem.audit.from")
	}
	if f.To, err = parseAuditTime(out.Params.Get("to"), true); err != nil {
		p.Add("query:to", "invalid_time", "problem.audit.to")
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		p.Add("query:to", "empty_range", "problem.audit.range")
	}
	if c := q.Get("cursor"); c != "" {
		cur, ok := parseAuditCursor(c)
		if !ok {
			p.Add("query:cursor", "invalid_cursor", "problem.http.cursor", "name", "cursor")
		}
		out.Cursor = cur
	}
	return out, p.Err(models.KindInvalid, "problem.summary.filters_invalid")
}

// validAuditAction tells whether s can be an action or an action's prefix:
// lower-case letters, digits and underscores in words joined by dots.
func validAuditAction(s string) bool {
	if len(s) > maxAuditActionFilter || s[0] == '.' || strings.Contains(s, "..") {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.')
	}) < 0
}

// auditTimeLayouts are the forms of from and to without an offset (read
// as UTC): a date, a date-time-local input's value with and without seconds.
var auditTimeLayouts = []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05"}

// parseAuditTime reads a from or to value ("" is the zero time). A date
// alone is its day's start, or for the end of a range (end) the next day's
// start, so that to=2026-11-26 includes the 26th.
func parseAuditTime(s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	var err error
	for i, layout := range auditTimeLayouts {
		var t time.Time
		if t, err = time.ParseInLocation(layout, s, time.UTC); err == nil {
			if i == 0 && end {
				t = t.AddDate(0, 0, 1)
			}
			return t, nil
		}
	}
	return time.Time{}, err
}
