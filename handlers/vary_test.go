package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// varyFields lists the header names of a response's Vary, in order.
func varyFields(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			out = append(out, http.CanonicalHeaderKey(strings.TrimSpace(f)))
		}
	}
	return out
}

// variesByLanguage tells whether a response says that its words depend on
// the headers that choose the language.
func variesByLanguage(h http.Header) bool {
	f := varyFields(h)
	return slices.Contains(f, "Accept-Language") && slices.Contains(f, "Cookie") && slices.Contains(f, "X-Markup-Lang")
}

var staticCSS = regexp.MustCompile(`/static/css/app\.[0-9a-f]+\.css`)

// TestPagesInTheVisitorsLanguageSayTheyVary: every answer worded in the
// request's language — the home page, the problem pages, an error page, a
// room, the console's lists — names Accept-Language, Cookie and
// X-Markup-Lang in Vary (beside HX-Request where a list answers htmx too),
// so no cache serves one visitor's language to another; answers that are
// the same in every language (the API, MCP, assets, health, the OpenAPI
// document) do not, so caches keep one copy.
func TestPagesInTheVisitorsLanguageSayTheyVary(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		get := func(path string, header ...string) *response {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			return s.do(req)
		}

		home := get("/", "Accept-Language", "es")
		if home.Code != http.StatusOK || home.Header().Get("Content-Language") != "es" || !variesByLanguage(home.Header()) {
			t.Errorf("/ in Spanish: %d, Content-Language %q, Vary %q", home.Code, home.Header().Get("Content-Language"), varyFields(home.Header()))
		}
		for _, c := range []struct {
			path   string
			status int
		}{
			{"/problems/not-found", http.StatusOK},
			{"/problems/nope", http.StatusNotFound},
			{"/no/such/page", http.StatusNotFound},
		} {
			res := get(c.path, "Accept-Language", "fr", "Accept", "text/html")
			if res.Code != c.status || !variesByLanguage(res.Header()) {
				t.Errorf("%s: %d, Vary %q", c.path, res.Code, varyFields(res.Header()))
			}
		}

		// A room and the console, htmx or not.
		tr := openTagRoom(t, s, tenant, nil)
		if res := tr.b.get(tr.path); !variesByLanguage(res.Header()) {
			t.Errorf("the room page: Vary %q", varyFields(res.Header()))
		}
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		req := httptest.NewRequest(http.MethodGet, "/admin/transactions", nil)
		req.Header.Set("HX-Request", "true")
		res := b.do(req).status(http.StatusOK)
		if !variesByLanguage(res.Header()) || !slices.Contains(varyFields(res.Header()), "Hx-Request") {
			t.Errorf("the console's list over htmx: Vary %q", varyFields(res.Header()))
		}

		// An API address no route answers is refused in English too.
		if p := s.do(withHeader(api(http.MethodGet, "/api/v1/nope", tenant.Token, nil), "Accept-Language", "de")).problem(http.StatusNotFound); p.Detail != "There is nothing at this address." {
			t.Errorf("an unknown API address in German: %q", p.Detail)
		}

		// The same in every language.
		css := staticCSS.FindString(home.Body.String())
		if css == "" {
			t.Fatal("the home page links no stylesheet")
		}
		for i, r := range []*response{
			get(css, "Accept-Language", "de"),
			get("/healthz", "Accept-Language", "de"),
			get("/readyz", "Accept-Language", "de"),
			get("/api/openapi.json", "Accept-Language", "de"),
			s.do(withHeader(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil), "Accept-Language", "de")),
			s.do(withHeader(api(http.MethodGet, "/api/v1/nope", tenant.Token, nil), "Accept-Language", "de")),
			s.do(withHeader(api(http.MethodPost, "/mcp", tenant.Token, strings.NewReader(mcpToolsList)), "Accept-Language", "de")),
		} {
			if len(varyFields(r.Header())) != 0 {
				t.Errorf("answer %d, the same in every language, has Vary %q: %s", i, varyFields(r.Header()), truncate(r.Body.String()))
			}
		}
	})
}
