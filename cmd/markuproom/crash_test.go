package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// versionBody is transaction i's body at version v: v+1 tags, so a stored
// transaction shows which version it holds in its reference and its tags.
func versionBody(gcsRefID string, i, v int) map[string]any {
	tags := make([]map[string]any, v+1)
	for k := range tags {
		tags[k] = map[string]any{"type": "SIGNATURETEMPLATE", "x": 36 + (k%8)*70, "y": 36 + (k/8%28)*25, "width": 60, "height": 20,
			"signerId": "p1", "page": 1, "customData": map[string]any{}}
	}
	return map[string]any{
		"status": "draft", "referenceId": fmt.Sprintf("tx%d-v%d", i, v),
		"documents": []map[string]any{{"gcsRefId": gcsRefID, "title": "Agreement", "sessionType": "esign", "type": "oath", "tags": tags}},
		"participants": []map[string]any{{"id": "p1", "email": "pat@example.com", "firstName": "Pat", "lastName": "Buyer",
			"authenticationType": "none", "twoFactorContact": "email"}},
	}
}

// TestSIGKILLMidWritesLeavesEveryTransactionWhole kills the server (SIGKILL)
// in the middle of concurrent replaces, room tag edits and webhook
// deliveries, and starts it again on the same database and data directory.
// Every transaction holds one whole version (its reference and its tags
// agree), no older than the last acknowledged one; its ETag still works as
// If-Match; every acknowledged room tag is there; and the outbox resumes:
// every message is delivered, and none recorded as sent before the kill is
// sent again (a message in flight at the kill is sent again after its
// lease: at least once, receivers deduplicate by webhook-id).
func TestSIGKILLMidWritesLeavesEveryTransactionWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds and runs the server binary")
	}
	bin := serverBinary(t)
	for name, databaseURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			dbURL, dir := databaseURL(), t.TempDir()
			var restarted atomic.Bool
			var mu sync.Mutex
			before, after := map[string]int{}, map[string]int{}
			sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				id := r.Header.Get("webhook-id")
				mu.Lock()
				if restarted.Load() {
					after[id]++
				} else {
					before[id]++
				}
				mu.Unlock()
				w.WriteHeader(http.StatusNoContent)
			}))
			t.Cleanup(sink.Close)
			env := []string{"MARKUPROOM_WEBHOOK_ALLOW_PRIVATE=true", "MARKUPROOM_OUTBOX_LEASE=25s"}
			a := startNode(t, bin, dir, dbURL, env...)
			token := fieldAfter(a.stdout.String(), "API token")
			roomURL := regexp.MustCompile(`http://\S+/markup-room/\S+`).FindString(a.stdout.String())
			client := &http.Client{Timeout: 30 * time.Second}

			var up struct {
				GCSRefID string `json:"gcsRefId"`
			}
			req, _ := http.NewRequest(http.MethodPost, a.base+"/api/v1/documents/upload", bytes.NewReader(pdftest.ThreePages(t)))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/pdf")
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = json.NewDecoder(res.Body).Decode(&up)
			res.Body.Close()
			if code, _, b := apiDo(client, http.MethodPost, a.base+"/api/v1/webhooks", token,
				map[string]any{"url": sink.URL + "/hook", "events": []string{"transaction.updated"}}); code != http.StatusCreated {
				t.Fatalf("register the webhook: %d %s", code, b)
			}
			const txs = 6
			ids := make([]string, txs)
			for i := range ids {
				var tx struct {
					ID string `json:"id"`
				}
				code, _, b := apiDo(client, http.MethodPost, a.base+"/api/v1/transactions", token, versionBody(up.GCSRefID, i, 0))
				if code != http.StatusCreated || json.Unmarshal(b, &tx) != nil {
					t.Fatalf("create: %d %s", code, b)
				}
				ids[i] = tx.ID
			}
			room := openBrowserRoom(t, roomURL)

			// The writers: replaces of each transaction, and tag edits in the room.
			acked, tried := make([]atomic.Int64, txs), make([]atomic.Int64, txs)
			var tagIDs []string
			var wg sync.WaitGroup
			stop := make(chan struct{})
			for i := range txs {
				wg.Go(func() {
					for v := 1; ; v++ {
						select {
						case <-stop:
							return
						default:
						}
						tried[i].Store(int64(v))
						code, _, _ := apiDo(client, http.MethodPut, a.base+"/api/v1/transactions/"+ids[i], token, versionBody(up.GCSRefID, i, v))
						if code/100 != 2 {
							return // the server is gone
						}
						acked[i].Store(int64(v))
					}
				})
			}
			wg.Go(func() {
				for k := 0; ; k++ {
					select {
					case <-stop:
						return
					default:
					}
					id, ok := room.addTag(k)
					if !ok {
						return
					}
					mu.Lock()
					tagIDs = append(tagIDs, id)
					mu.Unlock()
				}
			})
			// Kill once every writer has been acknowledged a few times.
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) {
				ready := true
				for i := range txs {
					ready = ready && acked[i].Load() >= 3
				}
				mu.Lock()
				ready = ready && len(tagIDs) >= 3 && len(before) >= 3 // some webhooks delivered, more queued
				mu.Unlock()
				if ready {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			a.kill(t)
			close(stop)
			wg.Wait()

			// What the outbox had recorded as sent when the process died.
			db, err := models.OpenDatabase(context.Background(), models.DatabaseOptions{URL: dbURLOr(dbURL, dir)})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var sentBefore []string
			if err := db.DB.Model(&models.OutboxMessage{}).Where("status = ?", models.MessageSent).Pluck("id", &sentBefore).Error; err != nil {
				t.Fatal(err)
			}

			restarted.Store(true)
			b := startNode(t, bin, dir, dbURL, env...)
			for i, id := range ids {
				code, h, body := apiDo(client, http.MethodGet, b.base+"/api/v1/transactions/"+id, token, nil)
				var got struct {
					ReferenceID string `json:"referenceId"`
					Documents   []struct {
						Tags []json.RawMessage `json:"tags"`
					} `json:"documents"`
				}
				if code != http.StatusOK || json.Unmarshal(body, &got) != nil || len(got.Documents) != 1 {
					t.Fatalf("read %s: %d %s", id, code, body)
				}
				var v int
				if _, err := fmt.Sscanf(got.ReferenceID, fmt.Sprintf("tx%d-v%%d", i), &v); err != nil {
					t.Fatalf("transaction %d holds reference %q", i, got.ReferenceID)
				}
				if n := len(got.Documents[0].Tags); n != v+1 {
					t.Errorf("transaction %d is a mix: reference of version %d with %d tags", i, v, n)
				}
				if int64(v) < acked[i].Load() || int64(v) > tried[i].Load() {
					t.Errorf("transaction %d holds version %d; acknowledged %d, tried up to %d", i, v, acked[i].Load(), tried[i].Load())
				}
				if code, _, body := apiDo(client, http.MethodPut, b.base+"/api/v1/transactions/"+id, token,
					versionBody(up.GCSRefID, i, v+1000), "If-Match", h.Get("ETag")); code/100 != 2 {
					t.Errorf("transaction %d: If-Match %s after the restart: %d %s", i, h.Get("ETag"), code, body)
				}
			}
			var kept int64
			if err := db.DB.Table("transaction_tags").Where("tag_id IN ?", tagIDs).Count(&kept).Error; err != nil {
				t.Fatal(err)
			}
			if kept != int64(len(tagIDs)) {
				t.Errorf("%d of %d acknowledged room tags are there after the restart", kept, len(tagIDs))
			}

			// The outbox resumes: everything gets delivered (in-flight
			// messages after their 25 s lease), nothing sent twice that was
			// recorded as sent.
			deadline = time.Now().Add(90 * time.Second)
			var open int64
			for {
				db.DB.Model(&models.OutboxMessage{}).Where("status <> ?", models.MessageSent).Count(&open)
				if open == 0 || time.Now().After(deadline) {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			if open != 0 {
				t.Fatalf("%d messages still not sent after the restart", open)
			}
			mu.Lock()
			defer mu.Unlock()
			again := 0
			for _, id := range sentBefore {
				if after[id] > 0 {
					t.Errorf("message %s was recorded as sent before the kill and sent again", id)
				}
			}
			for id, n := range after {
				if before[id] > 0 {
					again += n
				}
			}
			t.Logf("kill after: %v acknowledged versions, %d room tags; %d messages sent before the kill (%d recorded), %d after, %d of those again (in flight at the kill)",
				ackedList(acked), len(tagIDs), len(before), len(sentBefore), len(after), again)
		})
	}
}

func ackedList(a []atomic.Int64) []int64 {
	out := make([]int64, len(a))
	for i := range a {
		out[i] = a[i].Load()
	}
	return out
}

// crashRoom is a browser session bound to the demo room.
type crashRoom struct {
	client *http.Client
	base   string
	csrf   string
}

func openBrowserRoom(t *testing.T, link string) *crashRoom {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	res, err := client.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindSubmatch(body)
	if res.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("open the room: %d", res.StatusCode)
	}
	u := *res.Request.URL
	u.RawQuery = ""
	return &crashRoom{client: client, base: u.String(), csrf: string(m[1])}
}

var tagIDAttr = regexp.MustCompile(`data-tag-id="([^"]+)"`)

// addTag places the k-th tag on the room's first document; ok is false when
// the server did not acknowledge it.
func (r *crashRoom) addTag(k int) (string, bool) {
	form := url.Values{"documentPosition": {"0"}, "type": {"SIGNATURETEMPLATE"}, "page": {"1"},
		"x": {fmt.Sprint(36 + k%8*70)}, "y": {fmt.Sprint(400 + k/8%10*25)}, "width": {"60"}, "height": {"20"}}
	req, _ := http.NewRequest(http.MethodPost, r.base+"/tags", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-CSRF-Token", r.csrf)
	res, err := r.client.Do(req)
	if err != nil {
		return "", false
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	m := tagIDAttr.FindSubmatch(body)
	if res.StatusCode != http.StatusCreated || m == nil {
		return "", false
	}
	return string(m[1]), true
}
