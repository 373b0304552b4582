package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// recordAudit writes one audit event by actor, at the clock's time.
func recordAudit(t *testing.T, env *modelstest.Env, actor models.AuditActor, e models.AuditEntry) {
	t.Helper()
	if err := env.Store.RecordAudit(models.WithAuditActor(context.Background(), actor), e); err != nil {
		t.Fatal(err)
	}
}

// auditRows are the ids of the events a console page shows, in order.
func auditRows(page string) []string {
	var ids []string
	for _, m := range regexp.MustCompile(`data-audit-event="(\d+)"`).FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func atoi64(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }

// auditLink is the href of the link marked attr on page, unescaped.
func auditLink(t *testing.T, page, attr string) string {
	t.Helper()
	m := regexp.MustCompile(`href="([^"]*)"[^>]*` + attr).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return strings.ReplaceAll(m[1], "&amp;", "&")
}

// The console's audit trail: newest first, one row per event with its
// organization, actor (kind, name, via), address, action, linked target
// and summary; filtered by organization, actor, action (exact or a
// prefix), transaction and time range, every filter in the URL; paged
// both ways by a cursor that keeps the filters; bad filters shown on the
// page (400), an empty result explained; linked from the navigation and
// from each transaction's page.
func TestAdminAuditTrail(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other Co")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		tx, _ := s.create(acme.Token, obj{"status": "draft", "referenceId": "AUDIT-1", "documents": arr{}, "participants": arr{}})
		txID := tx["id"].(string)
		// The setup's own events (tenants, the transaction) go: the page
		// shows only the ones below.
		env.DB.DB.Exec("DELETE FROM audit_events")
		env.DB.DB.Exec("DELETE FROM audit_chains")
		start := env.Clock.Now()

		importJob := models.AuditActor{Kind: models.AuditActorAPIToken, ID: "17", Name: "Import job", Via: "api", Address: "192.0.2.7"}
		roomActor := models.AuditActor{Kind: models.AuditActorRoom, ID: "room-1", Name: "Sam Sender · Markup Room", Via: "room", Address: "198.51.100.4"}
		// 60 events by the import job (one a minute), then three of a room
		// in the transaction, then one of another organization.
		for i := range 60 {
			env.Clock.Advance(time.Minute)
			recordAudit(t, env, importJob, models.AuditEntry{OrganizationID: acme.Org.ID, Action: "document.uploaded",
				TargetType: "document", TargetID: fmt.Sprintf("doc-%02d", i), Summary: fmt.Sprintf("Uploaded lease %02d.pdf", i)})
		}
		env.Clock.Advance(time.Hour)
		for _, a := range []string{"participant.renamed", "participant.added", "room.tag_created"} {
			recordAudit(t, env, roomActor, models.AuditEntry{OrganizationID: acme.Org.ID, Action: a, TargetType: "participant",
				TargetID: "p1", TransactionID: txID, Summary: "Renamed Robin Seller to Robin Seller-Smith"})
		}
		recordAudit(t, env, importJob, models.AuditEntry{OrganizationID: other.Org.ID, Action: "transaction.replaced",
			TargetType: "transaction", TargetID: "x", Summary: "Other's change"})

		s.browser().get("/admin/audit").status(http.StatusSeeOther)
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		env.DB.DB.Exec("DELETE FROM audit_events WHERE action = 'admin.signed_in'") // the sign-in's own event
		page := b.get("/admin/audit").status(http.StatusOK).Body.String()
		if !strings.Contains(page, `aria-current="page">Audit<`) {
			t.Error("the nav does not mark Audit")
		}
		rows := auditRows(page)
		if len(rows) != models.AdminPageSize || auditLink(t, page, "data-audit-newer") != "" || auditLink(t, page, "data-audit-older") == "" {
			t.Fatalf("first page: %d rows, newer %q, older %q", len(rows), auditLink(t, page, "data-audit-newer"), auditLink(t, page, "data-audit-older"))
		}
		// Newest first: the other organization's event, then the room's.
		first := page[strings.Index(page, `data-audit-event="`+rows[0]+`"`):]
		first = first[:strings.Index(first, "</tr>")]
		room := page[strings.Index(page, `data-audit-event="`+rows[1]+`"`):]
		room = room[:strings.Index(room, "</tr>")]
		for _, want := range []string{"Other Co", "transaction.replaced", "Import job", ">API token<", "via api", "192.0.2.7", "Other&#39;s change"} {
			if !strings.Contains(first, want) {
				t.Errorf("the newest row lacks %q: %s", want, first)
			}
		}
		for _, want := range []string{"Acme", "room.tag_created", ">Room<", "Sam Sender · Markup Room", "via room", "198.51.100.4",
			`href="/admin/transactions/` + txID + `"`, "participant p1", "Robin Seller-Smith"} {
			if !strings.Contains(room, want) {
				t.Errorf("the room's row lacks %q: %s", want, room)
			}
		}
		// Not sealed yet (no sealer runs here): each row says so, with the
		// hook; once sealed, none does.
		if !strings.Contains(first, `data-audit-unsealed>not sealed yet<`) || strings.Count(page, "data-audit-unsealed") != len(rows) {
			t.Errorf("unsealed events are not marked: %s", first)
		}
		if err := env.Store.SealAuditBacklog(t.Context()); err != nil {
			t.Fatal(err)
		}
		if sealed := b.get("/admin/audit").status(http.StatusOK).Body.String(); strings.Contains(sealed, "data-audit-unsealed") {
			t.Error("a sealed event is marked unsealed")
		}
		if !strings.Contains(page, `href="/admin/audit.csv" data-audit-export`) {
			t.Error("no export link")
		}
		if !strings.Contains(page, `<option value="participant."`) || !strings.Contains(page, `<option value="document.uploaded"`) {
			t.Error("the action field does not suggest the actions and their prefixes")
		}

		// Filters, each in the URL.
		count := func(q string) int {
			return len(auditRows(b.get("/admin/audit?" + q).status(http.StatusOK).Body.String()))
		}
		for q, want := range map[string]int{
			"org=" + itoa64(other.Org.ID):         1,
			"action=participant.":                 2,
			"action=participant.renamed":          1,
			"action=participant":                  0,
			"actor=sam+sender":                    3,
			"actor=room-1":                        3,
			"actor=17&org=" + itoa64(acme.Org.ID): 50,
			"transaction=" + txID:                 3,
			"from=" + start.Add(59*time.Minute).UTC().Format("2006-01-02T15:04"):                                                                                              6,
			"to=" + start.Add(3*time.Minute).UTC().Format(time.RFC3339):                                                                                                       2,
			"from=" + start.UTC().Format("2006-01-02") + "&to=" + start.UTC().Format("2006-01-02") + "&org=0":                                                                 0,
			"action=document.&from=" + start.Add(10*time.Minute).UTC().Format("2006-01-02T15:04:05") + "&to=" + start.Add(12*time.Minute).UTC().Format("2006-01-02T15:04:05"): 2,
		} {
			if got := count(q); got != want {
				t.Errorf("%s: %d rows, want %d", q, got, want)
			}
		}

		// Pages of the filtered trail: older, older, then newer and newer
		// again, keeping the filters; the export keeps them too.
		filter := "actor=Import+job&org=" + itoa64(acme.Org.ID)
		p1 := b.get("/admin/audit?" + filter).status(http.StatusOK).Body.String()
		if got := auditLink(t, p1, "data-audit-export"); got != "/admin/audit.csv?"+filter {
			t.Errorf("export link %q", got)
		}
		older := auditLink(t, p1, "data-audit-older")
		if !strings.Contains(older, "org="+itoa64(acme.Org.ID)) || !strings.Contains(older, "actor=Import+job") || !strings.Contains(older, "cursor=older-") {
			t.Fatalf("older link %q", older)
		}
		p2 := b.get(older).status(http.StatusOK).Body.String()
		r1, r2 := auditRows(p1), auditRows(p2)
		if len(r1) != 50 || len(r2) != 10 || auditLink(t, p2, "data-audit-older") != "" || atoi64(r2[0]) >= atoi64(r1[49]) {
			t.Fatalf("pages of %d and %d rows (older %q)", len(r1), len(r2), auditLink(t, p2, "data-audit-older"))
		}
		newer := auditLink(t, p2, "data-audit-newer")
		if !strings.Contains(newer, "cursor=newer-") || !strings.Contains(newer, "actor=Import+job") {
			t.Fatalf("newer link %q", newer)
		}
		back := b.get(newer).status(http.StatusOK).Body.String()
		if strings.Join(auditRows(back), ",") != strings.Join(r1, ",") || auditLink(t, back, "data-audit-newer") != "" {
			t.Errorf("newer from the last page is not the first page: %v", auditRows(back))
		}
		// A newer page in the middle: 60 events, pages of 50: from the
		// 5th-newest, the newer page is full only when 50 events are newer.
		all := append(append([]string{}, r1...), r2...)
		mid := b.get("/admin/audit?" + filter + "&cursor=newer-" + all[55]).status(http.StatusOK).Body.String()
		if got := auditRows(mid); len(got) != 50 || got[0] != all[5] || got[49] != all[54] || auditLink(t, mid, "data-audit-newer") == "" {
			t.Errorf("the page newer than the 56th: %d rows from %v", len(got), got[:1])
		}

		// Bad filters: the page, its form and a message per field; a
		// forged cursor is refused as on every list.
		bad := b.get("/admin/audit?from=yesterday&action=Renamed!&org=acme").status(http.StatusBadRequest).Body.String()
		for _, want := range []string{`data-audit-invalid`, `data-audit-error="from"`, `data-audit-error="action"`, `data-audit-error="org"`,
			`value="yesterday"`, "2026-11-26T14:30", "clear the filters"} {
			if !strings.Contains(bad, want) {
				t.Errorf("the refused filters' page lacks %q", want)
			}
		}
		if len(auditRows(bad)) != 0 {
			t.Error("a refused filter still lists events")
		}
		b.get("/admin/audit?cursor=42").status(http.StatusBadRequest)
		b.get("/admin/audit?from=2026-11-27&to=2026-11-26").status(http.StatusBadRequest)
		empty := b.get("/admin/audit?action=nothing.here").status(http.StatusOK).Body.String()
		if !strings.Contains(empty, "No event matches these filters.") {
			t.Error("no empty state for a filter that matches nothing")
		}

		// The transaction's page links to its events.
		txPage := b.get("/admin/transactions/" + txID).status(http.StatusOK).Body.String()
		if got := auditLink(t, txPage, "data-audit-link"); got != "/admin/audit?transaction="+url.QueryEscape(txID) {
			t.Errorf("the transaction page's audit link is %q", got)
		}
	})
}
