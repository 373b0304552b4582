package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/apispec/apiclient"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// auditEventsPage is the body of an API audit list.
type auditEventsPage struct {
	Events []struct {
		ID     string    `json:"id"`
		At     time.Time `json:"at"`
		Actor  struct{ Kind, ID, Name, Via string }
		Action string
		Target struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		TransactionID *string `json:"transactionId"`
		Summary       string
		Address       string
	}
	NextCursor *string `json:"nextCursor"`
}

// walkAudit follows nextCursor from path (with its query) to the end and
// returns the summaries of the events by the actor named "Import job", in
// order, and how many pages it read.
func walkAudit(s *server, token, path string) (summaries []string, pages int) {
	s.t.Helper()
	next := path
	for next != "" {
		var p auditEventsPage
		s.do(api(http.MethodGet, next, token, nil)).status(http.StatusOK).json(&p)
		pages++
		for _, e := range p.Events {
			if e.Actor.Name == "Import job" {
				summaries = append(summaries, e.Summary)
			}
		}
		next = ""
		if p.NextCursor != nil {
			u, _ := url.Parse(path)
			q := u.Query()
			q.Set("cursor", *p.NextCursor)
			next = u.Path + "?" + q.Encode()
		}
		if pages > 100 {
			s.t.Fatal("the cursor never ends")
		}
	}
	return summaries, pages
}

// The API's audit trail: a transaction's events and the organization's,
// oldest first, paged by an opaque cursor (null on the last page), only
// the caller's organization's (another's transaction is 404), since a
// time; bad limits, times and cursors are 400 problems at their
// parameter; no token is 401.
func TestAPIAuditEvents(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other Co")
		newTx := func(token string) string {
			tx, _ := s.create(token, obj{"status": "draft", "referenceId": "AUDIT", "documents": arr{}, "participants": arr{}})
			return tx["id"].(string)
		}
		acmeTx, otherTx := newTx(acme.Token), newTx(other.Token)
		job := models.AuditActor{Kind: models.AuditActorAPIToken, ID: strconv.FormatInt(acme.TokenID, 10), Name: "Import job", Via: "api", Address: "192.0.2.7"}
		var marks []time.Time
		for i, tx := range []string{acmeTx, "", acmeTx, acmeTx, "", acmeTx, acmeTx} {
			env.Clock.Advance(time.Minute)
			marks = append(marks, env.Clock.Now())
			recordAudit(t, env, job, models.AuditEntry{OrganizationID: acme.Org.ID, Action: "participant.renamed", TargetType: "participant",
				TargetID: "p" + strconv.Itoa(i), TransactionID: tx, Summary: "e" + strconv.Itoa(i)})
		}
		recordAudit(t, env, job, models.AuditEntry{OrganizationID: other.Org.ID, Action: "participant.renamed", TransactionID: otherTx, Summary: "other's"})

		// One event whole.
		var p auditEventsPage
		s.do(api(http.MethodGet, "/api/v1/transactions/"+acmeTx+"/audit-events", acme.Token, nil)).status(http.StatusOK).json(&p)
		var e0 = -1
		for i, e := range p.Events {
			if e.Summary == "e0" {
				e0 = i
			}
		}
		if e0 < 0 || p.NextCursor != nil {
			t.Fatalf("the transaction's trail: %+v", p)
		}
		e := p.Events[e0]
		if _, err := strconv.ParseInt(e.ID, 10, 64); err != nil || !e.At.Equal(marks[0]) || e.Actor.Kind != "api_token" || e.Actor.ID != job.ID ||
			e.Actor.Via != "api" || e.Action != "participant.renamed" || e.Target.Type != "participant" || e.Target.ID != "p0" ||
			e.TransactionID == nil || *e.TransactionID != acmeTx || e.Address != "192.0.2.7" {
			t.Errorf("event: %+v", e)
		}

		// Oldest first, in pages; both lists.
		for path, want := range map[string]string{
			"/api/v1/transactions/" + acmeTx + "/audit-events?limit=2":                         "e0 e2 e3 e5 e6",
			"/api/v1/audit-events?limit=2":                                                     "e0 e1 e2 e3 e4 e5 e6",
			"/api/v1/audit-events?limit=1000":                                                  "e0 e1 e2 e3 e4 e5 e6",
			"/api/v1/audit-events?since=" + url.QueryEscape(marks[3].Format(time.RFC3339Nano)): "e3 e4 e5 e6",
			"/api/v1/audit-events?since=" + url.QueryEscape(marks[5].In(time.FixedZone("", 3600)).Format(time.RFC3339Nano)) + "&limit=1": "e5 e6",
		} {
			got, pages := walkAudit(s, acme.Token, path)
			if joined := strings.Join(got, " "); joined != want {
				t.Errorf("%s: %s, want %s", path, joined, want)
			}
			if path == "/api/v1/audit-events?limit=2" && pages < 4 {
				t.Errorf("%s: %d pages", path, pages)
			}
		}
		if got, _ := walkAudit(s, other.Token, "/api/v1/audit-events"); len(got) != 1 || got[0] != "other's" {
			t.Errorf("the other organization reads %v", got)
		}

		// Another organization's transaction: 404, as on the transaction routes.
		s.do(api(http.MethodGet, "/api/v1/transactions/"+otherTx+"/audit-events", acme.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/transactions/"+acmeTx+"/audit-events", other.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/transactions/nope/audit-events", acme.Token, nil)).problem(http.StatusNotFound)

		// Bad input.
		for q, pointer := range map[string]string{
			"limit=0": "query:limit", "limit=1001": "query:limit", "limit=ten": "query:limit",
			"since=yesterday": "query:since", "since=2026-11-26": "query:since", "cursor=abc": "query:cursor",
			"cursor=" + models.EncodeAuditCursor(1) + "x": "query:cursor",
		} {
			p := s.do(api(http.MethodGet, "/api/v1/audit-events?"+q, acme.Token, nil)).problem(http.StatusBadRequest)
			if p.Errors[0].Pointer != pointer {
				t.Errorf("%s: problem at %s, want %s", q, p.Errors[0].Pointer, pointer)
			}
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+acmeTx+"/audit-events?limit=0", acme.Token, nil)).problem(http.StatusBadRequest)
		s.do(api(http.MethodGet, "/api/v1/audit-events", "", nil)).problem(http.StatusUnauthorized)
	})
}

// The client generated from the OpenAPI document reads both audit lists,
// follows nextCursor and passes since as a time.
func TestGeneratedClientReadsTheAuditTrail(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tx, _ := s.create(tenant.Token, obj{"status": "draft", "referenceId": "AUDIT", "documents": arr{}, "participants": arr{}})
		txID := tx["id"].(string)
		actor := models.AuditActor{Kind: models.AuditActorAdmin, ID: "9", Name: "Import job", Via: "console", Address: "192.0.2.9"}
		for i := range 3 {
			env.Clock.Advance(time.Second)
			recordAudit(t, env, actor, models.AuditEntry{OrganizationID: tenant.Org.ID, Action: "document.renamed", TransactionID: txID, Summary: "r" + strconv.Itoa(i)})
		}
		c := s.newAPIClient(tenant.Token)
		ctx := t.Context()
		var seen []string
		limit := 1
		params := &apiclient.ListTransactionAuditEventsParams{Limit: &limit}
		for range 20 {
			res, err := c.ListTransactionAuditEventsWithResponse(ctx, txID, params)
			if err != nil || res.JSON200 == nil {
				t.Fatalf("list: %v %s", err, res.Body)
			}
			for _, e := range res.JSON200.Events {
				if e.Actor.Name == "Import job" {
					seen = append(seen, e.Summary)
					if e.Actor.Kind != apiclient.AuditEventActorKindAdmin || e.Actor.Via != "console" || e.TransactionId == nil || *e.TransactionId != txID {
						t.Errorf("event: %+v", e)
					}
				}
			}
			if res.JSON200.NextCursor == nil {
				break
			}
			params.Cursor = res.JSON200.NextCursor
		}
		if strings.Join(seen, " ") != "r0 r1 r2" {
			t.Errorf("read %v", seen)
		}
		since := env.Clock.Now()
		res, err := c.ListAuditEventsWithResponse(ctx, &apiclient.ListAuditEventsParams{Since: &since})
		if err != nil || res.JSON200 == nil || len(res.JSON200.Events) != 1 || res.JSON200.Events[0].Summary != "r2" || res.JSON200.NextCursor != nil {
			t.Fatalf("since: %v %s", err, res.Body)
		}
	})
}

// An event not sealed yet says so ("sealed": false); once the sealer has
// chained it, the field is gone and the event reads as it always did.
func TestAPIAuditEventsSayWhichAreNotSealedYet(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		ctx := t.Context()
		if err := env.Store.SealAuditBacklog(ctx); err != nil {
			t.Fatal(err)
		}
		actor := models.AuditActor{Kind: models.AuditActorAPIToken, ID: "9", Name: "Import job", Via: "api"}
		recordAudit(t, env, actor, models.AuditEntry{OrganizationID: tenant.Org.ID, Action: "document.renamed", Summary: "fresh"})
		c := s.newAPIClient(tenant.Token)
		read := func() (sealed []*bool, body string) {
			res, err := c.ListAuditEventsWithResponse(ctx, &apiclient.ListAuditEventsParams{})
			if err != nil || res.JSON200 == nil {
				t.Fatalf("list: %v %s", err, res.Body)
			}
			for _, e := range res.JSON200.Events {
				sealed = append(sealed, e.Sealed)
			}
			return sealed, string(res.Body)
		}
		sealed, body := read()
		last := sealed[len(sealed)-1]
		if last == nil || *last || strings.Count(body, `"sealed":false`) != 1 {
			t.Fatalf("before sealing: %s", body)
		}
		for _, s := range sealed[:len(sealed)-1] {
			if s != nil {
				t.Fatalf("a sealed event says sealed: %s", body)
			}
		}
		if err := env.Store.SealAuditBacklog(ctx); err != nil {
			t.Fatal(err)
		}
		if _, body := read(); strings.Contains(body, `"sealed"`) {
			t.Fatalf("after sealing: %s", body)
		}
	})
}
