package handlers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// Bounds of a hostile file through any route (docs/testing.md).
const (
	hostileAnswer = 15 * time.Second
	hostileGrowth = 256 << 20
)

// The round-two hostile files (shared compressed objects under encryption,
// object streams whose entries share or nest their offsets, runs of white
// space for the repair scanner) through the API upload, a room's upload and
// MCP's upload_document, on both databases: each is answered within 15 s,
// 201 with a stored size within the upload limit or a 422 with a code, the
// test process (the server: the PDF work runs in the workers) grows its peak
// RSS by less than 256 MB, and /healthz answers throughout.
func TestRoundTwoFilesThroughEveryRoute(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("short: seven files of 31 MiB decoded, three routes, both databases")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads and resets peak RSS through /proc/self (Linux only)")
	}
	files := pdftest.RoundTwoFiles()
	const maxUpload = 50 << 20
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withMaxUpload(maxUpload))
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		stop := watchHealth(t, s)
		defer stop()
		// Each route's request is made before the peak is reset and sent
		// straight to the handler, so that the peak measures the server's
		// work, not the test building a 31 MiB body.
		routes := []struct {
			name    string
			request func(content []byte) *http.Request
			read    func(rec *httptest.ResponseRecorder) (status int, code string, size int64)
		}{
			{"API", func(content []byte) *http.Request { return uploadReq(tenant.Token, "hostile.pdf", content, "") }, readUpload},
			{"room", func(content []byte) *http.Request {
				req := tr.uploadReq(tr.csrf, "hostile.pdf", content, true)
				for _, c := range tr.b.cookies {
					req.AddCookie(c)
				}
				return req
			}, func(rec *httptest.ResponseRecorder) (int, string, int64) {
				if rec.Code == http.StatusOK {
					return http.StatusCreated, "", -1 // the room answers with its documents panel
				}
				return readUpload(rec)
			}},
			{"MCP", func(content []byte) *http.Request {
				// The tool's name before its arguments, as the SDKs write it.
				args, _ := json.Marshal(pdfArgs("hostile.pdf", content))
				body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"upload_document","arguments":` + string(args) + `}}`)
				req := api(http.MethodPost, "/mcp", tenant.Token, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				return req
			}, func(rec *httptest.ResponseRecorder) (int, string, int64) { return readToolAnswer(t, rec) }},
		}
		for _, f := range files {
			for _, r := range routes {
				req := r.request(f.PDF)
				runtime.GC()
				resetPeakRSS(t)
				hwm0 := peakRSS(t)
				start := time.Now()
				rec := httptest.NewRecorder()
				s.handler.ServeHTTP(rec, req)
				took := time.Since(start)
				growth := peakRSS(t) - hwm0
				status, code, size := r.read(rec)
				t.Logf("ROUNDTWO %s via %s: %d %s, stored %d bytes, %s, peak RSS +%d MB", f.Name, r.name, status, code, size, took.Round(time.Millisecond), growth>>20)
				switch {
				case status == http.StatusCreated && size <= maxUpload:
				case status == http.StatusUnprocessableEntity && code != "":
				default:
					t.Errorf("%s via %s: answered %d %q (stored %d bytes): %s", f.Name, r.name, status, code, size, truncate(rec.Body.String()))
				}
				if took > hostileAnswer {
					t.Errorf("%s via %s: answered after %s", f.Name, r.name, took)
				}
				if growth > hostileGrowth {
					t.Errorf("%s via %s: the server's peak RSS grew by %d MB", f.Name, r.name, growth>>20)
				}
			}
		}
	})
}

// Two heavy files at once do not keep an ordinary upload beside them out:
// it is accepted within 10 s.
func TestAnOrdinaryUploadBesideTwoHeavyOnes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("short: heavy files")
	}
	heavy := map[string][]byte{}
	for _, f := range pdftest.RoundTwoFiles() {
		if f.Name == "objstm-shared-offset-60" || f.Name == "whitespace-runs-31MiB" {
			heavy[f.Name] = f.PDF
		}
	}
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		var wg sync.WaitGroup
		for name, content := range heavy {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := httptest.NewRecorder()
				s.handler.ServeHTTP(rec, uploadReq(tenant.Token, name+".pdf", content, ""))
				t.Logf("heavy %s: %d", name, rec.Code)
			}()
		}
		time.Sleep(50 * time.Millisecond) // the heavy ones take the workers first
		start := time.Now()
		rec := httptest.NewRecorder()
		s.handler.ServeHTTP(rec, uploadReq(tenant.Token, "ordinary.pdf", pdftest.ThreePages(t), ""))
		took := time.Since(start)
		wg.Wait()
		if rec.Code != http.StatusCreated || took > 10*time.Second {
			t.Fatalf("the ordinary upload beside two heavy ones: %d after %s: %s", rec.Code, took, truncate(rec.Body.String()))
		}
		t.Logf("the ordinary upload took %s", took)
	})
}

// watchHealth asks /healthz every 100 ms until stop, and fails the test when
// an answer is not 200 or takes more than a second.
func watchHealth(t *testing.T, s *server) (stop func()) {
	t.Helper()
	done := make(chan struct{})
	var worst atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
			start := time.Now()
			rec := httptest.NewRecorder()
			s.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
			took := time.Since(start)
			if took > time.Duration(worst.Load()) {
				worst.Store(int64(took))
			}
			if rec.Code != http.StatusOK {
				t.Errorf("/healthz answered %d", rec.Code)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		if w := time.Duration(worst.Load()); w > time.Second {
			t.Errorf("/healthz took up to %s", w)
		}
	}
}

// resetPeakRSS resets this process's VmHWM to its VmRSS.
func resetPeakRSS(t *testing.T) {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatalf("reset peak RSS: %v", err)
	}
}

// peakRSS is this process's VmHWM.
func peakRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// readUpload reads an upload's answer: its status and, for a 201, the
// stored size, else the problem's first code.
func readUpload(rec *httptest.ResponseRecorder) (int, string, int64) {
	if rec.Code == http.StatusCreated {
		var d uploadedDoc
		_ = json.Unmarshal(rec.Body.Bytes(), &d)
		return rec.Code, "", d.SizeBytes
	}
	var p handlers.Problem
	_ = json.Unmarshal(rec.Body.Bytes(), &p)
	return rec.Code, firstCode(p), 0
}

// readToolAnswer reads a tools/call answer of upload_document (JSON, or
// one server-sent event holding it) as readUpload reads the API's.
func readToolAnswer(t *testing.T, rec *httptest.ResponseRecorder) (int, string, int64) {
	t.Helper()
	body := rec.Body.String()
	if i := strings.Index(body, "data: "); i >= 0 {
		body = strings.TrimSpace(strings.SplitN(body[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil || len(msg.Result.Content) == 0 {
		t.Errorf("tools/call answered %d %s", rec.Code, truncate(rec.Body.String()))
		return rec.Code, "", 0
	}
	text := []byte(msg.Result.Content[0].Text)
	if !msg.Result.IsError {
		var d uploadedDoc
		_ = json.Unmarshal(text, &d)
		return http.StatusCreated, "", d.SizeBytes
	}
	var p handlers.Problem
	_ = json.Unmarshal(text, &p)
	return p.Status, firstCode(p), 0
}

// firstCode is a problem's first field error's code ("" when none).
func firstCode(p handlers.Problem) string {
	if len(p.Errors) == 0 {
		return ""
	}
	return p.Errors[0].Code
}
