package handlers_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// chartRow is the cells of the row labelled label in the table of chart id.
func chartRow(t *testing.T, page, id, label string) []string {
	t.Helper()
	start := strings.Index(page, `data-chart-table="`+id+`"`)
	if start < 0 {
		t.Fatalf("no table of chart %s", id)
	}
	table := page[start:]
	table = table[:strings.Index(table, "</table>")]
	row := regexp.MustCompile(`<tr><th scope="row">` + regexp.QuoteMeta(label) + `</th>(.*?)</tr>`).FindStringSubmatch(table)
	if row == nil {
		t.Fatalf("chart %s has no row %q", id, label)
	}
	var cells []string
	for _, m := range regexp.MustCompile(`<td class="num">([^<]*)</td>`).FindAllStringSubmatch(row[1], -1) {
		cells = append(cells, m[1])
	}
	return cells
}

func TestAdminOverviewChartsTheFiguresWithTablesAndAnOrganizationFilter(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		rec := models.NewRollupRecorder(env.Store, env.Clock.Now)
		s := newServer(t, env, func(d *handlers.Deps) { d.Requests = rec })
		acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		create := func(token, status string) {
			s.do(jsonReq(http.MethodPost, "/api/v1/transactions", token, map[string]any{
				"status": status, "referenceId": "R-" + status, "documents": []any{},
				"participants": []any{map[string]any{"id": "c1", "email": "carol@example.net", "firstName": "Carol", "lastName": "Client",
					"authenticationType": "none", "twoFactorContact": "email"}},
			})).status(http.StatusCreated)
		}
		create(acme.Token, "draft")
		create(acme.Token, "draft")
		create(acme.Token, "esign_pending")
		create(other.Token, "draft")
		s.do(api(http.MethodGet, "/api/v1/transactions/01900000-0000-7000-8000-00000000a2a2", acme.Token, nil)).status(http.StatusNotFound)
		if err := rec.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin").status(http.StatusOK).Body.String()
		for _, id := range []string{"chart-transactions", "chart-rooms", "chart-outbox", "chart-api", "chart-latency"} {
			if !strings.Contains(page, `data-chart="`+id+`"`) {
				t.Errorf("the overview has no chart %s", id)
			}
		}
		if n := strings.Count(page, `role="img"`); n != 3 { // the rooms and the outbox are empty
			t.Errorf("%d SVG charts, want 3 (transactions, API requests, latency)", n)
		}
		if !strings.Contains(page, `aria-current="page">Overview</a>`) || !strings.Contains(page, `>Transactions</a>`) {
			t.Error("the navigation lacks Overview (current) or Transactions")
		}
		today, hour := "22 Nov 2026", "22 Nov 2026, 09:00"
		if got := chartRow(t, page, "chart-transactions", today); strings.Join(got, " ") != "4 1" {
			t.Errorf("transactions today (all) = %v, want created 4, sent 1", got)
		}
		if got := chartRow(t, page, "chart-api", hour); strings.Join(got, " ") != "5 1 0" {
			t.Errorf("API this hour (all) = %v, want 5 requests, 1 client error, 0 server errors", got)
		}
		if got := chartRow(t, page, "chart-latency", "22 Nov 2026, 08:00"); strings.Join(got, " ") != "no requests" {
			t.Errorf("latency the hour before = %v", got)
		}
		if !strings.Contains(page, "Created: 4 in all; Sent for signing: 1 in all.") {
			t.Error("the transactions chart's description lacks its totals")
		}
		page = b.get("/admin?org=" + itoa64(acme.Org.ID)).status(http.StatusOK).Body.String()
		if got := chartRow(t, page, "chart-transactions", today); strings.Join(got, " ") != "3 1" {
			t.Errorf("transactions today (Acme) = %v, want 3 and 1", got)
		}
		if got := chartRow(t, page, "chart-api", hour); strings.Join(got, " ") != "4 1 0" {
			t.Errorf("API this hour (Acme) = %v, want 4, 1, 0", got)
		}
		if !strings.Contains(page, "Showing: <strong>Acme</strong>") || !strings.Contains(page, `selected>Acme</option>`) {
			t.Error("the filtered overview does not name Acme")
		}
		page = b.get("/admin?org=" + itoa64(other.Org.ID)).status(http.StatusOK).Body.String()
		if got := chartRow(t, page, "chart-transactions", today); strings.Join(got, " ") != "1 0" {
			t.Errorf("transactions today (Other) = %v, want 1 and 0", got)
		}
		b.get("/admin?org=acme").status(http.StatusBadRequest)
		b.get("/admin?org=999999").status(http.StatusNotFound)
	})
}

func TestAdminOverviewWithNoFiguresShowsEmptyStates(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin").status(http.StatusOK).Body.String()
		if n := strings.Count(page, "data-chart-empty"); n != 5 {
			t.Errorf("%d empty states, want 5", n)
		}
		if strings.Contains(page, "<svg class=\"chart__svg\"") {
			t.Error("an empty chart drew an SVG")
		}
		if n := strings.Count(page, "<summary>Show the figures</summary>"); n != 5 {
			t.Errorf("%d figure tables, want 5", n)
		}
	})
}
