package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models/modelstest"
)

// A storage error answers with the problem type of what went wrong, not a
// 500: here a webhook endpoint deleted while a replace queues its call (a
// race between two requests on PostgreSQL, provoked inside the replace's
// own database transaction for the test) breaks the outbox's foreign key,
// which is a conflict to retry (409), and the replace leaves nothing behind.
func TestStorageErrorsAnswerWithTheirProblemType(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		var hook struct{ ID string }
		s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", tenant.Token, map[string]any{
			"url": "https://hooks.acme.example/in", "events": []string{"transaction.updated"},
		})).status(http.StatusCreated).json(&hook)
		d := s.upload(tenant.Token)
		created, _ := s.create(tenant.Token, txPayload(d, "r"))
		path := "/api/v1/transactions/" + created["id"].(string)
		before := s.do(api(http.MethodGet, path, tenant.Token, nil)).status(http.StatusOK).Body.String()

		const name = "test:delete_endpoint_before_outbox_insert"
		err := env.DB.DB.Callback().Create().Before("gorm:create").Register(name, func(db *gorm.DB) {
			if db.Statement.Table != "outbox" {
				return
			}
			// The endpoint goes in the same database transaction, just before its call is queued.
			if _, err := db.Statement.ConnPool.ExecContext(db.Statement.Context, "DELETE FROM webhook_endpoints WHERE id = '"+hook.ID+"'"); err != nil {
				_ = db.AddError(err)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		p := s.do(jsonReq(http.MethodPut, path, tenant.Token, txPayload(d, "changed"))).problem(http.StatusConflict)
		if err := env.DB.DB.Callback().Create().Remove(name); err != nil {
			t.Fatal(err)
		}
		if p.Type != "/problems/conflict" || !strings.Contains(p.Detail, "retry") {
			t.Fatalf("problem %+v", p)
		}

		after := s.do(api(http.MethodGet, path, tenant.Token, nil)).status(http.StatusOK).Body.String()
		if after != before {
			t.Fatalf("the refused PUT changed the transaction:\nbefore %s\nafter  %s", truncate(before), truncate(after))
		}
		if list := s.do(api(http.MethodGet, "/api/v1/webhooks", tenant.Token, nil)).status(http.StatusOK).Body.String(); !strings.Contains(list, hook.ID) {
			t.Fatalf("the endpoint's deletion was not rolled back: %s", list)
		}
	})
}
