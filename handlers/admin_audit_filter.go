package handlers

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// Bounds on the audit trail's filters.
const (
	maxAuditActorFilter  = 200
	maxAuditActionFilter = 100
)

// auditFilterFrom reads the audit trail's filters from the query, as the
// console's audit page and its export (/admin/audit.csv) take them: org (an
// organization's id; 0 for the events of no organization), actor (an
// actor's id, or part of their name), action (one action, or a prefix
// ending with a dot: "participant."), transaction (a transaction's id),
// from and to (RFC 3339, or a day "2026-11-26" or a minute
// "2026-11-26T14:30" in UTC; a day as to includes that day). Every value
// that cannot be one of these is a 400 naming the parameter.
func auditFilterFrom(c *gin.Context) (models.AuditFilter, error) {
	var f models.AuditFilter
	var p models.Problems
	if org := strings.TrimSpace(c.Query("org")); org != "" {
		id, err := strconv.ParseInt(org, 10, 64)
		if err != nil || id < 0 {
			p.Add("query:org", "invalid_type", "org must be an organization's id.")
		} else {
			f.OrganizationID = &id
		}
	}
	f.Actor = strings.TrimSpace(c.Query("actor"))
	if utf8.RuneCountInString(f.Actor) > maxAuditActorFilter {
		p.Add("query:actor", "too_long", "actor is longer than 200 characters.")
	}
	f.Action = strings.TrimSpace(c.Query("action"))
	if len(f.Action) > maxAuditActionFilter || !auditActionPattern(f.Action) {
		p.Add("query:action", "invalid_format", "action must be an action such as participant.renamed, or a prefix ending with a dot.")
	}
	f.TransactionID = strings.TrimSpace(c.Query("transaction"))
	if f.TransactionID != "" && !models.ValidServiceID(f.TransactionID) {
		p.Add("query:transaction", "invalid_format", "transaction must be a transaction's id.")
	}
	var ok bool
	if f.From, ok = auditTime(c.Query("from"), false); !ok {
		p.Add("query:from", "invalid_format", "from must be a time (RFC 3339) or a day (2006-01-02).")
	}
	if f.To, ok = auditTime(c.Query("to"), true); !ok {
		p.Add("query:to", "invalid_format", "to must be a time (RFC 3339) or a day (2006-01-02).")
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		p.Add("query:to", "out_of_range", "to must be later than from.")
	}
	return f, p.Err(models.KindInvalid, "The filter is not valid.")
}

// auditActionPattern tells whether s can be an action or a prefix of one:
// lowercase words of letters, digits and underscores joined by dots.
func auditActionPattern(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
		case c == '.' && i > 0 && s[i-1] != '.':
		default:
			return false
		}
	}
	return true
}

// auditTime reads a time filter: empty is the zero time; a day alone is its
// start, or the next day's start when end is set (so "to" includes it).
func auditTime(s string, end bool) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), true
	}
	if t, err := time.Parse("2006-01-02T15:04", s); err == nil {
		return t, true
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, false
	}
	if end {
		t = t.AddDate(0, 0, 1)
	}
	return t, true
}
