package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// TestLargeWritesStayWithinTheirMemory measures, on the real binary, the
// two largest writes a caller can send: a 50 MB PDF upload (the default
// MARKUPROOM_MAX_UPLOAD_BYTES) and one replace with 50,000 tags (10
// documents × 5,000, compact JSON under the 10 MiB body limit). The figures
// are logged against issue 19's aims (upload: peak RSS growth < 64 MB;
// replace: < 2 s and peak RSS < 300 MB) and docs/benchmarks.md records them.
// The test fails on a regression well past the figures measured when it was
// written (upload +52 MB, replace +180–210 MB): growth of 96 MB and 400 MB.
// Time is logged, not asserted (shared machines).
func TestLargeWritesStayWithinTheirMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds and runs the server binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads peak RSS from /proc/<pid>/status (Linux only)")
	}
	bin := serverBinary(t)
	big := pdftest.Expanding{Pages: 3, Padding: 50<<20 - 4096}.Build(t)
	for name, databaseURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			n := startNode(t, bin, t.TempDir(), databaseURL())
			p := &process{cmd: n.cmd}
			token := fieldAfter(n.stdout.String(), "API token")
			client := &http.Client{Timeout: 120 * time.Second}

			// A warm-up upload and replace, so that what is measured is the
			// large request, not start-up.
			upload := func(b []byte) (string, time.Duration) {
				t.Helper()
				req, _ := http.NewRequest(http.MethodPost, n.base+"/api/v1/documents/upload", bytes.NewReader(b))
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/pdf")
				start := time.Now()
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				var d struct {
					GCSRefID string `json:"gcsRefId"`
				}
				if res.StatusCode != http.StatusCreated || json.NewDecoder(res.Body).Decode(&d) != nil {
					t.Fatalf("upload: %d", res.StatusCode)
				}
				return d.GCSRefID, time.Since(start)
			}
			ref, _ := upload(pdftest.ThreePages(t))
			body := func(docs, tags int) map[string]any {
				b := versionBody(ref, 0, 0)
				documents := make([]map[string]any, docs)
				for d := range documents {
					ts := make([]map[string]any, tags)
					for k := range ts {
						ts[k] = map[string]any{"type": "SIGNATURETEMPLATE", "x": 36 + k%8*70, "y": 36 + k/8%28*25, "width": 60, "height": 20,
							"signerId": "p1", "page": 1 + k%3, "customData": map[string]any{}}
					}
					documents[d] = map[string]any{"gcsRefId": ref, "title": fmt.Sprint("Part ", d+1), "sessionType": "esign", "type": "oath", "tags": ts}
				}
				b["documents"] = documents
				return b
			}
			code, _, created := apiDo(client, http.MethodPost, n.base+"/api/v1/transactions", token, body(1, 10))
			var tx struct {
				ID string `json:"id"`
			}
			if code != http.StatusCreated || json.Unmarshal(created, &tx) != nil {
				t.Fatalf("create: %d %s", code, created)
			}
			_, baseHWM := p.memory(t)

			_, took := upload(big)
			_, hwm := p.memory(t)
			uploadGrowth := hwm - baseHWM
			t.Logf("50 MB upload: %s, peak RSS +%d MB (aim < 64 MB)", took.Round(time.Millisecond), uploadGrowth>>20)
			if uploadGrowth >= 96<<20 {
				t.Errorf("a 50 MB upload grew peak RSS by %d MB (measured +52 MB when this test was written)", uploadGrowth>>20)
			}

			huge := body(10, 5000)
			raw, _ := json.Marshal(huge)
			start := time.Now()
			code, _, answer := apiDo(client, http.MethodPut, n.base+"/api/v1/transactions/"+tx.ID, token, huge)
			took = time.Since(start)
			if code/100 != 2 {
				t.Fatalf("replace with 50,000 tags: %d %.300s", code, answer)
			}
			_, hwm2 := p.memory(t)
			t.Logf("replace with 50,000 tags (%d KB of JSON): %s (aim < 2 s), peak RSS %d MB (aim < 300 MB; +%d MB over the start)",
				len(raw)>>10, took.Round(time.Millisecond), hwm2>>20, (hwm2-baseHWM)>>20)
			if hwm2-baseHWM >= 400<<20 {
				t.Errorf("a replace with 50,000 tags grew peak RSS by %d MB (measured +180–210 MB when this test was written)", (hwm2-baseHWM)>>20)
			}
		})
	}
}
