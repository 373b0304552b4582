package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// Idempotent replays never carry a stale or deleted endpoint's secret and
// are never cacheable; rotate-secret shows the new secret once.
func TestWebhookSecretReplaysAndRotation(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a, b := env.NewTenant(t, "Acme"), env.NewTenant(t, "Beta")
		register := func() (*response, struct{ ID, Secret string }) {
			req := jsonReq(http.MethodPost, "/api/v1/webhooks", a.Token, map[string]any{"url": "https://hooks.acme.example/x", "events": []string{"transaction.updated"}})
			req.Header.Set("Idempotency-Key", "reg-1")
			var out struct{ ID, Secret string }
			res := s.do(req)
			if res.Code == http.StatusCreated {
				res.json(&out)
			}
			return res, out
		}
		res, first := register()
		if res.Code != http.StatusCreated || !strings.HasPrefix(first.Secret, "whsec_") || res.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("registration: %d %v", res.Code, res.Header())
		}
		res, again := register()
		if res.Code != http.StatusCreated || again.ID != first.ID || again.Secret != first.Secret ||
			res.Header().Get("Idempotent-Replayed") != "true" || res.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("replay: %d %+v %v", res.Code, again, res.Header())
		}

		// Rotation: 200 with a new secret, not cacheable; another organization's id is a 404.
		var rotated struct{ ID, Secret string }
		res = s.do(api(http.MethodPost, "/api/v1/webhooks/"+first.ID+"/rotate-secret", a.Token, nil)).status(http.StatusOK).json(&rotated)
		if rotated.ID != first.ID || !strings.HasPrefix(rotated.Secret, "whsec_") || rotated.Secret == first.Secret || res.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("rotate: %+v %v", rotated, res.Header())
		}
		s.do(api(http.MethodPost, "/api/v1/webhooks/"+first.ID+"/rotate-secret", b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodPost, "/api/v1/webhooks/nope/rotate-secret", a.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodPost, "/api/v1/webhooks/"+first.ID+"/rotate-secret", "", nil)).problem(http.StatusUnauthorized)

		// A replay now shows the endpoint's current secret: the stored response has none.
		if res, again = register(); res.Code != http.StatusCreated || again.Secret != rotated.Secret {
			t.Fatalf("replay after rotation: %d, secret %q want %q", res.Code, again.Secret, rotated.Secret)
		}

		// After a delete, a replay shows no secret at all.
		s.do(api(http.MethodDelete, "/api/v1/webhooks/"+first.ID, a.Token, nil)).status(http.StatusNoContent)
		res, _ = register()
		if res.Code != http.StatusGone || strings.Contains(res.Body.String(), "whsec_") || res.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("replay after delete: %d %s", res.Code, res.Body)
		}
	})
}

// rotate-secret under an Idempotency-Key: a retry rotates nothing and
// answers the first rotation's secret again while it still signs; the same
// key on another endpoint is a 422; once that secret no longer signs, 410.
func TestRotateSecretHonoursIdempotencyKey(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "Acme")
		hook := func(url string) (id, secret string) {
			var out struct{ ID, Secret string }
			s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", a.Token, map[string]any{"url": url, "events": []string{"transaction.updated"}})).
				status(http.StatusCreated).json(&out)
			return out.ID, out.Secret
		}
		id, original := hook("https://hooks.acme.example/a")
		other, _ := hook("https://hooks.acme.example/b")
		rotate := func(id, key string) *response {
			req := api(http.MethodPost, "/api/v1/webhooks/"+id+"/rotate-secret", a.Token, nil)
			req.Header.Set("Idempotency-Key", key)
			return s.do(req)
		}
		secretOf := func(res *response) string {
			var out struct{ ID, Secret string }
			res.status(http.StatusOK).json(&out)
			if res.Header().Get("Cache-Control") != "no-store" {
				t.Fatalf("a rotation's answer is cacheable: %v", res.Header())
			}
			return out.Secret
		}
		first := secretOf(rotate(id, "rot-1"))
		res := rotate(id, "rot-1")
		if got := secretOf(res); got != first || res.Header().Get("Idempotent-Replayed") != "true" {
			t.Fatalf("a retried rotation answered %q (replayed %q), want the first answer's %q", got, res.Header().Get("Idempotent-Replayed"), first)
		}
		w, err := env.Store.GetWebhook(context.Background(), a.Org.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		if w.Secret != first || w.PreviousSecret != original {
			t.Fatal("a retried rotation rotated again: the original secret no longer signs beside the new one")
		}
		hasError(t, rotate(other, "rot-1").problem(http.StatusUnprocessableEntity), "header:Idempotency-Key", "idempotency_key_reused")

		// Rotated again under another key: the first rotation's secret still
		// signs (as the previous one) and is replayed; after a third, it is gone.
		second := secretOf(rotate(id, "rot-2"))
		if second == first || secretOf(rotate(id, "rot-1")) != first {
			t.Fatal("a replay after another rotation does not show the first rotation's secret")
		}
		secretOf(rotate(id, "rot-3"))
		res = rotate(id, "rot-1")
		if res.Code != http.StatusGone || strings.Contains(res.Body.String(), "whsec_") {
			t.Fatalf("a replay whose secret no longer signs: %d %s", res.Code, res.Body)
		}
	})
}

// A room creation's replay carries its URL again, never cacheable.
func TestRoomReplayIsNotCacheable(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		body := roomBody(tenant, s.upload(tenant.Token))
		var urls []string
		for i := range 2 {
			req := jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)
			req.Header.Set("Idempotency-Key", "room-1")
			var r roomResp
			res := s.do(req).status(http.StatusOK).json(&r)
			if res.Header().Get("Cache-Control") != "no-store" || (i == 1) != (res.Header().Get("Idempotent-Replayed") == "true") {
				t.Fatalf("response %d: %v", i, res.Header())
			}
			urls = append(urls, r.URL)
		}
		if urls[0] == "" || urls[0] != urls[1] {
			t.Fatalf("urls %v", urls)
		}
	})
}
