package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// While PostgreSQL cannot be reached (a TCP proxy the test controls drops
// every connection; no other database is disturbed) the API answers 503
// problems with Retry-After and /readyz fails; when it can be reached again
// both recover without a restart.
func TestADatabaseOutageAnswers503AndRecovers(t *testing.T) {
	t.Parallel()
	if !slices.Contains(modelstest.Dialects(), models.DialectPostgres) {
		t.Skip("the outage is a PostgreSQL connection's: set " + modelstest.PostgresURLEnv)
	}
	env := modelstest.New(t, models.DialectPostgres)
	direct, err := url.Parse(env.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := modelstest.StartProxy(t, direct.Host)
	db, err := models.OpenDatabase(context.Background(), models.DatabaseOptions{URL: proxy.ProxiedURL(t, env.URL())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	proxied := models.NewStore(db, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir()})
	s := newServer(t, env, withStore(func(handlers.Store) handlers.Store { return proxied }))
	tenant := env.NewTenant(t, "Acme")
	// A token not checked before the outage: its check needs the database
	// (an accepted token is remembered for a second, docs/decisions.md).
	fresh := env.NewTenant(t, "Fresh")
	list := func() *response { return s.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)) }
	ready := func() int { return s.do(httptest.NewRequest(http.MethodGet, "/readyz", nil)).Code }

	list().status(http.StatusOK)
	if got := ready(); got != http.StatusOK {
		t.Fatalf("/readyz before the outage: %d", got)
	}

	proxy.Cut()
	for _, req := range []func() *response{
		list,
		func() *response {
			return s.do(jsonReq(http.MethodPost, "/api/v1/transactions", fresh.Token, `{"status":"draft"}`))
		},
	} {
		res := req()
		p := res.problem(http.StatusServiceUnavailable)
		if p.Type != "/problems/unavailable" || res.Header().Get("Retry-After") == "" {
			t.Errorf("during the outage: %s, Retry-After %q", p.Type, res.Header().Get("Retry-After"))
		}
	}
	if got := ready(); got != http.StatusServiceUnavailable {
		t.Errorf("/readyz during the outage: %d, want 503", got)
	}

	proxy.Restore()
	deadline := time.Now().Add(10 * time.Second)
	for list().Code != http.StatusOK && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	list().status(http.StatusOK)
	if got := ready(); got != http.StatusOK {
		t.Errorf("/readyz after the outage: %d", got)
	}
}
