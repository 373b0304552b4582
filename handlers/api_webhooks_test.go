package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestWebhookEndpointsAPI(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a, b := env.NewTenant(t, "Acme"), env.NewTenant(t, "Beta")

		var created struct {
			ID, URL, Secret, Description string
			Events                       []string
		}
		res := s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", a.Token, map[string]any{
			"url": "https://hooks.acme.example/markuproom", "events": []string{"transaction.esign_pending", "markup_room.completed"}, "description": "CRM",
		})).status(http.StatusCreated).json(&created)
		if !strings.HasPrefix(created.Secret, "whsec_") || len(created.Secret) < 40 || created.ID == "" || len(created.Events) != 2 {
			t.Fatalf("created: %+v", created)
		}
		if res.Header().Get("Location") != "/api/v1/webhooks/"+created.ID || res.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("headers: %v", res.Header())
		}

		// Listed without the secret; another organization sees nothing and cannot delete it.
		list := s.do(api(http.MethodGet, "/api/v1/webhooks", a.Token, nil)).status(http.StatusOK).Body.String()
		if !strings.Contains(list, created.ID) || strings.Contains(list, "whsec_") || strings.Contains(list, "secret") {
			t.Fatalf("list: %s", list)
		}
		if other := s.do(api(http.MethodGet, "/api/v1/webhooks", b.Token, nil)).status(http.StatusOK).Body.String(); strings.Contains(other, created.ID) {
			t.Fatalf("another organization sees the endpoint: %s", other)
		}
		s.do(api(http.MethodDelete, "/api/v1/webhooks/"+created.ID, b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/webhooks", "", nil)).problem(http.StatusUnauthorized)

		// Every problem of a bad request at once.
		p := s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", a.Token, map[string]any{
			"url": "http://10.0.0.5/hook", "events": []string{"transaction.signed", "transaction.updated", "transaction.updated"}, "secret": "mine",
		})).problem(http.StatusBadRequest)
		codes := map[string]string{}
		for _, e := range p.Errors {
			codes[e.Pointer] = e.Code
		}
		want := map[string]string{"#/url": "invalid_url", "#/events/0": "invalid_enum", "#/events/2": "duplicate", "#/secret": "unknown_field"}
		for ptr, code := range want {
			if codes[ptr] != code {
				t.Errorf("%s: got %q, want %q (all: %v)", ptr, codes[ptr], code, codes)
			}
		}
		for _, u := range []string{"https://127.0.0.1/x", "https://169.254.169.254/latest", "https://localhost:8443/x", "https://[fd00:ec2::254]/",
			"https://2130706433/", "https://0177.0.0.1/", "https://0x7f000001/", "https://127.1/", "https://[::127.0.0.1]/",
			"https://localhost./", "https://１２７.０.０.１/", "https://①②⑦.0.0.1/"} {
			s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", a.Token, map[string]any{"url": u, "events": []string{"transaction.updated"}})).problem(http.StatusBadRequest)
		}

		s.do(api(http.MethodDelete, "/api/v1/webhooks/"+created.ID, a.Token, nil)).status(http.StatusNoContent)
		s.do(api(http.MethodDelete, "/api/v1/webhooks/"+created.ID, a.Token, nil)).problem(http.StatusNotFound)
		if list := s.do(api(http.MethodGet, "/api/v1/webhooks", a.Token, nil)).status(http.StatusOK).Body.String(); strings.Contains(list, created.ID) {
			t.Fatalf("deleted endpoint still listed: %s", list)
		}

		// At most MaxWebhooksPerOrg endpoints.
		for i := range models.MaxWebhooksPerOrg {
			s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", a.Token, map[string]any{"url": "https://hooks.acme.example/" + string(rune('a'+i)), "events": []string{"transaction.updated"}})).status(http.StatusCreated)
		}
		s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", a.Token, map[string]any{"url": "https://hooks.acme.example/one-more", "events": []string{"transaction.updated"}})).problem(http.StatusUnprocessableEntity)
	})
}

// Registrations racing for the last places stop at the limit.
func TestWebhookLimitHoldsUnderConcurrentRegistrations(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		var wg sync.WaitGroup
		for i := range models.MaxWebhooksPerOrg + 10 {
			wg.Go(func() {
				_, _ = env.Store.CreateWebhook(t.Context(), tenant.Org.ID, models.WebhookPolicy{},
					models.NewWebhook{URL: fmt.Sprintf("https://hooks.acme.example/%d", i), Events: []string{models.WebhookTransactionUpdated}})
			})
		}
		wg.Wait()
		hooks, err := env.Store.ListWebhooks(t.Context(), tenant.Org.ID)
		if err != nil || len(hooks) != models.MaxWebhooksPerOrg {
			t.Fatalf("%d endpoints (%v), want %d", len(hooks), err, models.MaxWebhooksPerOrg)
		}
	})
}
