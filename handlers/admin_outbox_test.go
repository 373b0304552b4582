package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestAdminOutboxListsMessagesAndRetriesDeadOnes(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		org := "/admin/organizations/" + itoa64(tenant.Org.ID)

		// Register an endpoint in the console: the secret is shown once.
		page := b.post(org+"/webhooks", url.Values{"csrf": {token}, "url": {"https://hooks.acme.example/in"},
			"events": {models.WebhookTransactionUpdated, models.WebhookTransactionESignPending}, "description": {"CRM"}}).status(http.StatusCreated).Body.String()
		if !strings.Contains(page, "data-new-webhook-secret>whsec_") || !strings.Contains(page, "hooks.acme.example/in") {
			t.Fatalf("no secret shown:\n%s", page)
		}
		page = b.get(org).status(http.StatusOK).Body.String()
		if strings.Contains(page, "whsec_") || !strings.Contains(page, "data-webhook-id=") {
			t.Fatal("the organization page shows a secret again, or not the endpoint")
		}
		bad := b.post(org+"/webhooks", url.Values{"csrf": {token}, "url": {"http://192.168.1.1/in"}, "events": {models.WebhookTransactionUpdated}}).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(bad, "https://") {
			t.Fatal("a refused endpoint does not say why")
		}
		hooks, _ := env.Store.ListWebhooks(t.Context(), tenant.Org.ID)
		if len(hooks) != 1 {
			t.Fatalf("%d endpoints", len(hooks))
		}

		// A change queues calls; one is made dead by hand, as after its last failed attempt.
		tr := openTagRoom(t, s, tenant, nil)
		body := s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).Body.String()
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, body)).status(http.StatusCreated)
		var msgs []models.OutboxMessage
		env.DB.DB.Order("id").Find(&msgs)
		if len(msgs) != 1 || msgs[0].Event != models.WebhookTransactionUpdated {
			t.Fatalf("queued %+v", msgs)
		}
		env.DB.DB.Model(&models.OutboxMessage{}).Where("id = ?", msgs[0].ID).
			Updates(map[string]any{"status": models.MessageDead, "attempts": 10, "last_error": "the endpoint answered 503 Service Unavailable"})

		page = b.get("/admin/outbox").status(http.StatusOK).Body.String()
		for _, want := range []string{`data-message-id="` + msgs[0].ID + `"`, `data-status="dead"`, "hooks.acme.example/in", "503 Service Unavailable", ">Retry</button>", `data-filter="dead"`} {
			if !strings.Contains(page, want) {
				t.Errorf("outbox page lacks %s", want)
			}
		}
		// The transaction's page lists its messages too.
		if txPage := b.get("/admin/transactions/" + tr.room.TransactionID).status(http.StatusOK).Body.String(); !strings.Contains(txPage, `data-message-id="`+msgs[0].ID+`"`) {
			t.Fatal("the transaction page does not list its outgoing messages")
		}
		if sent := b.get("/admin/outbox?status=sent").status(http.StatusOK).Body.String(); strings.Contains(sent, "data-message-id=") {
			t.Fatal("the sent filter shows a dead message")
		}
		b.get("/admin/outbox?status=bogus").status(http.StatusBadRequest)

		b.post("/admin/outbox/"+msgs[0].ID+"/retry", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		var m models.OutboxMessage
		env.DB.DB.First(&m, "id = ?", msgs[0].ID)
		if m.Status != models.MessagePending || m.Attempts != 0 {
			t.Fatalf("after retry: %s, %d attempts", m.Status, m.Attempts)
		}
		b.post("/admin/outbox/"+msgs[0].ID+"/retry", url.Values{"csrf": {token}}).status(http.StatusConflict)
		if act := b.get("/admin/activity").Body.String(); !strings.Contains(act, "retry") || !strings.Contains(act, msgs[0].ID) {
			t.Fatal("the retry is not in the activity log")
		}

		// Delete the endpoint from the console.
		b.post(org+"/webhooks/"+hooks[0].ID+"/delete", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		if hooks, _ := env.Store.ListWebhooks(t.Context(), tenant.Org.ID); len(hooks) != 0 {
			t.Fatal("the endpoint was not deleted")
		}
	})
}
