package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// refuseInserts makes every INSERT into table fail (a trigger) until the
// returned function drops it.
func refuseInserts(t *testing.T, env *modelstest.Env, table string) func() {
	t.Helper()
	db := env.DB.DB
	var create, drop []string
	if env.DB.Dialect == models.DialectPostgres {
		create = []string{
			`CREATE OR REPLACE FUNCTION refuse_insert() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`,
			`CREATE TRIGGER refuse_insert BEFORE INSERT ON ` + table + ` FOR EACH ROW EXECUTE FUNCTION refuse_insert()`,
		}
		drop = []string{`DROP TRIGGER refuse_insert ON ` + table, `DROP FUNCTION refuse_insert()`}
	} else {
		create = []string{`CREATE TRIGGER refuse_insert BEFORE INSERT ON ` + table + ` BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`}
		drop = []string{`DROP TRIGGER refuse_insert`}
	}
	for _, q := range create {
		if err := db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		t.Helper()
		for _, q := range drop {
			if err := db.Exec(q).Error; err != nil {
				t.Fatal(err)
			}
		}
	}
}

func auditCount(t *testing.T, env *modelstest.Env) int64 {
	t.Helper()
	var n int64
	if err := env.DB.DB.Model(&models.AuditEvent{}).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// A change and its audit event commit or roll back together: a change that
// fails after its event was queued (its history row refused) leaves no
// audit row, and an audit row refused undoes the change, through an API
// route (a replace) and a room route (a participant renamed).
func TestAuditEventsCommitWithTheirChange(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		path := "/api/v1/transactions/" + tr.room.TransactionID
		var tx map[string]any
		s.do(api(http.MethodGet, path, tenant.Token, nil)).status(http.StatusOK).json(&tx)
		tx["referenceId"] = "changed"
		robin := tr.participantIDs(t)[1]
		rename := url.Values{"csrf": {tr.csrf}, "firstName": {"Robin"}, "lastName": {"Seller-Smith"}, "email": {"robin@example.com"}}
		unchanged := func(what string) {
			t.Helper()
			got, err := env.Store.GetTransaction(t.Context(), tenant.Org.ID, tr.room.TransactionID)
			if err != nil {
				t.Fatal(err)
			}
			if got.ReferenceID == "changed" || got.Participants[1].LastName != "Seller" || got.Version != 1 {
				t.Fatalf("%s: the change was kept: reference %q, %q, version %d", what, got.ReferenceID, got.Participants[1].LastName, got.Version)
			}
		}

		for _, table := range []string{"transaction_events", "audit_events"} {
			before := auditCount(t, env)
			undo := refuseInserts(t, env, table)
			if res := s.do(jsonReq(http.MethodPut, path, tenant.Token, tx)); res.Code < 500 {
				t.Fatalf("%s refused: the replace answered %d", table, res.Code)
			}
			if res := tr.b.post(tr.path+"/participants/"+robin, rename); res.Code < 500 {
				t.Fatalf("%s refused: the rename answered %d", table, res.Code)
			}
			undo()
			unchanged(table + " refused")
			if n := auditCount(t, env); n != before {
				t.Fatalf("%s refused: %d audit events were left", table, n-before)
			}
		}

		// Without the trigger both go through, each with its event.
		before := auditCount(t, env)
		s.do(jsonReq(http.MethodPut, path, tenant.Token, tx)).status(http.StatusCreated)
		tr.b.post(tr.path+"/participants/"+robin, rename).status(http.StatusSeeOther)
		if n := auditCount(t, env); n < before+2 {
			t.Fatalf("%d audit events for two changes", n-before)
		}
		renamed, err := env.Store.ListAuditEvents(t.Context(), models.AuditFilter{OrganizationID: &tenant.Org.ID, Action: "participant.renamed"}, models.AuditNewestFirst, 0, 1)
		if err != nil || len(renamed.Events) != 1 {
			t.Fatalf("no participant.renamed event: %v", err)
		}
		e := renamed.Events[0]
		if e.Summary != "Renamed participant Robin Seller → Robin Seller-Smith" || e.TargetType != "participant" || e.TargetID != robin ||
			e.TransactionID != tr.room.TransactionID || e.ActorKind != models.AuditActorRoom || e.ActorID != tr.room.ID ||
			!strings.HasPrefix(e.ActorName, "Sam Sender · Markup Room · session ") || e.Via != "room" || e.ClientAddr != "192.0.2.1" {
			t.Fatalf("participant.renamed event: %+v", e)
		}
	})
}
