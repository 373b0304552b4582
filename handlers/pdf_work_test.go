package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// smallPDFWork replaces the test store by one with one PDF slot, a short
// wait and 1 MiB / 3 MiB decode caps.
func smallPDFWork(t *testing.T, env *modelstest.Env) *models.PDFWork {
	t.Helper()
	work := models.NewPDFWork(models.PDFWorkOptions{Concurrency: 1, Wait: 50 * time.Millisecond,
		Limits: pdf.Limits{MaxStreamBytes: 1 << 20, MaxFileBytes: 3 << 20}})
	t.Cleanup(func() { _ = work.Close() })
	env.Store = models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir(), PDF: work})
	return work
}

func TestExpandingPDFsAre422(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		smallPDFWork(t, env)
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		bomb := pdftest.Expanding{Pages: 2, ObjectStream: 4 << 20}.Build(t)
		for _, path := range []string{"/api/v1/documents/upload", "/api/v1/document/upload"} {
			req := api(http.MethodPost, path, tenant.Token, strings.NewReader(string(bomb)))
			req.Header.Set("Content-Type", "application/pdf")
			p := s.do(req).problem(http.StatusUnprocessableEntity)
			hasError(t, p, "#/file", "pdf_expands_too_much")
			if !strings.Contains(p.Detail, "expands to more than 1 MiB when decoded") {
				t.Errorf("%s: detail %q", path, p.Detail)
			}
		}
		p := s.do(uploadReq(tenant.Token, "bomb.pdf", bomb, "")).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/file", "pdf_expands_too_much")

		tr := openTagRoom(t, s, tenant, nil)
		p = tr.upload(tr.csrf, "bomb.pdf", bomb, true).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/file", "pdf_expands_too_much")
		page := tr.upload(tr.csrf, "bomb.pdf", bomb, false).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, "expands to more than 1 MiB when decoded") {
			t.Errorf("the room's error page does not say why: %s", truncate(page))
		}
		// Several streams, each under the stream cap, pass the file cap together.
		many := pdftest.Expanding{Pages: 4, Content: []int64{900 << 10, 900 << 10, 900 << 10, 900 << 10}}.Build(t)
		p = s.do(uploadReq(tenant.Token, "many.pdf", many, "")).problem(http.StatusUnprocessableEntity)
		if hasError(t, p, "#/file", "pdf_expands_too_much"); !strings.Contains(p.Detail, "3 MiB") {
			t.Errorf("file cap detail %q", p.Detail)
		}
	})
}

func TestBusyPDFSlotsAre503WithRetryAfter(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		work := smallPDFWork(t, env)
		logs := &errorLog{}
		s := newServer(t, env, withLogger(logs))
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)

		release, err := work.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		busy := func(res *response) {
			t.Helper()
			p := res.problem(http.StatusServiceUnavailable)
			hasError(t, p, "", "pdf_busy")
			if got := res.Header().Get("Retry-After"); got != "1" {
				t.Errorf("Retry-After = %q, want 1", got)
			}
		}
		busy(s.do(uploadReq(tenant.Token, "a.pdf", pdftest.ThreePages(t), "")))
		busy(tr.upload(tr.csrf, "a.pdf", pdftest.ThreePages(t), true))
		busy(tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", nil))
		busy(tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/move", url.Values{"to": {"1"}}))
		// A plain form post gets the error page, with the same header.
		req := httptest.NewRequest(http.MethodPost, tr.path+"/documents/0/pages/2/delete", strings.NewReader(url.Values{"csrf": {tr.csrf}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res := tr.b.do(req).status(http.StatusServiceUnavailable)
		if res.Header().Get("Retry-After") != "1" || !strings.Contains(res.Body.String(), "busy reading other PDF documents") {
			t.Errorf("form post while busy: Retry-After %q, %s", res.Header().Get("Retry-After"), truncate(res.Body.String()))
		}

		// Shedding load on purpose is not a server failure: a warning, not an error.
		if lines := logs.take(); len(lines) > 0 {
			t.Errorf("a busy 503 was logged at error level: %q", lines)
		}

		release()
		s.do(uploadReq(tenant.Token, "a.pdf", pdftest.ThreePages(t), "")).status(http.StatusCreated)
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", nil).status(http.StatusOK)
	})
}
