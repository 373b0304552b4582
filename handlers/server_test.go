package handlers_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/static"
)

func init() { gin.SetMode(gin.TestMode) }

// testBaseURL is the public origin the test servers claim.
const testBaseURL = "http://markuproom.test"

// server is a real router over a real database for one test.
type server struct {
	t       *testing.T
	env     *modelstest.Env
	handler http.Handler
	// contract validates every /api/v1 response against the OpenAPI document.
	contract *contract
}

type serverOption func(*handlers.Deps)

func withMaxUpload(n int64) serverOption {
	return func(d *handlers.Deps) { d.Config.MaxUploadBytes = n }
}

func withStore(wrap func(handlers.Store) handlers.Store) serverOption {
	return func(d *handlers.Deps) { d.Store = wrap(d.Store) }
}

func newServer(t *testing.T, env *modelstest.Env, opts ...serverOption) *server {
	t.Helper()
	assets, err := static.New()
	if err != nil {
		t.Fatal(err)
	}
	deps := handlers.Deps{
		Config: handlers.Config{
			BaseURL:       testBaseURL,
			SessionSecret: bytes.Repeat([]byte("k"), 32),
		},
		Store:    env.Store,
		Assets:   assets,
		Registry: prometheus.NewRegistry(),
		Logger:   slog.New(slog.NewTextHandler(testLogWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	for _, o := range opts {
		o(&deps)
	}
	h, err := handlers.New(deps)
	if err != nil {
		t.Fatal(err)
	}
	return &server{t: t, env: env, handler: h, contract: loadContract(t)}
}

// testLogWriter sends server logs (warnings and errors) to the test's log.
type testLogWriter struct{ t *testing.T }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// response is a finished request with helpers for assertions.
type response struct {
	*httptest.ResponseRecorder
	t *testing.T
}

// do sends req through the router; /api/v1 responses are checked against the OpenAPI document.
func (s *server) do(req *http.Request) *response {
	s.t.Helper()
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	if strings.HasPrefix(req.URL.Path, "/api/v1/") {
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
		s.contract.check(s.t, req, rec)
	}
	return &response{ResponseRecorder: rec, t: s.t}
}

// api builds an API request with a bearer token (none when token is empty).
func api(method, path, token string, body io.Reader) *http.Request {
	req := httptest.NewRequest(method, path, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

// jsonReq builds a JSON API request.
func jsonReq(method, path, token string, body any) *http.Request {
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		b, _ = json.Marshal(v)
	}
	req := api(method, path, token, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// uploadReq builds a multipart upload of content as part "file".
func uploadReq(token, fileName string, content []byte, title string) *http.Request {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if title != "" {
		_ = mw.WriteField("title", title)
	}
	fw, _ := mw.CreateFormFile("file", fileName)
	_, _ = fw.Write(content)
	_ = mw.Close()
	req := api(http.MethodPost, "/api/v1/documents/upload", token, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

// status asserts the status code.
func (r *response) status(want int) *response {
	r.t.Helper()
	if r.Code != want {
		r.t.Fatalf("status = %d, want %d; body: %s", r.Code, want, truncate(r.Body.String()))
	}
	return r
}

// json decodes the body into v.
func (r *response) json(v any) *response {
	r.t.Helper()
	if err := json.Unmarshal(r.Body.Bytes(), v); err != nil {
		r.t.Fatalf("decode body: %v; body: %s", err, truncate(r.Body.String()))
	}
	return r
}

// problem asserts a problem details response of status and returns it.
func (r *response) problem(status int) handlers.Problem {
	r.t.Helper()
	r.status(status)
	if ct := r.Header().Get("Content-Type"); ct != "application/problem+json" {
		r.t.Fatalf("Content-Type = %q, want application/problem+json", ct)
	}
	var p handlers.Problem
	r.json(&p)
	if p.Status != status || p.Type == "" || p.Title == "" || p.RequestID == "" || p.Errors == nil {
		r.t.Fatalf("problem body incomplete: %+v", p)
	}
	if p.RequestID != r.Header().Get("X-Request-Id") {
		r.t.Fatalf("problem requestId %q differs from X-Request-Id %q", p.RequestID, r.Header().Get("X-Request-Id"))
	}
	return p
}

// hasError asserts that a problem lists pointer with code.
func hasError(t *testing.T, p handlers.Problem, pointer, code string) {
	t.Helper()
	for _, e := range p.Errors {
		if e.Pointer == pointer && e.Code == code {
			return
		}
	}
	t.Fatalf("problem lacks %s (%s); it has %s", pointer, code, describeErrors(p.Errors))
}

func describeErrors(errs []models.FieldError) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("\n  " + e.Pointer + " " + e.Code + ": " + e.Detail)
	}
	return b.String()
}

func truncate(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
