package handlers_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// badInputProbes are path and query values that no id, cursor or search can
// hold: NUL and invalid UTF-8 (a bare continuation pair, an overlong "/", a
// UTF-16 surrogate), already percent-encoded for a URL.
func badInputProbes() []string {
	return []string{"%00", "a%00b", "%ff%fe", "%c0%af", "%ed%a0%80"}
}

// probedQueries are the query parameters each list route reads.
func probedQueries() map[string][]string {
	return map[string][]string{
		"GET /api/v1/transactions": {"referenceId", "cursor", "status", "limit"},
		"GET /api/v1/markup-rooms": {"cursor", "status", "limit"},
		"GET /api/v1/templates":    {"q", "cursor", "limit"},
		"GET /admin/transactions":  {"q", "after", "before", "status", "org"},
		"GET /admin/templates":     {"q", "after", "before", "status", "org"},
		"GET /admin/rooms":         {"after"},
		"GET /admin/outbox":        {"before", "status"},
		"GET /admin/activity":      {"before"},
		// The console's exports.
		"GET /admin/transactions.csv":  {"q", "status", "org"},
		"GET /admin/transactions.xlsx": {"q", "status", "org"},
		"GET /admin/audit.csv":         {"org", "actor", "action", "transaction", "from", "to"},
	}
}

// errorLog collects the error-level lines a server logs.
type errorLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *errorLog) Enabled(_ context.Context, level slog.Level) bool { return level >= slog.LevelError }
func (l *errorLog) WithAttrs([]slog.Attr) slog.Handler               { return l }
func (l *errorLog) WithGroup(string) slog.Handler                    { return l }
func (l *errorLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	l.mu.Lock()
	l.lines = append(l.lines, b.String())
	l.mu.Unlock()
	return nil
}

func (l *errorLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

func withLogger(h slog.Handler) serverOption {
	return func(d *handlers.Deps) { d.Logger = slog.New(h) }
}

// probeWorld is a tenant with a room, a tag, a webhook and a signed-in admin:
// one valid value for every path parameter of every route.
type probeWorld struct {
	s      *server
	tenant *modelstest.Tenant
	tr     *tagRoom
	admin  *browser
	// adminCSRF is the console's CSRF token.
	adminCSRF string
	values    map[string]string
}

func newProbeWorld(t *testing.T, s *server, env *modelstest.Env) *probeWorld {
	t.Helper()
	tenant := env.NewTenant(t, "Acme")
	newAdmin(t, env, tenant.Org.ID, "ada@example.com")
	tr := openTagRoom(t, s, tenant, nil)
	signers := tr.participantIDs(t)
	tagID := tr.add(t, tagForm(signers[0]))
	var hook struct{ ID string }
	s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", tenant.Token, map[string]any{
		"url": "https://hooks.acme.example/markuproom", "events": []string{"transaction.esign_pending"},
	})).status(http.StatusCreated).json(&hook)
	msgID := "01900000-0000-7000-8000-000000000000"
	if msgs, err := env.Store.ListMessages(context.Background(), models.MessageFilter{Limit: 1}); err == nil && len(msgs) > 0 {
		msgID = msgs[0].ID
	}
	admin, adminCSRF := adminSignIn(t, s, "ada@example.com", "correct horse")
	docID := firstDocumentID(t, tr)
	var tmpl struct{ ID string }
	s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, map[string]any{
		"name": "Probe", "documents": []any{map[string]any{"document": docID}},
	})).status(http.StatusCreated).json(&tmpl)
	return &probeWorld{s: s, tenant: tenant, tr: tr, admin: admin, adminCSRF: adminCSRF, values: map[string]string{
		"token":         strings.TrimPrefix(tr.room.URL, testBaseURL+"/markup-room/"),
		"room":          tr.room.ID,
		"transaction":   tr.room.TransactionID,
		"document":      docID,
		"documentId":    docID,
		"organization":  itoa64(tenant.Org.ID),
		"message":       msgID,
		"webhookId":     hook.ID,
		"webhook":       hook.ID,
		"participantId": signers[0],
		"position":      "0",
		"page":          "1",
		"removal":       "rm_none",
		"tagId":         tagID,
		"userId":        itoa64(tenant.Sender.ID),
		"tokenId":       itoa64(tenant.TokenID),
		"slug":          "not-found",
		"path":          "css/none.css",
		"template":      tmpl.ID,
		"version":       "1",
	}}
}

// valueFor is a valid value of param in route.
func (w *probeWorld) valueFor(route, param string) string {
	if param != "id" {
		return w.values[param]
	}
	for prefix, kind := range map[string]string{
		"/api/v1/transactions/": "transaction", "/api/v1/documents/": "document", "/api/v1/markup-rooms/": "room",
		"/api/v1/webhooks/": "webhook", "/rooms/": "room", "/admin/transactions/": "transaction", "/admin/rooms/": "room",
		"/admin/organizations/": "organization", "/admin/outbox/": "message", "/api/v1/templates/": "template",
		"/admin/templates/": "template",
	} {
		if strings.HasPrefix(route, prefix) {
			return w.values[kind]
		}
	}
	return "x"
}

// request builds route's request with path and query, sent as the caller
// that route expects: a bearer token, the browser bound to the room, or the
// signed-in admin, with the CSRF token and a plausible body.
func (w *probeWorld) request(method, route, target string) *http.Request {
	var req *http.Request
	switch {
	case strings.HasPrefix(route, "/api/v1/"):
		body := ""
		if method == http.MethodPost || method == http.MethodPut {
			body = "{}"
		}
		req = httptest.NewRequest(method, target, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+w.tenant.Token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
	default:
		csrf := w.tr.csrf
		if strings.HasPrefix(route, "/admin") {
			csrf = w.adminCSRF
		}
		form := "csrf=" + csrf + "&documentPosition=0&type=SIGNATURETEMPLATE&page=1&x=1&y=1&width=10&height=10" +
			"&title=T&firstName=A&lastName=B&email=a%40example.com&to=1&name=N&url=https%3A%2F%2Fx.example"
		if method == http.MethodGet {
			form = ""
		}
		req = httptest.NewRequest(method, target, strings.NewReader(form))
		if form != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("X-CSRF-Token", csrf)
	}
	return req
}

// send runs req as the route's caller without failing on the answer.
func (w *probeWorld) send(route string, req *http.Request) *httptest.ResponseRecorder {
	b := w.tr.b
	if strings.HasPrefix(route, "/admin") {
		b = w.admin
	}
	if !strings.HasPrefix(route, "/api/") {
		for _, c := range b.cookies {
			req.AddCookie(c)
		}
		req.Header.Set("Accept", "text/html")
	}
	rec := httptest.NewRecorder()
	w.s.handler.ServeHTTP(rec, req)
	if strings.HasPrefix(req.URL.Path, "/api/v1/") && rec.Code < 500 {
		w.s.contract.check(w.s.t, req, rec)
	}
	return rec
}

var routeParam = regexp.MustCompile(`[:*]([A-Za-z]+)`)

// TestNoRouteAnswers5xxToBadInput sends every bad-input probe in every path
// parameter of every registered route, and in the query parameters the list
// routes read, as the caller each route expects, and in the sign-in e-mail:
// nothing may answer 5xx or log an error.
func TestNoRouteAnswers5xxToBadInput(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		logs := &errorLog{}
		// Hundreds of probes from one browser and one token: the rate limits
		// (tested on their own) would answer 429 before the checks under test.
		s := newServer(t, env, withLogger(logs), withRateLimits(handlers.RateLimits{Off: true}))
		w := newProbeWorld(t, s, env)
		engine := s.handler.(*gin.Engine)
		var probes, failures int
		var failed []string
		// check counts a probe as failed when it answers 5xx or logs an
		// error; an answer other than want is reported too.
		check := func(label string, want int, rec *httptest.ResponseRecorder) {
			probes++
			lines := logs.take()
			if rec.Code != want && rec.Code < 500 {
				t.Errorf("%s → %d, want %d", label, rec.Code, want)
			}
			if rec.Code >= 500 || len(lines) > 0 {
				failures++
				failed = append(failed, fmt.Sprintf("%s → %d %s", label, rec.Code, strings.Join(lines, "; ")))
			}
		}
		queries := probedQueries()
		for _, r := range engine.Routes() {
			params := routeParam.FindAllStringSubmatch(r.Path, -1)
			for _, p := range params {
				for _, probe := range badInputProbes() {
					target := routeParam.ReplaceAllStringFunc(r.Path, func(seg string) string {
						name := seg[1:]
						if name == p[1] {
							return probe
						}
						return w.valueFor(r.Path, name)
					})
					check(r.Method+" "+target, http.StatusNotFound, w.send(r.Path, w.request(r.Method, r.Path, target)))
				}
			}
			// Every handled route reads its query through the same check, so
			// even a parameter it ignores may not carry bad text.
			names := queries[r.Method+" "+r.Path]
			if strings.HasPrefix(r.Path, "/api/v1/") || strings.HasPrefix(r.Path, "/rooms/") || strings.HasPrefix(r.Path, "/admin/") {
				names = append(names, "unused")
			}
			for _, q := range names {
				for _, probe := range badInputProbes() {
					target := routeParam.ReplaceAllStringFunc(r.Path, func(seg string) string { return w.valueFor(r.Path, seg[1:]) }) + "?" + q + "=" + probe
					check(r.Method+" "+target, http.StatusBadRequest, w.send(r.Path, w.request(r.Method, r.Path, target)))
				}
			}
		}
		// The sign-in e-mail, from a fresh browser (the admin's own stays signed in).
		for _, probe := range badInputProbes() {
			b := s.browser()
			token := csrf(t, b.get("/admin/login").status(http.StatusOK).Body.String())
			req := httptest.NewRequest(http.MethodPost, "/admin/login", strings.NewReader("csrf="+token+"&email=ada"+probe+"%40example.com&password=x"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			for _, c := range b.cookies {
				req.AddCookie(c)
			}
			rec := httptest.NewRecorder()
			s.handler.ServeHTTP(rec, req)
			check("POST /admin/login email="+probe, http.StatusBadRequest, rec)
		}
		t.Logf("%d probes over %d routes, %d answered 5xx or logged an error", probes, len(engine.Routes()), failures)
		if failures > 0 {
			t.Errorf("%d of %d probes failed:\n%s", failures, probes, strings.Join(failed, "\n"))
		}
	})
}
