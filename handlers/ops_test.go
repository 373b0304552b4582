package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestHealthReadyAndMetrics(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env, withMetricsToken("scrape-token"))
	s.do(httptest.NewRequest(http.MethodGet, "/healthz", nil)).status(http.StatusOK)
	s.do(httptest.NewRequest(http.MethodGet, "/readyz", nil)).status(http.StatusOK)
	s.do(api(http.MethodGet, "/api/v1/documents/x", "", nil)).status(http.StatusUnauthorized)
	m := s.do(metricsRequest("scrape-token")).status(http.StatusOK)
	body := m.Body.String()
	for _, want := range []string{
		`markuproom_http_requests_total{method="GET",route="/healthz",status="200"} 1`,
		`markuproom_http_requests_total{method="GET",route="/api/v1/documents/:id",status="401"} 1`,
		`markuproom_http_request_duration_seconds_bucket{method="GET",route="/readyz"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestReadyzReportsAnUnreachableDatabase(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env)
	if err := env.DB.Close(); err != nil {
		t.Fatal(err)
	}
	s.do(httptest.NewRequest(http.MethodGet, "/readyz", nil)).status(http.StatusServiceUnavailable)
}

func TestEveryResponseCarriesARequestID(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env)
	for _, path := range []string{"/", "/healthz", "/nowhere", "/api/v1/nowhere", "/api/openapi.json"} {
		res := s.do(httptest.NewRequest(http.MethodGet, path, nil))
		if res.Header().Get("X-Request-Id") == "" {
			t.Errorf("%s: no X-Request-Id", path)
		}
	}
	req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
	req.Header.Set("X-Request-Id", "trace-abc-123")
	if got := s.do(req).Header().Get("X-Request-Id"); got != "trace-abc-123" {
		t.Errorf("incoming request id not kept: %q", got)
	}
	req = httptest.NewRequest(http.MethodGet, "/healthz", nil)
	req.Header.Set("X-Request-Id", "bad id\nwith newline")
	if got := s.do(req).Header().Get("X-Request-Id"); strings.ContainsAny(got, " \n") || got == "" {
		t.Errorf("malformed incoming request id echoed: %q", got)
	}
}

func TestUnknownAPIRouteIsAProblemAndPagesAreHTML(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env)
	res := s.do(httptest.NewRequest(http.MethodGet, "/api/v2/nothing", nil))
	res.problem(http.StatusNotFound)
	page := s.do(httptest.NewRequest(http.MethodGet, "/no/such/page", nil)).status(http.StatusNotFound)
	if !strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("browser 404 is %q", page.Header().Get("Content-Type"))
	}
	res = s.do(httptest.NewRequest(http.MethodDelete, "/healthz", nil))
	if res.Code != http.StatusMethodNotAllowed {
		t.Fatalf("DELETE /healthz = %d, want 405", res.Code)
	}
}

func TestPanicsBecomeA500ThatRevealsNothing(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env, withStore(func(st handlers.Store) handlers.Store { return &panicOnAuth{Store: st} }))
	res := s.do(api(http.MethodGet, "/api/v1/documents/x", "anything", nil))
	p := res.problem(http.StatusInternalServerError)
	if strings.Contains(res.Body.String(), "secret internal detail") || strings.Contains(res.Body.String(), "goroutine") {
		t.Fatalf("500 leaks internals: %s", res.Body.String())
	}
	if p.Type != "/problems/internal" {
		t.Fatalf("type = %q", p.Type)
	}
}
