package handlers

import (
	"net/url"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
)

// The console's audit filters: every form of from and to (UTC unless an
// offset is given; a date alone as to includes its day), the organization
// of none, prefixes, and every bad value listed at once at its parameter.
func TestParseAuditQuery(t *testing.T) {
	t.Parallel()
	utc := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t.UTC() }
	q, err := parseAuditQuery(url.Values{"org": {"0"}, "actor": {" Ada "}, "action": {"participant."},
		"transaction": {"0194e0a0-0000-7000-8000-000000000001"}, "from": {"2026-11-26"}, "to": {"2026-11-27"}, "cursor": {"older-42"}, "other": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	f := q.Filter
	if f.OrganizationID == nil || *f.OrganizationID != 0 || f.Actor != "Ada" || f.Action != "participant." || f.TransactionID == "" ||
		!f.From.Equal(utc("2026-11-26T00:00:00Z")) || !f.To.Equal(utc("2026-11-28T00:00:00Z")) || q.Cursor != (auditCursor{ID: 42}) {
		t.Fatalf("parsed %+v", q)
	}
	if got := q.Params.Encode(); got != "action=participant.&actor=Ada&from=2026-11-26&org=0&to=2026-11-27&transaction=0194e0a0-0000-7000-8000-000000000001" {
		t.Errorf("params kept for links: %s", got)
	}
	for in, want := range map[string]string{
		"2026-11-26T14:30": "2026-11-26T14:30:00Z", "2026-11-26T14:30:05": "2026-11-26T14:30:05Z",
		"2026-11-26T14:30:00+02:00": "2026-11-26T12:30:00Z", "2026-11-26T14:30:00Z": "2026-11-26T14:30:00Z",
	} {
		q, err := parseAuditQuery(url.Values{"from": {in}, "to": {in}})
		if err == nil {
			t.Errorf("from = to = %s is an empty range, accepted", in)
		}
		if !q.Filter.From.Equal(utc(want)) || !q.Filter.To.Equal(utc(want)) {
			t.Errorf("%s read as %v / %v, want %s", in, q.Filter.From, q.Filter.To, want)
		}
	}
	_, err = parseAuditQuery(url.Values{"org": {"acme"}, "action": {"Participant Renamed"}, "transaction": {"nope"},
		"from": {"yesterday"}, "to": {"26/11/2026"}, "cursor": {"42"}, "actor": {string(make([]rune, 201))}})
	ve, ok := err.(*models.ValidationError)
	if !ok {
		t.Fatalf("bad values: %v", err)
	}
	seen := map[string]bool{}
	for _, fe := range ve.Errors {
		seen[fe.Pointer] = true
	}
	for _, p := range []string{"query:org", "query:action", "query:transaction", "query:from", "query:to", "query:cursor", "query:actor"} {
		if !seen[p] {
			t.Errorf("no error at %s: %v", p, ve)
		}
	}
	for _, bad := range []string{".x", "a..b", "a b", "A.b"} {
		if validAuditAction(bad) {
			t.Errorf("action %q accepted", bad)
		}
	}
	for _, c := range []auditCursor{{ID: 7}, {ID: 7, Newer: true}} {
		if got, ok := parseAuditCursor(c.String()); !ok || got != c {
			t.Errorf("cursor %v does not read back", c)
		}
	}
	for _, bad := range []string{"older-0", "older-007", "newer-", "back-3", "older-3x"} {
		if _, ok := parseAuditCursor(bad); ok {
			t.Errorf("cursor %q accepted", bad)
		}
	}
}
