package handlers_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// levelLog records every log line with its level.
type levelLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *levelLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *levelLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *levelLog) WithGroup(string) slog.Handler            { return l }
func (l *levelLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Level.String() + " " + r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.Key + "=" + a.Value.String())
		return true
	})
	l.mu.Lock()
	l.lines = append(l.lines, b.String())
	l.mu.Unlock()
	return nil
}

// cancelAtEnd is a request body that cancels the request's context once
// the server has read its last byte: the client leaves while its upload is
// checked.
type cancelAtEnd struct {
	r      *strings.Reader
	cancel context.CancelFunc
}

func (b *cancelAtEnd) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if b.r.Len() == 0 {
		b.cancel()
	}
	return n, err
}

// A request its client closed while the server worked on it is the
// client's: status 499 in the access log (at info) and the metrics, no
// problem body, no line at error level — for the API and a room alike.
func TestACancelledRequestIsLoggedAsTheClients(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		logs := &levelLog{}
		reg := prometheus.NewRegistry()
		s := newServer(t, env, withLogger(logs), func(d *handlers.Deps) { d.Registry = reg })
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		logs.mu.Lock()
		logs.lines = nil
		logs.mu.Unlock()

		send := func(req *http.Request) *httptest.ResponseRecorder {
			ctx, cancel := context.WithCancel(req.Context())
			defer cancel()
			body, _ := io.ReadAll(req.Body)
			req = req.WithContext(ctx)
			req.Body = io.NopCloser(&cancelAtEnd{r: strings.NewReader(string(body)), cancel: cancel})
			rec := httptest.NewRecorder()
			s.handler.ServeHTTP(rec, req)
			return rec
		}
		pdf := pdftest.ThreePages(t)
		api := uploadReq(tenant.Token, "a.pdf", pdf, "")
		api.Header.Set("Idempotency-Key", "closed-1")
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		_ = mw.WriteField("csrf", tr.csrf)
		fw, _ := mw.CreateFormFile("file", "a.pdf")
		_, _ = fw.Write(pdf)
		_ = mw.Close()
		room := httptest.NewRequest(http.MethodPost, tr.path+"/documents", &buf)
		room.Header.Set("Content-Type", mw.FormDataContentType())
		room.Header.Set("HX-Request", "true")
		for _, c := range tr.b.cookies {
			room.AddCookie(c)
		}
		for name, req := range map[string]*http.Request{"API upload": api, "room upload": room} {
			rec := send(req)
			if rec.Code != 499 || strings.Contains(rec.Body.String(), "/problems/internal") {
				t.Errorf("%s, client gone: %d %s", name, rec.Code, truncate(rec.Body.String()))
			}
		}
		var access int
		logs.mu.Lock()
		for _, l := range logs.lines {
			if strings.HasPrefix(l, "ERROR") || strings.Contains(l, "status=500") {
				t.Errorf("a closed request logged %q", l)
			}
			if strings.HasPrefix(l, "INFO request ") && strings.Contains(l, "status=499") {
				access++
			}
		}
		logs.mu.Unlock()
		if access != 2 {
			t.Errorf("%d access log lines with status 499 at info, want 2", access)
		}
		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		var counted float64
		for _, f := range families {
			if f.GetName() != "markuproom_http_requests_total" {
				continue
			}
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "status" && l.GetValue() == "499" {
						counted += m.GetCounter().GetValue()
					}
				}
			}
		}
		if counted != 2 {
			t.Errorf("metrics count %v requests with status 499, want 2", counted)
		}
		// The Idempotency-Key of the closed request is free again: a retry runs.
		retry := uploadReq(tenant.Token, "a.pdf", pdf, "")
		retry.Header.Set("Idempotency-Key", "closed-1")
		s.do(retry).status(http.StatusCreated)
	})
}
