package handlers_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// paddedMessage is a JSON-RPC message of about size bytes made as it is
// read: prefix, size bytes of padding inside a string, suffix. It counts
// what the server read, and holds nothing of the padding.
type paddedMessage struct {
	prefix, suffix string
	size, off      int64
}

func (m *paddedMessage) total() int64 { return int64(len(m.prefix)) + m.size + int64(len(m.suffix)) }

func (m *paddedMessage) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && m.off < m.total() {
		switch pre, pad := int64(len(m.prefix)), int64(len(m.prefix))+m.size; {
		case m.off < pre:
			k := copy(p[n:], m.prefix[m.off:])
			n, m.off = n+k, m.off+int64(k)
		case m.off < pad:
			k := int(min(int64(len(p)-n), pad-m.off))
			for i := range k {
				p[n+i] = 'A'
			}
			n, m.off = n+k, m.off+int64(k)
		default:
			k := copy(p[n:], m.suffix[m.off-pad:])
			n, m.off = n+k, m.off+int64(k)
		}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// postMCPStream sends body to /mcp through the router, with its length
// declared or not (chunked), and tells how many bytes the server
// allocated meanwhile (the whole process's, measured around the request).
func (s *server) postMCPStream(token string, body *paddedMessage, declared bool) (*response, uint64) {
	req := api(http.MethodPost, "/mcp", token, body)
	req.ContentLength = -1
	if declared {
		req.ContentLength = body.total()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	runtime.ReadMemStats(&after)
	return &response{ResponseRecorder: rec, t: s.t}, after.TotalAlloc - before.TotalAlloc
}

func TestMCPReadsOnlyTheBodyItsMethodNeeds(t *testing.T) {
	// Not parallel: the bound is on the process's allocations
	// (runtime.MemStats), which the package's parallel tests would add to;
	// a test without t.Parallel runs before them, alone.
	const (
		megabyte = 1 << 20
		// The most a refused message may cost: the first megabyte read,
		// the decoder's copy of it and the request's own allocations.
		allocBound = 8 * megabyte
	)
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		ping := func(size int64) *paddedMessage {
			return &paddedMessage{prefix: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"`, suffix: `"}}}`, size: size}
		}
		smallTool := func(size int64) *paddedMessage {
			return &paddedMessage{prefix: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_transaction","arguments":{"id":"`,
				suffix: `"}}}`, size: size}
		}
		nameLast := func(size int64) *paddedMessage {
			return &paddedMessage{prefix: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"filename":"a.pdf","content_base64":"`,
				suffix: `"},"name":"upload_document"}}`, size: size}
		}
		s.postMCP(tenant.Token, `{"jsonrpc":"2.0","id":0,"method":"ping"}`).status(http.StatusOK) // warm
		for _, c := range []struct {
			name     string
			body     *paddedMessage
			declared bool
			// readAtMost is how much of the body the server may read.
			readAtMost int64
			detail     string
		}{
			{"a 57 MB ping, chunked", ping(57 * megabyte), false, megabyte + 1, `"ping"`},
			{"a 57 MB ping, its length declared", ping(57 * megabyte), true, megabyte + 1, `"ping"`},
			{"a ping declared larger than any message", ping(90 * megabyte), true, 0, "any message"},
			{"a 2 MB call of a small tool", smallTool(2 * megabyte), false, megabyte + 1, `"get_transaction"`},
			{"a 57 MB call of a small tool, its length declared", smallTool(57 * megabyte), true, megabyte + 1, `"get_transaction"`},
			{"an upload whose tool is named after its megabytes", nameLast(3 * megabyte), false, megabyte + 1, "params.name is not within"},
		} {
			res, alloc := s.postMCPStream(tenant.Token, c.body, c.declared)
			p := res.problem(http.StatusRequestEntityTooLarge)
			hasError(t, p, "#", "too_large")
			if !strings.Contains(p.Errors[0].Detail, c.detail) {
				t.Errorf("%s: detail %q does not name %s", c.name, p.Errors[0].Detail, c.detail)
			}
			if c.body.off > c.readAtMost {
				t.Errorf("%s: the server read %d bytes, want at most %d", c.name, c.body.off, c.readAtMost)
			}
			if alloc > allocBound {
				t.Errorf("%s: the request allocated %d bytes, want at most %d", c.name, alloc, allocBound)
			}
			t.Logf("%s: read %d bytes, allocated %d", c.name, c.body.off, alloc)
		}

		// Over HTTP the client gets the refusal, not a broken connection,
		// while it still has 56 MB to send.
		ts := httptest.NewServer(s.handler)
		defer ts.Close()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/mcp", ping(57*megabyte))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tenant.Token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		start := time.Now()
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatalf("a 57 MB ping over HTTP: %v, want a 413", err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("a 57 MB ping over HTTP: %d, want 413", resp.StatusCode)
		}
		t.Logf("a 57 MB ping over HTTP answered %d in %v", resp.StatusCode, time.Since(start))

		// What may be large still is: an upload of a few MB through the
		// SDK's own client, and an operation's body of 9 MB.
		a := mustConnect(t, ts.URL+"/mcp", tenant.Token)
		var doc struct{ ID, Location string }
		a.ok("upload_document", pdfArgs("padded.pdf", pdftest.Expanding{Pages: 1, Padding: 3 * megabyte}.Build(t)), &doc)
		if doc.Location == "" {
			t.Fatal("the 3 MB upload answered no location")
		}
		args, err := json.Marshal(roomBody(tenant, uploadedDoc{Location: doc.Location}))
		if err != nil {
			t.Fatal(err)
		}
		big := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"create_markup_room","arguments":{` +
			strings.Repeat(" ", 9*megabyte) + string(args[1:]) + `}}`
		res := s.postMCP(tenant.Token, big).status(http.StatusOK)
		var answer struct {
			Result struct {
				IsError           bool           `json:"isError"`
				StructuredContent map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		res.json(&answer)
		if answer.Result.IsError || answer.Result.StructuredContent["url"] == nil {
			t.Fatalf("a 9 MB create_markup_room: %s", truncate(res.Body.String()))
		}
	})
}
