package handlers_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
)

func withMetricsToken(token string) serverOption {
	return func(d *handlers.Deps) { d.Config.MetricsToken = token }
}

// metricsRequest is GET /metrics with the token as a bearer token (none when empty).
func metricsRequest(token string) *http.Request {
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

func TestMetricsOnTheMainListenerNeedTheToken(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env, withMetricsToken("s3cret-scrape-token"))
	for name, req := range map[string]*http.Request{
		"no token":        metricsRequest(""),
		"wrong token":     metricsRequest("s3cret-scrape-tokeN"),
		"prefix of token": metricsRequest("s3cret"),
		"longer token":    metricsRequest("s3cret-scrape-token2"),
		"basic auth": func() *http.Request {
			r := metricsRequest("")
			r.SetBasicAuth("prometheus", "s3cret-scrape-token")
			return r
		}(),
	} {
		res := s.do(req)
		p := res.problem(http.StatusUnauthorized)
		if !strings.HasPrefix(res.Header().Get("WWW-Authenticate"), "Bearer ") {
			t.Errorf("%s: WWW-Authenticate %q", name, res.Header().Get("WWW-Authenticate"))
		}
		if strings.Contains(res.Body.String(), "go_goroutines") || p.Type != "/problems/unauthorized" {
			t.Errorf("%s: refused with %+v", name, p)
		}
	}
	res := s.do(metricsRequest("s3cret-scrape-token")).status(http.StatusOK)
	if !strings.Contains(res.Body.String(), "markuproom_http_requests_total") {
		t.Fatalf("metrics body lacks the request counter:\n%.500s", res.Body.String())
	}
}

func TestMetricsAreNotServedWithoutAToken(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env)
	for _, token := range []string{"", "anything"} {
		res := s.do(metricsRequest(token))
		if res.Code != http.StatusNotFound || strings.Contains(res.Body.String(), "markuproom_http_requests_total") {
			t.Fatalf("token %q: /metrics = %d\n%.300s", token, res.Code, res.Body.String())
		}
	}
}

func TestMetricsHandlerServesOnlyMetrics(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector())
	srv := httptest.NewServer(handlers.MetricsHandler(reg))
	defer srv.Close()
	get := func(path string) (int, string) {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/metrics"); code != http.StatusOK || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("/metrics = %d\n%.300s", code, body)
	}
	for _, path := range []string{"/", "/healthz", "/api/v1/documents/x", "/metrics/x"} {
		if code, _ := get(path); code != http.StatusNotFound {
			t.Errorf("%s = %d, want 404", path, code)
		}
	}
}
