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
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery/deliverytest"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// secretSet is what the log must never contain, by kind.
type secretSet struct {
	mu    sync.Mutex
	kinds map[string][]string
}

func (s *secretSet) add(kind string, values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kinds == nil {
		s.kinds = map[string][]string{}
	}
	for _, v := range values {
		if len(v) >= 8 { // shorter values would match by chance
			s.kinds[kind] = append(s.kinds[kind], v)
		}
	}
}

// recordingJar is a cookie jar that remembers every cookie value it was given.
type recordingJar struct {
	http.CookieJar
	secrets *secretSet
}

func (j recordingJar) SetCookies(u *url.URL, cookies []*http.Cookie) {
	for _, c := range cookies {
		j.secrets.add("cookie value ("+c.Name+")", c.Value)
	}
	j.CookieJar.SetCookies(u, cookies)
}

// TestNoSecretInAnyLogLine runs the whole product once, logging at debug
// level — operator commands, the API (upload, PUT, room creation,
// idempotent replays, webhook registration and rotation), a room (link,
// edits, completion), the admin console (sign-in, pages, a token), the
// outbox (an invitation to an SMTP server whose URL carries credentials, a
// webhook call), a statement slowed by a lock and failing statements — and
// fails if any secret it handled appears in any line written.
func TestNoSecretInAnyLogLine(t *testing.T) {
	for name, dbURL := range databases(t) {
		t.Run(name, func(t *testing.T) { fullRunLogs(t, name, dbURL()) })
	}
}

func fullRunLogs(t *testing.T, dialect, dbURL string) {
	dir := t.TempDir()
	if dbURL == "" {
		dbURL = "sqlite://" + filepath.Join(dir, "db", "markuproom.db")
	}
	secrets := &secretSet{}
	rnd := func(n int) string {
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return hex.EncodeToString(b)
	}
	sessionSecret := "session-" + rnd(24)
	keyBytes := make([]byte, 32)
	_, _ = rand.Read(keyBytes)
	secretKey := base64.StdEncoding.EncodeToString(keyBytes)
	adminPassword, dupPassword, participantPassword := "admin-pw-"+rnd(8), "dup-pw-"+rnd(8), "personal-pw-"+rnd(8)
	smtpUser, smtpPassword := "mailer-"+rnd(4), "smtp-pw-"+rnd(8)
	secrets.add("session secret", sessionSecret)
	secrets.add("secret key", secretKey, base64.RawURLEncoding.EncodeToString(keyBytes))
	secrets.add("admin password", adminPassword)
	secrets.add("user password (refused duplicate)", dupPassword)
	secrets.add("participant personal password", participantPassword)
	secrets.add("SMTP credential", smtpPassword, smtpUser+":"+smtpPassword)

	smtpd := deliverytest.StartSMTP(t)
	var hookMu sync.Mutex
	var hookSigs []string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hookMu.Lock()
		hookSigs = append(hookSigs, r.Header.Get("webhook-signature"))
		hookMu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(receiver.Close)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	base := "http://" + addr
	env := map[string]string{
		"MARKUPROOM_DATA_DIR": dir, "DATABASE_URL": dbURL, "MARKUPROOM_DEMO": "false",
		"MARKUPROOM_ADDR": addr, "MARKUPROOM_BASE_URL": base, "MARKUPROOM_LOG_LEVEL": "debug",
		"MARKUPROOM_SESSION_SECRET": sessionSecret, "MARKUPROOM_SECRET_KEY": secretKey,
		"MARKUPROOM_SMTP_URL":              "smtp://" + smtpUser + ":" + smtpPassword + "@" + smtpd.Addr,
		"MARKUPROOM_WEBHOOK_ALLOW_PRIVATE": "true",
	}
	getenv := func(k string) string { return env[k] }
	var logs modelstest.LogBuffer // everything any part of the product wrote, except a command's intended stdout

	// Operator commands.
	cli := func(stdin string, args ...string) (int, string) {
		t.Helper()
		var out bytes.Buffer
		code := run(context.Background(), args, getenv, strings.NewReader(stdin), &out, &logs)
		return code, out.String()
	}
	cliJSON := func(stdin string, args ...string) map[string]any {
		t.Helper()
		code, out := cli(stdin, args...)
		var v map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
			t.Fatalf("%v: exit %d, %q\n%s", args, code, out, logs.String())
		}
		return v
	}
	orgID := cliJSON("", "org", "create", "--name", "Acme Title", "--json")["id"].(string)
	cliJSON(adminPassword+"\n", "user", "create", "--org", orgID, "--email", "ada@acme.example", "--first-name", "Ada", "--last-name", "Admin", "--admin", "--password-stdin", "--json")
	senderID := cliJSON("", "user", "create", "--org", orgID, "--email", "sam@acme.example", "--first-name", "Sam", "--last-name", "Sender", "--json")["id"].(string)
	apiToken := cliJSON("", "token", "create", "--org", orgID, "--name", "CI", "--json")["token"].(string)
	secrets.add("API token", apiToken)
	if code, _ := cli(dupPassword+"\n", "user", "create", "--org", orgID, "--email", "ADA@acme.example", "--first-name", "A", "--last-name", "B", "--admin", "--password-stdin"); code != 1 {
		t.Fatalf("a duplicate user: exit %d", code)
	}

	// The server.
	ctx, cancel := context.WithCancel(context.Background())
	var serveOut modelstest.LogBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve"}, getenv, strings.NewReader(""), &serveOut, &logs) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not start:\n%s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}

	call := func(method, path, idemKey string, body []byte, contentType string, into any) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+apiToken)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if idemKey != "" {
			req.Header.Set("Idempotency-Key", idemKey)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
		}
		if into != nil {
			if err := json.Unmarshal(b, into); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
		}
		return res
	}
	jsonBody := func(v any) []byte { b, _ := json.Marshal(v); return b }

	// API: webhooks (registration, its replay, rotation).
	var hook struct{ ID, Secret string }
	hookToken := "receiver-token-" + rnd(8) // the receiver's own credential, in its URL
	secrets.add("token in a webhook endpoint's URL", hookToken)
	whBody := jsonBody(map[string]any{"url": receiver.URL + "/hooks?token=" + hookToken, "events": models.WebhookEvents()})
	call(http.MethodPost, "/api/v1/webhooks", "wh-1", whBody, "application/json", &hook)
	secrets.add("webhook secret", hook.Secret, strings.TrimPrefix(hook.Secret, "whsec_"))
	var replayed struct{ Secret string }
	if res := call(http.MethodPost, "/api/v1/webhooks", "wh-1", whBody, "application/json", &replayed); res.Header.Get("Idempotent-Replayed") != "true" || replayed.Secret != hook.Secret {
		t.Fatalf("webhook replay: %v %q", res.Header, replayed.Secret)
	}
	var rotated struct{ Secret string }
	call(http.MethodPost, "/api/v1/webhooks/"+hook.ID+"/rotate-secret", "", nil, "", &rotated)
	secrets.add("webhook secret", rotated.Secret, strings.TrimPrefix(rotated.Secret, "whsec_"))

	// API: upload, room creation and its replay.
	var doc struct{ Location string }
	call(http.MethodPost, "/api/v1/documents/upload?title=Contract", "", samplePDF(t), "application/pdf", &doc)
	roomBody := jsonBody(map[string]any{"senderId": senderID, "documents": []string{doc.Location},
		"participants": []map[string]string{{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"}}})
	var room struct{ ID, URL, TransactionID string }
	call(http.MethodPost, "/api/v1/markup-rooms", "room-1", roomBody, "application/json", &room)
	addRoom := func(u string) {
		secrets.add("room link", u, strings.TrimPrefix(u, base+"/markup-room/"))
	}
	addRoom(room.URL)
	var again struct{ URL string }
	call(http.MethodPost, "/api/v1/markup-rooms", "room-1", roomBody, "application/json", &again)
	if again.URL != room.URL {
		t.Fatalf("room replay: %q", again.URL)
	}

	// A room: the link, a guessed link, an added participant with a personal password.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: recordingJar{jar, secrets}}
	res, err := browser.Get(room.URL + "?token=" + apiToken)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	roomPage := res.Request.URL.String()
	m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("room page %s without a CSRF token", roomPage)
	}
	roomCSRF := string(m[1])
	secrets.add("CSRF token (room)", roomCSRF)
	if res, err := browser.Get(base + "/markup-room/mrr_" + rnd(12) + "_" + rnd(32)); err == nil {
		res.Body.Close()
	}
	res, err = browser.PostForm(roomPage+"/participants", url.Values{"csrf": {roomCSRF}, "firstName": {"Robin"}, "lastName": {"Seller"},
		"email": {"robin@example.com"}, "authenticationType": {"personal-password"}, "personalPasswordQuestion": {"Pet?"}, "personalPassword": {participantPassword}})
	if err != nil || res.StatusCode >= 400 {
		t.Fatalf("add participant: %v %v", err, res)
	}
	res.Body.Close()

	// API: PUT the room's transaction with a signature tag per participant.
	var tx map[string]any
	call(http.MethodGet, "/api/v1/transactions/"+room.TransactionID, "", nil, "", &tx)
	d0 := tx["documents"].([]any)[0].(map[string]any)
	var tags []any
	for i, p := range tx["participants"].([]any) {
		tags = append(tags, map[string]any{"type": "SIGNATURETEMPLATE", "x": 72, "y": 100 + 60*i, "width": 150, "height": 40, "page": 1,
			"signerId": p.(map[string]any)["id"], "customData": map[string]any{}})
	}
	d0["tags"] = tags
	call(http.MethodPut, "/api/v1/transactions/"+room.TransactionID, "", jsonBody(tx), "application/json", nil)

	// The room completes: invitations (SMTP with credentials) and webhook calls.
	res, err = browser.PostForm(roomPage+"/complete", url.Values{"csrf": {roomCSRF}, "notify": {"email"}})
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("complete: %v %v", err, res)
	}
	res.Body.Close()

	// The console: sign-in, pages, a token, a refused duplicate user (a failing INSERT), a rotation.
	ajar, _ := cookiejar.New(nil)
	admin := &http.Client{Jar: recordingJar{ajar, secrets}}
	get := func(path string) string {
		t.Helper()
		res, err := admin.Get(base + path)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v %v", path, err, res)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return string(b)
	}
	post := func(path string, form url.Values) string {
		t.Helper()
		res, err := admin.PostForm(base+path, form)
		if err != nil || res.StatusCode >= 500 {
			t.Fatalf("POST %s: %v %v", path, err, res)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return string(b)
	}
	csrfOf := func(page string) string {
		t.Helper()
		m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no CSRF token in %.300s", page)
		}
		secrets.add("CSRF token (console)", m[1])
		return m[1]
	}
	loginCSRF := csrfOf(get("/admin/login"))
	post("/admin/login", url.Values{"csrf": {loginCSRF}, "email": {"ada@acme.example"}, "password": {adminPassword}})
	consoleCSRF := csrfOf(get("/admin/transactions"))
	get("/admin/transactions/" + room.TransactionID)
	get("/admin/rooms")
	get("/admin/outbox")
	orgPath := "/admin/organizations/" + orgID
	get(orgPath)
	tokPage := post(orgPath+"/tokens", url.Values{"csrf": {consoleCSRF}, "name": {"Console"}})
	tm := regexp.MustCompile(`data-new-token>([^<]+)<`).FindStringSubmatch(tokPage)
	if tm == nil {
		t.Fatal("the console showed no new token")
	}
	secrets.add("API token", tm[1])
	post(orgPath+"/users", url.Values{"csrf": {consoleCSRF}, "email": {"sam@acme.example"}, "firstName": {"S"}, "lastName": {"S"}, "admin": {"true"}, "password": {dupPassword}})
	rotPage := post(orgPath+"/webhooks/"+hook.ID+"/rotate-secret", url.Values{"csrf": {consoleCSRF}})
	if rm := regexp.MustCompile(`data-new-webhook-secret>([^<]+)<`).FindStringSubmatch(rotPage); rm != nil {
		secrets.add("webhook secret", rm[1], strings.TrimPrefix(rm[1], "whsec_"))
	} else {
		t.Fatal("the console rotation showed no secret")
	}

	// A statement slowed by a lock another connection holds (as in the
	// issue: a row lock slowed an insert), during a room creation.
	lockDB, err := models.OpenDatabase(context.Background(), models.DatabaseOptions{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	lock := lockDB.DB.Begin()
	if dialect == "postgres" {
		err = lock.Exec("LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE").Error
	} else {
		err = lock.Exec("UPDATE organizations SET name = name").Error // SQLite: the write lock
	}
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(800 * time.Millisecond) // deliberately fixed: the lock is held that long, the behaviour under test
		lock.Rollback()
		close(released)
	}()
	var room2 struct{ URL string }
	call(http.MethodPost, "/api/v1/markup-rooms", "room-2", roomBody, "application/json", &room2)
	addRoom(room2.URL)
	<-released
	_ = lockDB.Close()

	// Wait for the outbox: the invitation attempt and the webhook calls.
	deadline = time.Now().Add(30 * time.Second)
	for {
		hookMu.Lock()
		n := len(hookSigs)
		hookMu.Unlock()
		l := logs.String()
		if n > 0 && strings.Contains(l, `"kind":"email"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outbox did not send (webhook calls %d):\n%s", n, l)
		}
		time.Sleep(100 * time.Millisecond)
	}
	post("/admin/logout", url.Values{"csrf": {consoleCSRF}})
	stop()

	all := logs.String() + serveOut.String()
	if testing.Verbose() {
		t.Log(all)
	}
	lines := strings.Split(strings.TrimSpace(all), "\n")
	// The run reached every path the test claims to cover.
	for what, re := range map[string]string{
		"a slow statement":              `"level":"WARN","msg":"SQL executed"`,
		"a failing statement":           `"level":"ERROR","msg":"SQL executed"|level=ERROR msg="SQL executed"`,
		"a room link in the access log": `"path":"/markup-room/\[redacted\]`,
		"an e-mail attempt":             `"kind":"email"`,
		"a webhook call":                `"kind":"webhook"`,
	} {
		if !regexp.MustCompile(re).MatchString(all) {
			t.Errorf("the log has no line for %s (%s)", what, re)
		}
	}
	secrets.mu.Lock()
	kinds := make([]string, 0, len(secrets.kinds))
	for k := range secrets.kinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		for _, v := range secrets.kinds[kind] {
			for i, l := range lines {
				if strings.Contains(l, v) {
					t.Errorf("line %d carries a %s: %s", i+1, kind, l)
				}
			}
		}
	}
	secrets.mu.Unlock()
	// Whatever the test did not think of: no token- or secret-shaped value at all.
	shaped := regexp.MustCompile(`whsec_[A-Za-z0-9+/]|mrr_[0-9a-f]{8}|mrt_[0-9a-f]{8}`)
	for i, l := range lines {
		if shaped.MatchString(l) {
			t.Errorf("line %d carries a token-shaped value: %s", i+1, l)
		}
	}
	counts := make([]string, len(kinds))
	for i, k := range kinds {
		counts[i] = fmt.Sprintf("%s (%d)", k, len(secrets.kinds[k]))
	}
	t.Logf("%s: searched %d log lines for: %s; and for any whsec_/mrr_/mrt_ token shape", dialect, len(lines), strings.Join(counts, ", "))
}
