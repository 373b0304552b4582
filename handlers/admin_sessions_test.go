package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/static"
)

// adminBrowserAt signs in from client address addr (host only).
func adminBrowserAt(t *testing.T, s *server, email, addr string) *browser {
	t.Helper()
	b := s.browser()
	b.remoteAddr = addr + ":4711"
	token := csrf(t, b.get("/admin/login").status(http.StatusOK).Body.String())
	b.post("/admin/login", url.Values{"csrf": {token}, "email": {email}, "password": {"correct horse"}}).status(http.StatusSeeOther)
	b.get("/admin/transactions").status(http.StatusOK)
	return b
}

// signedOut asserts that a console page sends the browser to the sign-in page.
func (b *browser) signedOut(t *testing.T) {
	t.Helper()
	res := b.get("/admin/transactions").status(http.StatusSeeOther)
	if loc := res.Header().Get("Location"); loc != "/admin/login" {
		t.Fatalf("redirected to %q, want /admin/login", loc)
	}
}

func TestAdminCookieCopiedBeforeSignOutStopsWorking(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		// Another instance: its own store (connection pool) on the same database, the same secret.
		other := newServer(t, env, withStore(func(handlers.Store) handlers.Store { return env.AnotherInstance(t) }))
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")

		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		copied := b.copyOf(s)
		elsewhere := b.copyOf(other)
		copied.get("/admin/transactions").status(http.StatusOK)
		elsewhere.get("/admin/transactions").status(http.StatusOK)

		b.post("/admin/logout", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		b.signedOut(t)
		copied.signedOut(t)
		elsewhere.signedOut(t)
		// Actions too: 401, not done.
		copied.post("/admin/organizations", url.Values{"csrf": {token}, "name": {"Evil"}}).status(http.StatusUnauthorized)

		// Signing in again in a browser ends the session it had.
		b, token = adminSignIn(t, s, "ada@example.com", "correct horse")
		copied = b.copyOf(s)
		b.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"correct horse"}}).status(http.StatusSeeOther)
		b.get("/admin/transactions").status(http.StatusOK)
		copied.signedOut(t)
	})
}

func TestDisablingAUserEndsTheirConsoleSessions(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		ada := newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		newAdmin(t, env, tenant.Org.ID, "bob@example.com")

		adas, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		copied := adas.copyOf(s)
		bob, token := adminSignIn(t, s, "bob@example.com", "correct horse")
		bob.post("/admin/organizations/"+itoa64(tenant.Org.ID)+"/users/"+itoa64(ada.ID)+"/disable", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		adas.signedOut(t)
		copied.signedOut(t)
		bob.get("/admin/transactions").status(http.StatusOK)
	})
}

func TestSignOutEverywhere(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		newAdmin(t, env, tenant.Org.ID, "bob@example.com")

		first, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		second, _ := adminSignIn(t, s, "ada@example.com", "correct horse") // another browser (cookie jar)
		bob, _ := adminSignIn(t, s, "bob@example.com", "correct horse")

		page := first.get("/admin/organizations").status(http.StatusOK).Body.String()
		if !strings.Contains(page, `action="/admin/sessions/revoke-all"`) || !strings.Contains(page, "Sign out everywhere") {
			t.Fatal("console page lacks the Sign out everywhere button")
		}
		// CSRF protected: a forged or missing token changes nothing.
		first.post("/admin/sessions/revoke-all", url.Values{"csrf": {"forged"}}).status(http.StatusForbidden)
		first.post("/admin/sessions/revoke-all", url.Values{}).status(http.StatusForbidden)
		second.get("/admin/transactions").status(http.StatusOK)
		// Anonymous: 401.
		s.browser().post("/admin/sessions/revoke-all", url.Values{"csrf": {token}}).status(http.StatusUnauthorized)

		res := first.post("/admin/sessions/revoke-all", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		if res.Header().Get("Location") != "/admin/login" {
			t.Fatalf("went to %q", res.Header().Get("Location"))
		}
		first.signedOut(t)
		second.signedOut(t)
		bob.get("/admin/transactions").status(http.StatusOK) // another admin's session goes on

		activity, err := env.Store.ListActivity(context.Background(), 50, 0)
		if err != nil {
			t.Fatal(err)
		}
		if a := activity[0]; a.Action != models.ActivitySignOutEverywhere || a.Actor != "ada@example.com" || a.Target != "2 sessions" {
			t.Fatalf("newest activity = %+v", a)
		}
		// Signing in again works.
		adminSignIn(t, s, "ada@example.com", "correct horse")
	})
}

func TestAdminLockoutIsPerAccountAndAddress(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")

		attacker := s.browser()
		attacker.remoteAddr = "198.51.100.66:4711"
		token := csrf(t, attacker.get("/admin/login").Body.String())
		for i := 0; i < models.LoginFailuresPerAccount; i++ {
			attacker.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"guess"}}).status(http.StatusUnauthorized)
		}
		res := attacker.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"correct horse"}}).status(http.StatusTooManyRequests)
		if res.Header().Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
		// The admin, from another address, signs in (slowed down, not locked out).
		adminBrowserAt(t, s, "ada@example.com", "203.0.113.8")
		if waits := env.Sleeps.Waits(); len(waits) != 1 || waits[0] != models.LoginDelay(models.LoginFailuresPerAccount) {
			t.Fatalf("waits = %v", waits)
		}
	})
}

func TestForwardedForIsBelievedOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		failFrom := func(s *server, forwardedFor string) string {
			t.Helper()
			b := s.browser() // connects from 192.0.2.1 (httptest)
			token := csrf(t, b.get("/admin/login").Body.String())
			req := httptestRequest(http.MethodPost, "/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"wrong"}})
			req.Header.Set("X-Forwarded-For", forwardedFor)
			b.do(req).status(http.StatusUnauthorized)
			activity, err := env.Store.ListActivity(context.Background(), 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			return activity[0].ClientAddr
		}
		// By default nobody is a trusted proxy: a forged header is ignored…
		if got := failFrom(newServer(t, env), "203.0.113.50"); got != "192.0.2.1" {
			t.Fatalf("default: client address %q, want the peer's 192.0.2.1", got)
		}
		// …so it cannot dodge the per-address lockout either.
		s := newServer(t, env)
		for i := 1; i < models.LoginFailuresPerAccount; i++ {
			failFrom(s, "203.0.113."+itoa64(int64(60+i)))
		}
		b := s.browser()
		token := csrf(t, b.get("/admin/login").Body.String())
		req := httptestRequest(http.MethodPost, "/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"correct horse"}})
		req.Header.Set("X-Forwarded-For", "203.0.113.99")
		b.do(req).status(http.StatusTooManyRequests)

		// Behind a listed proxy, the header names the client.
		proxied := newServer(t, env, func(d *handlers.Deps) { d.Config.TrustedProxies = []string{"192.0.2.0/24"} })
		if got := failFrom(proxied, "203.0.113.50"); got != "203.0.113.50" {
			t.Fatalf("trusted proxy: client address %q, want 203.0.113.50", got)
		}
		// A bad proxy list is refused when the server is built.
		assets, err := static.New()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := handlers.New(handlers.Deps{Config: handlers.Config{SessionSecret: make([]byte, 32), TrustedProxies: []string{"not-an-ip"}},
			Store: env.Store, Assets: assets, Registry: prometheus.NewRegistry()}); err == nil {
			t.Fatal("a bad proxy was accepted")
		}
	})
}
