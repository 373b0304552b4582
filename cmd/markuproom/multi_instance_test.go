package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/markuproom/markuproom/handlers/delivery/deliverytest"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
)

// TestTwoInstancesShareOnePostgreSQLAndOneS3Bucket runs the deployment of
// the README's "Deploy" section: two processes of the real binary, each
// with its own MARKUPROOM_BASE_URL and data dir and on its own loopback
// address (127.0.0.1 and 127.0.0.2, so no cookie travels between them
// unless the test carries it, as a load balancer would), on one PostgreSQL
// schema, one MARKUPROOM_SESSION_SECRET and MARKUPROOM_SECRET_KEY, and one
// s3:// bucket served in this process by an S3-protocol server (gofakes3,
// in memory) through gocloud.dev's s3blob driver with an endpoint override,
// the way an S3-compatible store is configured. Both start at once on the
// empty database (each applies the migrations, one after the other).
//
// A room is created through the API of A, opened, edited and completed in a
// browser on B, and its PDFs are served by both. The test checks that what
// must be shared is: Idempotency-Keys (a key used on A replays on B), rate
// limits (uploads spread over A and B are refused at the combined count),
// admin sessions (signed in on A, used on B, signed out on B ends it on A)
// and the outbox (each webhook call and each e-mail is sent once, with both
// workers running). Every PDF lives in the bucket; neither data dir holds
// anything. Nothing leaves loopback.
//
// It needs PostgreSQL (TEST_DATABASE_URL): the embedded SQLite database is
// one process's (an embedded database file is opened by one server), so several instances run only on
// PostgreSQL, and the test is skipped without it.
func TestTwoInstancesShareOnePostgreSQLAndOneS3Bucket(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds and runs the server binary")
	}
	if os.Getenv(modelstest.PostgresURLEnv) == "" {
		t.Skip("needs PostgreSQL (TEST_DATABASE_URL): the embedded SQLite database is single-instance by design")
	}
	bin := serverBinary(t)
	databaseURL := modelstest.PostgresSchemaURL(t)

	// The S3 bucket, on loopback.
	s3 := s3mem.New()
	const bucket = "markuproom-pdfs"
	if err := s3.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	s3srv := httptest.NewServer(gofakes3.New(s3).Server())
	t.Cleanup(s3srv.Close)
	blobURL := "s3://" + bucket + "?" + url.Values{"endpoint": {s3srv.URL}, "use_path_style": {"true"}, "region": {"us-east-1"}}.Encode()

	// The mail catcher and the webhook receiver, on loopback.
	smtpd := deliverytest.StartSMTP(t)
	sink := newWebhookSink(t)

	shared := map[string]string{
		"DATABASE_URL":              databaseURL,
		"MARKUPROOM_BLOB_URL":       blobURL,
		"MARKUPROOM_SESSION_SECRET": "multi-instance-" + randomHex(t, 24),
		"MARKUPROOM_SECRET_KEY":     base64.StdEncoding.EncodeToString([]byte(randomHex(t, 16))),
		"MARKUPROOM_SMTP_URL":       smtpd.URL(),
		"MARKUPROOM_DEMO":           "false",
		"MARKUPROOM_LOG_LEVEL":      "info",
		// The receiver is on loopback (as in every outbox test).
		"MARKUPROOM_WEBHOOK_ALLOW_PRIVATE": "true",
		// A tight limit, set on both, that the test can reach: uploads per token.
		"MARKUPROOM_RATE_UPLOADS_PER_MIN": "3",
		// The S3 credentials, from the standard AWS variables; no shared
		// config file or instance metadata is read.
		"AWS_ACCESS_KEY_ID": "markuproom-test", "AWS_SECRET_ACCESS_KEY": "markuproom-test-secret",
		"AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"),
		"AWS_EC2_METADATA_DISABLED": "true",
	}

	// Both instances start at once on the empty schema: each applies the
	// migrations at start-up, one after the other (an advisory lock).
	a := startInstance(t, bin, "127.0.0.1", shared)
	b := startInstance(t, bin, "127.0.0.2", shared)
	a.waitReady(t)
	b.waitReady(t)

	// The operator's commands, run once against the shared database.
	adminPassword := "admin-" + randomHex(t, 8)
	cmd := func(stdin string, args ...string) map[string]any {
		t.Helper()
		c := exec.Command(bin, args...)
		c.Env = instanceEnv(shared, map[string]string{"MARKUPROOM_DATA_DIR": t.TempDir()})
		c.Stdin = strings.NewReader(stdin)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		out, err := c.Output()
		var v map[string]any
		if err != nil || json.Unmarshal(out, &v) != nil {
			t.Fatalf("markuproom %v: %v %s\n%s", args, err, out, stderr.String())
		}
		return v
	}
	orgID := cmd("", "org", "create", "--name", "Acme Title", "--json")["id"].(string)
	cmd(adminPassword+"\n", "user", "create", "--org", orgID, "--email", "ada@acme.example", "--first-name", "Ada", "--last-name", "Admin", "--admin", "--password-stdin", "--json")
	senderID := cmd("", "user", "create", "--org", orgID, "--email", "sam@acme.example", "--first-name", "Sam", "--last-name", "Sender", "--json")["id"].(string)
	token := cmd("", "token", "create", "--org", orgID, "--name", "integration", "--json")["token"].(string)
	uploadToken := cmd("", "token", "create", "--org", orgID, "--name", "uploads", "--json")["token"].(string)

	apiA, apiB := &apiClient{t: t, base: a.base, token: token}, &apiClient{t: t, base: b.base, token: token}

	// Webhook endpoints, registered on A; the same Idempotency-Key on B replays the registration.
	var hooks []string
	for i := range 3 {
		body := jsonOf(map[string]any{"url": fmt.Sprintf("%s/hook/%d", sink.srv.URL, i), "events": models.WebhookEvents()})
		key := fmt.Sprintf("webhook-%d", i)
		ra := apiA.do(http.MethodPost, "/api/v1/webhooks", key, "application/json", body)
		rb := apiB.do(http.MethodPost, "/api/v1/webhooks", key, "application/json", body)
		var ha, hb struct{ ID, Secret string }
		ra.decode(t, http.StatusCreated, &ha)
		rb.decode(t, http.StatusCreated, &hb)
		if rb.header.Get("Idempotent-Replayed") != "true" || hb.ID != ha.ID || hb.Secret != ha.Secret {
			t.Fatalf("webhook registration replayed on B: replayed %q, id %q vs %q", rb.header.Get("Idempotent-Replayed"), hb.ID, ha.ID)
		}
		hooks = append(hooks, ha.ID)
	}
	var listed struct{ Items []struct{ ID string } }
	apiB.do(http.MethodGet, "/api/v1/webhooks", "", "", nil).decode(t, http.StatusOK, &listed)
	if len(listed.Items) != len(hooks) {
		t.Fatalf("B lists %d webhook endpoints, want %d (a replay registered another)", len(listed.Items), len(hooks))
	}

	// A PDF uploaded to A is in the S3 bucket and is served by B.
	original := samplePDF(t)
	var doc struct{ ID, GCSRefID, Location string }
	apiA.do(http.MethodPost, "/api/v1/documents/upload?title=Purchase+agreement", "", "application/pdf", original).decode(t, http.StatusCreated, &doc)
	if got := s3Object(t, s3, bucket, doc.GCSRefID); !bytes.Equal(got, original) {
		t.Fatalf("the S3 bucket holds %d bytes under %q, want the %d uploaded", len(got), doc.GCSRefID, len(original))
	}
	if r := apiB.do(http.MethodGet, "/api/v1/documents/"+doc.ID+"/content", "", "", nil); r.status != http.StatusOK || !bytes.Equal(r.body, original) {
		t.Fatalf("B serves the document: %d, %d bytes", r.status, len(r.body))
	}

	// A room, created on A; the same key on B replays A's answer; the same key with another body is refused.
	roomBody := jsonOf(map[string]any{"senderId": senderID, "documents": []string{doc.Location}, "participants": []map[string]string{
		{"firstName": "Pat", "lastName": "Buyer", "email": "pat.buyer@example.com"},
		{"firstName": "Robin", "lastName": "Seller", "email": "robin.seller@example.com"},
	}})
	created := apiA.do(http.MethodPost, "/api/v1/markup-rooms", "room-1", "application/json", roomBody)
	var room struct{ ID, URL, TransactionID string }
	created.decode(t, http.StatusOK, &room)
	replayed := apiB.do(http.MethodPost, "/api/v1/markup-rooms", "room-1", "application/json", roomBody)
	if replayed.status != http.StatusOK || replayed.header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(replayed.body, created.body) {
		t.Fatalf("the room key replayed on B: %d, Idempotent-Replayed %q\nA: %s\nB: %s", replayed.status, replayed.header.Get("Idempotent-Replayed"), created.body, replayed.body)
	}
	other := jsonOf(map[string]any{"senderId": senderID, "documents": []string{doc.Location}})
	if r := apiB.do(http.MethodPost, "/api/v1/markup-rooms", "room-1", "application/json", other); r.status != http.StatusUnprocessableEntity || r.code() != "idempotency_key_reused" {
		t.Fatalf("the room key with another body on B: %d %s", r.status, r.body)
	}
	var rooms struct{ Items []struct{ ID string } }
	apiB.do(http.MethodGet, "/api/v1/markup-rooms", "", "", nil).decode(t, http.StatusOK, &rooms)
	if len(rooms.Items) != 1 || rooms.Items[0].ID != room.ID {
		t.Fatalf("rooms after the replays: %+v, want only %s", rooms.Items, room.ID)
	}
	if !strings.HasPrefix(room.URL, a.base+"/markup-room/") {
		t.Fatalf("room URL %q is not on A's MARKUPROOM_BASE_URL %s", room.URL, a.base)
	}

	// The room link, opened on B (the path of A's link on B's origin).
	browser := newBrowser(t)
	linkPath := strings.TrimPrefix(room.URL, a.base)
	page := browser.get(b.base+linkPath, http.StatusOK)
	if !strings.HasPrefix(page.url, b.base+"/rooms/"+room.ID) {
		t.Fatalf("the room link on B landed on %s", page.url)
	}
	csrf := csrfToken(t, page.body)
	roomPath := "/rooms/" + room.ID
	var tx struct {
		Participants []struct{ ID string }
		Documents    []struct{ ID, Title, GCSRefID string }
	}
	apiA.do(http.MethodGet, "/api/v1/transactions/"+room.TransactionID, "", "", nil).decode(t, http.StatusOK, &tx)
	if len(tx.Participants) != 2 || len(tx.Documents) != 1 {
		t.Fatalf("the room's transaction: %+v", tx)
	}

	// Edits on B: a signature tag per participant, a rename, a page edit.
	for i, p := range tx.Participants {
		browser.post(b.base+roomPath+"/tags", url.Values{"csrf": {csrf}, "documentPosition": {"0"}, "type": {"SIGNATURETEMPLATE"},
			"signerId": {p.ID}, "page": {"1"}, "x": {"72"}, "y": {fmt.Sprint(100 + 60*i)}, "width": {"150"}, "height": {"40"}}, http.StatusCreated)
	}
	browser.post(b.base+roomPath+"/documents/0/title", url.Values{"csrf": {csrf}, "title": {"Purchase agreement (final)"}}, http.StatusOK)
	browser.post(b.base+roomPath+"/documents/0/pages/3/delete", url.Values{"csrf": {csrf}}, http.StatusOK)

	// A sees B's edits; the edited PDF is a new object in the bucket.
	apiA.do(http.MethodGet, "/api/v1/transactions/"+room.TransactionID, "", "", nil).decode(t, http.StatusOK, &tx)
	edited := tx.Documents[0]
	if edited.Title != "Purchase agreement (final)" || edited.ID == doc.ID {
		t.Fatalf("A after B's edits: document %+v (uploaded %s)", edited, doc.ID)
	}
	inBucket := s3Object(t, s3, bucket, edited.GCSRefID)
	if info, err := pdf.Inspect(context.Background(), bytes.NewReader(inBucket)); err != nil || len(info.Pages) != 2 {
		t.Fatalf("the edited PDF in the bucket: %+v %v", info, err)
	}

	// The room's PDF, from both instances, with the room session B issued
	// carried to A: the same bytes, the ones in the bucket.
	pdfPath := roomPath + "/pdf/" + edited.ID
	fromB := browser.get(b.base+pdfPath, http.StatusOK)
	browser.carryCookies(b.base, a.base)
	fromA := browser.get(a.base+pdfPath, http.StatusOK)
	if !bytes.Equal([]byte(fromA.body), inBucket) || !bytes.Equal([]byte(fromB.body), inBucket) || fromA.header.Get("ETag") != fromB.header.Get("ETag") {
		t.Fatalf("the room PDF: A %d bytes (ETag %s), B %d bytes (ETag %s), bucket %d bytes",
			len(fromA.body), fromA.header.Get("ETag"), len(fromB.body), fromB.header.Get("ETag"), len(inBucket))
	}
	// A page of A is a page of the same room, with the same CSRF token.
	if p := browser.get(a.base+roomPath, http.StatusOK); csrfToken(t, p.body) != csrf || !strings.Contains(p.body, "Purchase agreement (final)") {
		t.Fatalf("the room page on A does not show B's session and edits")
	}

	// Transaction updates spread over A and B, for the outbox to carry.
	for i := range 10 {
		api := []*apiClient{apiA, apiB}[i%2]
		var full map[string]any
		r := api.do(http.MethodGet, "/api/v1/transactions/"+room.TransactionID, "", "", nil)
		r.decode(t, http.StatusOK, &full)
		full["personalizedMessage"] = fmt.Sprintf("Revision %d", i+1)
		api.doIfMatch(http.MethodPut, "/api/v1/transactions/"+room.TransactionID, r.header.Get("ETag"), jsonOf(full)).decode(t, http.StatusCreated, nil)
	}

	// Completed on B, seen completed through A's API.
	done := browser.post(b.base+roomPath+"/complete", url.Values{"csrf": {csrf}, "notify": {"email"}}, http.StatusOK)
	if !invitationsGoingOut.MatchString(done.body) {
		t.Fatalf("completing on B:\n%.500s", done.body)
	}
	var after struct{ Status string }
	apiA.do(http.MethodGet, "/api/v1/markup-rooms/"+room.ID, "", "", nil).decode(t, http.StatusOK, &after)
	if after.Status != "completed" {
		t.Fatalf("A reports the room %q after B completed it", after.Status)
	}

	// Rate limits: uploads are limited to 3 a minute per token, on each
	// instance; spread over A and B, the fourth and fifth are refused.
	upA, upB := &apiClient{t: t, base: a.base, token: uploadToken}, &apiClient{t: t, base: b.base, token: uploadToken}
	for i, api := range []*apiClient{upA, upB, upA, upB, upA} {
		r := api.do(http.MethodPost, "/api/v1/documents/upload", "", "application/pdf", original)
		want := http.StatusCreated
		if i >= 3 {
			want = http.StatusTooManyRequests
		}
		if r.status != want || (want == http.StatusTooManyRequests && (r.code() != "rate_limited" || r.header.Get("Retry-After") == "")) {
			t.Fatalf("upload %d (on %s): %d %s, want %d", i+1, api.base, r.status, r.body, want)
		}
	}

	// Admin sessions: signed in on A, used on B, signed out on B; A no longer takes the cookie.
	console := newBrowser(t)
	login := console.get(a.base+"/admin/login", http.StatusOK)
	signedIn := console.post(a.base+"/admin/login", url.Values{"csrf": {csrfToken(t, login.body)}, "email": {"ada@acme.example"}, "password": {adminPassword}}, http.StatusOK)
	if !strings.HasSuffix(signedIn.url, "/admin/transactions") {
		t.Fatalf("sign-in on A landed on %s", signedIn.url)
	}
	signedInCookies := console.cookies(a.base)
	console.carryCookies(a.base, b.base)
	onB := console.get(b.base+"/admin/transactions/"+room.TransactionID, http.StatusOK)
	if !strings.HasPrefix(onB.url, b.base+"/admin/transactions/") || !strings.Contains(onB.body, "Purchase agreement (final)") {
		t.Fatalf("A's console session on B landed on %s", onB.url)
	}
	// The overview: A and B chart the same transactions and rooms, counted
	// in the database with each change whichever instance made it.
	overA, overB := console.get(a.base+"/admin", http.StatusOK), console.get(b.base+"/admin", http.StatusOK)
	for _, id := range []string{"chart-transactions", "chart-rooms"} {
		onA, onB := chartTable(t, overA.body, id), chartTable(t, overB.body, id)
		if onA != onB || !strings.Contains(onA, `<td class="num">1</td>`) {
			t.Fatalf("the overview's %s differs between A and B, or counts nothing:\nA: %s\nB: %s", id, onA, onB)
		}
	}
	out := console.post(b.base+"/admin/logout", url.Values{"csrf": {csrfToken(t, onB.body)}}, http.StatusOK)
	if !strings.HasSuffix(out.url, "/admin/login") {
		t.Fatalf("sign-out on B landed on %s", out.url)
	}
	stale := newBrowser(t)
	stale.setCookies(a.base, signedInCookies)
	if r := stale.get(a.base+"/admin/transactions", http.StatusOK); !strings.HasSuffix(r.url, "/admin/login") {
		t.Fatalf("after sign-out on B, A still takes the session cookie: landed on %s", r.url)
	}

	// The outbox: every message sent once, by whichever worker claimed it.
	db, err := models.OpenDatabase(context.Background(), models.DatabaseOptions{URL: databaseURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	type row struct {
		ID, Kind, Status, Recipient string
		Attempts                    int
	}
	var rows []row
	deadline := time.Now().Add(60 * time.Second)
	for {
		rows = nil
		if err := db.DB.Raw("SELECT id, kind, status, recipient, attempts FROM outbox ORDER BY id").Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		settled := len(rows) > 0
		for _, r := range rows {
			if r.Status != string(models.MessageSent) {
				settled = false
			}
		}
		if settled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outbox did not drain: %+v", rows)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(2500 * time.Millisecond) // more than two polls of each worker: any second send would show
	var hookRows, mailRows int
	for _, r := range rows {
		switch r.Kind {
		case models.MessageWebhook:
			hookRows++
		case models.MessageEmail:
			mailRows++
		}
		if r.Attempts != 1 {
			t.Errorf("message %s (%s) took %d attempts", r.ID, r.Kind, r.Attempts)
		}
	}
	// Each of the 3 endpoints gets at least the 10 updates, the e-sign
	// session and the completion; each call arrives once.
	for call, n := range sink.calls() {
		if n != 1 {
			t.Errorf("webhook call %s arrived %d times", call, n)
		}
	}
	if hookRows < 3*12 || sink.total() != hookRows || sink.distinct() != hookRows {
		t.Errorf("webhook messages: %d queued, %d calls received (%d distinct)", hookRows, sink.total(), sink.distinct())
	}
	got := map[string]int{}
	for _, m := range smtpd.Messages() {
		got[strings.Join(m.To, ",")]++
	}
	if mailRows != 2 || len(got) != 2 || got["pat.buyer@example.com"] != 1 || got["robin.seller@example.com"] != 1 {
		t.Errorf("e-mails: %d queued, received %v", mailRows, got)
	}
	sentA, sentB := strings.Count(a.stderr.String(), `"msg":"outbox: sent"`), strings.Count(b.stderr.String(), `"msg":"outbox: sent"`)
	if sentA+sentB != len(rows) {
		t.Errorf("the workers logged %d + %d sends for %d messages", sentA, sentB, len(rows))
	}
	t.Logf("outbox: %d webhook calls and %d e-mails, each sent once; worker A sent %d, worker B %d", hookRows, mailRows, sentA, sentB)

	// Every PDF is in the bucket: the two instances' data dirs hold none.
	objects, err := s3.ListBucket(bucket, nil, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	if len(objects.Contents) < 5 { // the upload, the page edit, the three uploads the limit let through
		t.Errorf("the bucket holds %d objects", len(objects.Contents))
	}
	for _, inst := range []*instance{a, b} {
		_ = filepath.WalkDir(inst.dataDir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				t.Errorf("instance %s wrote %s to its data dir", inst.base, path)
			}
			return nil
		})
	}
	t.Logf("bucket %s: %d objects; A %s and B %s on one PostgreSQL schema", bucket, len(objects.Contents), a.base, b.base)
}

// instance is one server process of the multi-instance test.
type instance struct {
	base    string
	dataDir string
	stderr  *modelstest.LogBuffer
}

// instanceEnv is the process environment: the test's own less every
// MARKUPROOM_*, DATABASE_URL and AWS_* variable, then shared, then own.
func instanceEnv(shared, own map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MARKUPROOM_") || strings.HasPrefix(k, "AWS_") || k == "DATABASE_URL" {
			continue
		}
		env = append(env, kv)
	}
	for _, m := range []map[string]string{shared, own} {
		for k, v := range m {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// startInstance starts the binary on a free port of host, to run until the
// test ends; waitReady waits for its /readyz.
func startInstance(t *testing.T, bin, host string, shared map[string]string) *instance {
	t.Helper()
	ln, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", host, err)
	}
	addr := ln.Addr().String()
	ln.Close()
	inst := &instance{base: "http://" + addr, dataDir: t.TempDir(), stderr: &modelstest.LogBuffer{}}
	cmd := exec.Command(bin, "serve")
	cmd.Env = instanceEnv(shared, map[string]string{
		"MARKUPROOM_ADDR": addr, "MARKUPROOM_BASE_URL": inst.base, "MARKUPROOM_DATA_DIR": inst.dataDir,
	})
	cmd.Stdout = io.Discard
	cmd.Stderr = inst.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", inst.base, inst.stderr.String())
		}
	})
	return inst
}

func (inst *instance) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(inst.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready: %v\n%s", inst.base, err, inst.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// webhookSink is a webhook receiver on loopback that counts each
// webhook-id it is called with.
type webhookSink struct {
	srv *httptest.Server
	mu  sync.Mutex
	ids map[string]int
	n   int
}

func newWebhookSink(t *testing.T) *webhookSink {
	s := &webhookSink{ids: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		time.Sleep(20 * time.Millisecond) // a receiver that takes a moment: batches overlap
		s.mu.Lock()
		s.ids[r.URL.Path+" "+r.Header.Get("webhook-id")]++
		s.n++
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// calls returns how often each (endpoint path, webhook-id) was called: an
// event has one id, the same at every endpoint and on every retry.
func (s *webhookSink) calls() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.ids)
}

func (s *webhookSink) total() int    { s.mu.Lock(); defer s.mu.Unlock(); return s.n }
func (s *webhookSink) distinct() int { s.mu.Lock(); defer s.mu.Unlock(); return len(s.ids) }

// apiClient calls the API of one instance with a token.
type apiClient struct {
	t     *testing.T
	base  string
	token string
}

// apiAnswer is a response, read.
type apiAnswer struct {
	status int
	header http.Header
	body   []byte
}

func (r apiAnswer) code() string {
	var p struct{ Errors []struct{ Code string } }
	if json.Unmarshal(r.body, &p) != nil || len(p.Errors) == 0 {
		return ""
	}
	return p.Errors[0].Code
}

func (r apiAnswer) decode(t *testing.T, status int, into any) {
	t.Helper()
	if r.status != status {
		t.Fatalf("answered %d, want %d: %s", r.status, status, r.body)
	}
	if into != nil {
		if err := json.Unmarshal(r.body, into); err != nil {
			t.Fatalf("%v: %s", err, r.body)
		}
	}
}

func (c *apiClient) do(method, path, idempotencyKey, contentType string, body []byte) apiAnswer {
	return c.send(method, path, map[string]string{"Idempotency-Key": idempotencyKey, "Content-Type": contentType}, body)
}

func (c *apiClient) doIfMatch(method, path, etag string, body []byte) apiAnswer {
	return c.send(method, path, map[string]string{"If-Match": etag, "Content-Type": "application/json"}, body)
}

func (c *apiClient) send(method, path string, headers map[string]string, body []byte) apiAnswer {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	for k, v := range headers {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	res, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return apiAnswer{status: res.StatusCode, header: res.Header, body: b}
}

// browser is a cookie-keeping client; cookies stay with the host that set
// them (127.0.0.1 and 127.0.0.2 are different hosts) unless carried.
type browser struct {
	t      *testing.T
	jar    *cookiejar.Jar
	client *http.Client
}

type page struct {
	url    string
	header http.Header
	body   string
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, jar: jar, client: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
}

func (b *browser) get(u string, status int) page {
	b.t.Helper()
	return b.read(b.client.Get(u))(status)
}

// post sends a form as htmx does for room edits, or as a plain form for
// the others (sign-in, sign-out and completion navigate).
func (b *browser) post(u string, form url.Values, status int) page {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if strings.Contains(u, "/rooms/") && !strings.HasSuffix(u, "/complete") {
		req.Header.Set("HX-Request", "true")
	}
	return b.read(b.client.Do(req))(status)
}

func (b *browser) read(res *http.Response, err error) func(int) page {
	b.t.Helper()
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	p := page{url: res.Request.URL.String(), header: res.Header, body: string(body)}
	return func(status int) page {
		b.t.Helper()
		if res.StatusCode != status {
			b.t.Fatalf("%s %s: %d, want %d\n%.500s", res.Request.Method, p.url, res.StatusCode, status, p.body)
		}
		return p
	}
}

func (b *browser) cookies(base string) []*http.Cookie {
	u, _ := url.Parse(base)
	return b.jar.Cookies(u)
}

func (b *browser) setCookies(base string, cookies []*http.Cookie) {
	u, _ := url.Parse(base)
	b.jar.SetCookies(u, cookies)
}

// carryCookies gives the other instance's host the cookies this browser has for from.
func (b *browser) carryCookies(from, to string) {
	b.t.Helper()
	cookies := b.cookies(from)
	if len(cookies) == 0 {
		b.t.Fatalf("no cookies for %s", from)
	}
	b.setCookies(to, cookies)
}

func csrfToken(t *testing.T, body string) string {
	t.Helper()
	m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF token in %.300s", body)
	}
	return m[1]
}

func s3Object(t *testing.T, backend *s3mem.Backend, bucket, key string) []byte {
	t.Helper()
	obj, err := backend.GetObject(bucket, key, nil)
	if err != nil {
		t.Fatalf("the S3 bucket has no object %q: %v", key, err)
	}
	defer obj.Contents.Close()
	b, err := io.ReadAll(obj.Contents)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonOf(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// chartTable is the figures table of the overview's chart id in page.
func chartTable(t *testing.T, page, id string) string {
	t.Helper()
	start := strings.Index(page, `data-chart-table="`+id+`"`)
	if start < 0 {
		t.Fatalf("the overview has no table of %s", id)
	}
	table := page[start:]
	return table[:strings.Index(table, "</table>")]
}
