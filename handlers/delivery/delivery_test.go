package delivery_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers/delivery"
	"github.com/markuproom/markuproom/handlers/delivery/deliverytest"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/web/i18n"
)

// fixture is an organization with one uploaded PDF.
type fixture struct {
	env    *modelstest.Env
	tenant *modelstest.Tenant
	actor  models.Actor
	doc    *models.Document
}

func newFixture(t testing.TB, env *modelstest.Env) *fixture {
	t.Helper()
	tenant := env.NewTenant(t, "Acme Title")
	p, err := env.Store.AuthenticateAPIToken(t.Context(), tenant.Token)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{env: env, tenant: tenant, actor: p.Actor(), doc: env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "Purchase agreement")}
}

// body is a transaction request with the given status and participants
// (first names; e-mails follow from them).
func (f *fixture) body(status string, extra map[string]any, names ...string) []byte {
	var parts []map[string]any
	for i, n := range names {
		parts = append(parts, map[string]any{"id": fmt.Sprint("p", i), "email": strings.ToLower(strings.Fields(n)[0]) + "@example.com",
			"firstName": n, "lastName": "Signer", "authenticationType": "none", "twoFactorContact": "email"})
	}
	b := map[string]any{
		"status": status, "referenceId": "REF-7", "participants": parts,
		"documents": []map[string]any{{"gcsRefId": f.doc.ObjectKey, "title": "Purchase agreement", "sessionType": "esign", "type": "oath", "tags": []any{}}},
	}
	for k, v := range extra {
		b[k] = v
	}
	out, _ := json.Marshal(b)
	return out
}

func (f *fixture) create(t testing.TB, body []byte) *models.Transaction {
	t.Helper()
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := f.env.Store.CreateTransaction(t.Context(), f.actor, in)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func (f *fixture) replace(t testing.TB, id string, body []byte) {
	t.Helper()
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.env.Store.ReplaceTransaction(t.Context(), f.actor, id, in, ""); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) messages(t *testing.T) []models.OutboxMessage {
	t.Helper()
	var out []models.OutboxMessage
	if err := f.env.DB.DB.Order("id").Find(&out).Error; err != nil {
		t.Fatal(err)
	}
	return out
}

func newWorker(t *testing.T, store delivery.Store, cfg delivery.Config) *delivery.Worker {
	t.Helper()
	if cfg.Retry.Attempts == 0 {
		cfg.Retry = models.RetryPolicy{Base: time.Minute, Max: time.Minute, Attempts: 3}
	}
	cfg.Timeout = 5 * time.Second
	w, err := delivery.New(store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func runOnce(t *testing.T, w *delivery.Worker) int {
	t.Helper()
	n, err := w.RunOnce(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// parts reads a multipart/alternative message into its bodies by media type.
func parts(t *testing.T, data []byte) map[string]string {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q, want multipart/alternative", m.Header.Get("Content-Type"))
	}
	out := map[string]string{}
	r := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p) // multipart.Reader undoes quoted-printable
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		out[ct] = string(b)
	}
}

func TestInvitationsReachTheSMTPServer(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		smtpd := deliverytest.StartSMTP(t)
		extra := map[string]any{"notifyParticipants": map[string]any{"email": true}, "inviteEmailSubject": "Sign the Elm St. papers",
			"personalizedMessage": "Hi both,\nplease sign by Friday & call me with questions."}
		tx := f.create(t, f.body("draft", extra, "Pat", "Robin"))
		if n := len(f.messages(t)); n != 0 {
			t.Fatalf("a draft queued %d messages", n)
		}
		f.replace(t, tx.ID, f.body("esign_pending", extra, "Pat", "Robin"))

		// Queued with the change, recorded in the history.
		msgs := f.messages(t)
		if len(msgs) != 2 || msgs[0].Kind != models.MessageEmail || msgs[0].Status != models.MessagePending {
			t.Fatalf("queued: %+v", msgs)
		}
		events, err := env.Store.ListTransactionEvents(t.Context(), f.tenant.Org.ID, tx.ID)
		if err != nil {
			t.Fatal(err)
		}
		if last := events[len(events)-1]; last.Kind != models.EventInvitationsQueued || !strings.Contains(string(last.Summary), "robin@example.com") {
			t.Fatalf("history ends with %s %s", last.Kind, last.Summary)
		}

		// The first attempt meets a temporary refusal; the retry, after the backoff, delivers one copy.
		smtpd.Refuse(1)
		w := newWorker(t, env.Store, delivery.Config{SMTPURL: smtpd.URL(), From: "Acme Title <closings@acme.example>"})
		if n := runOnce(t, w); n != 2 {
			t.Fatalf("claimed %d", n)
		}
		if got := len(smtpd.Messages()); got != 1 {
			t.Fatalf("after one refusal %d messages arrived, want 1", got)
		}
		var failed models.OutboxMessage
		if err := env.DB.DB.Where("status = ? AND last_error <> ''", models.MessagePending).First(&failed).Error; err != nil {
			t.Fatalf("the refused message is not waiting for a retry: %v", err)
		}
		if !strings.Contains(failed.LastError, "451") || !failed.NextAttemptAt.After(env.Clock.Now()) {
			t.Fatalf("refused message: error %q, next try %s", failed.LastError, failed.NextAttemptAt)
		}
		if n := runOnce(t, w); n != 0 {
			t.Fatalf("a message came back before its backoff: %d", n)
		}
		env.Clock.Advance(2 * time.Minute)
		runOnce(t, w)
		got := smtpd.Messages()
		if len(got) != 2 {
			t.Fatalf("%d messages arrived, want exactly 2", len(got))
		}
		for _, m := range f.messages(t) {
			if m.Status != models.MessageSent || m.SentAt == nil {
				t.Fatalf("message %s is %s", m.ID, m.Status)
			}
		}

		byRcpt := map[string]deliverytest.Received{}
		for _, m := range got {
			if len(m.To) != 1 || m.From != "closings@acme.example" {
				t.Fatalf("envelope from %q to %v", m.From, m.To)
			}
			byRcpt[m.To[0]] = m
		}
		pat, ok := byRcpt["pat@example.com"]
		if !ok || byRcpt["robin@example.com"].Data == nil {
			t.Fatalf("recipients: %v", byRcpt)
		}
		h := pat.Header(t)
		if h.Get("Subject") != "Sign the Elm St. papers" || !strings.Contains(h.Get("To"), "pat@example.com") || !strings.Contains(h.Get("From"), "closings@acme.example") {
			t.Fatalf("headers: %v", h)
		}
		bodies := parts(t, pat.Data)
		plain, html := bodies["text/plain"], bodies["text/html"]
		for _, want := range []string{"Hello Pat Signer", "Acme Title", "Purchase agreement", "please sign by Friday & call me", "REF-7"} {
			if !strings.Contains(plain, want) {
				t.Errorf("plain body lacks %q:\n%s", want, plain)
			}
		}
		for _, want := range []string{"Hello Pat Signer", "Purchase agreement", "please sign by Friday &amp; call me", "<li>"} {
			if !strings.Contains(html, want) {
				t.Errorf("HTML body lacks %q:\n%s", want, html)
			}
		}

		// Staying esign_pending queues no second round.
		f.replace(t, tx.ID, f.body("esign_pending", extra, "Pat", "Robin"))
		if n := len(f.messages(t)); n != 2 {
			t.Fatalf("a second PUT queued invitations again: %d messages", n)
		}
	})
}

func TestHeaderInjectionIsRefused(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		// In the API: a subject with a line break is a 400.
		bad := f.body("esign_pending", map[string]any{"notifyParticipants": map[string]any{"email": true},
			"inviteEmailSubject": "Sign\r\nBcc: thief@evil.example"}, "Pat")
		_, err := models.ParseTransactionInput(bad)
		var ve *models.ValidationError
		if !asValidation(err, &ve) || ve.Kind != models.KindInvalid || ve.Errors[0].Pointer != "#/inviteEmailSubject" {
			t.Fatalf("a subject with CR/LF: %v", err)
		}

		// A name is one line too (a 400 in the API)...
		_, err = models.ParseTransactionInput(f.body("esign_pending", nil, "Pat\r\nBcc: thief@evil.example\r\n"))
		if !asValidation(err, &ve) || ve.Kind != models.KindInvalid || ve.Errors[0].Pointer != "#/participants/0/firstName" {
			t.Fatalf("a name with CR/LF: %v", err)
		}
		// ... and whatever a queued invitation's name holds (one stored
		// before that rule), it cannot add a header or a recipient.
		smtpd := deliverytest.StartSMTP(t)
		f.create(t, f.body("esign_pending", map[string]any{"notifyParticipants": map[string]any{"email": true}}, "Pat"))
		msgs := f.messages(t)
		if len(msgs) != 1 {
			t.Fatalf("%d messages queued", len(msgs))
		}
		var inv models.Invitation
		if err := json.Unmarshal(msgs[0].Payload, &inv); err != nil {
			t.Fatal(err)
		}
		inv.Name = "Pat\r\nBcc: thief@evil.example\r\n Signer"
		payload, _ := json.Marshal(inv)
		if err := env.DB.DB.Model(&models.OutboxMessage{}).Where("id = ?", msgs[0].ID).Update("payload", string(payload)).Error; err != nil {
			t.Fatal(err)
		}
		runOnce(t, newWorker(t, env.Store, delivery.Config{SMTPURL: smtpd.URL(), From: "closings@acme.example"}))
		got := smtpd.Messages()
		if len(got) != 1 || len(got[0].To) != 1 || got[0].To[0] != "pat@example.com" {
			t.Fatalf("received %+v", got)
		}
		h := got[0].Header(t)
		if h.Get("Bcc") != "" || strings.Contains(string(got[0].Data), "\r\nBcc:") {
			t.Fatalf("a Bcc header got through:\n%s", got[0].Data)
		}
		if to, _ := mail.ParseAddress(h.Get("To")); to == nil || to.Address != "pat@example.com" {
			t.Fatalf("To: %q", h.Get("To"))
		}
		if h.Get("Subject") != i18n.English().T("mail.invitation.subject") {
			t.Fatalf("default subject: %q", h.Get("Subject"))
		}
	})
}

func asValidation(err error, target **models.ValidationError) bool {
	ve, ok := err.(*models.ValidationError)
	if ok {
		*target = ve
	}
	return ok
}

func TestWithoutSMTPInvitationsAreHeld(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		f.create(t, f.body("esign_pending", map[string]any{"notifyParticipants": map[string]any{"email": true}}, "Pat"))
		var logs modelstest.LogBuffer
		w := newWorker(t, env.Store, delivery.Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		runOnce(t, w)
		m := f.messages(t)[0]
		if m.Status != models.MessageHeld || !strings.Contains(m.LastError, "no SMTP server is configured") {
			t.Fatalf("without SMTP: %s %q", m.Status, m.LastError)
		}
		if !strings.Contains(logs.String(), "pat@example.com") || !strings.Contains(logs.String(), i18n.English().T("mail.invitation.subject")) {
			t.Fatalf("the log does not name recipient and subject:\n%s", logs.String())
		}
		// With an SMTP server configured, held messages go out.
		if n, err := env.Store.ResumeHeld(t.Context()); err != nil || n != 1 {
			t.Fatalf("resume held: %d %v", n, err)
		}
		smtpd := deliverytest.StartSMTP(t)
		runOnce(t, newWorker(t, env.Store, delivery.Config{SMTPURL: smtpd.URL()}))
		if len(smtpd.Messages()) != 1 || f.messages(t)[0].Status != models.MessageSent {
			t.Fatal("the held invitation was not sent once SMTP was configured")
		}
	})
}

// receiver is a webhook endpoint that checks every call's signature with the
// documented algorithm, written here independently of the sender.
type receiver struct {
	secret string
	fail   atomic.Int32 // answer 500 to this many calls
	mu     sync.Mutex
	calls  []call
}

type call struct {
	ID, Timestamp string
	Valid         bool
	Event         map[string]any
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id, ts := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(rc.secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + string(body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	valid := false
	for _, sig := range strings.Fields(r.Header.Get("webhook-signature")) {
		valid = valid || hmac.Equal([]byte(sig), []byte(want))
	}
	var ev map[string]any
	_ = json.Unmarshal(body, &ev)
	if sec, err := strconv.ParseInt(ts, 10, 64); err != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		valid = false
	}
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		valid = false
	}
	if rc.fail.Add(-1) >= 0 {
		http.Error(w, "receiver down", http.StatusInternalServerError)
		return
	}
	rc.mu.Lock()
	rc.calls = append(rc.calls, call{ID: id, Timestamp: ts, Valid: valid, Event: ev})
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) Calls() []call {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]call(nil), rc.calls...)
}

func TestWebhooksAreSignedAndRetried(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		rc := &receiver{}
		srv := httptest.NewServer(rc)
		t.Cleanup(srv.Close)
		ep, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, models.WebhookPolicy{AllowPrivate: true},
			models.NewWebhook{URL: srv.URL + "/hooks", Events: []string{models.WebhookTransactionESignPending}})
		if err != nil {
			t.Fatal(err)
		}
		rc.secret = ep.Secret
		if !strings.HasPrefix(ep.Secret, "whsec_") {
			t.Fatalf("secret %q", ep.Secret)
		}
		tx := f.create(t, f.body("draft", nil, "Pat"))
		f.replace(t, tx.ID, f.body("draft", nil, "Pat")) // transaction.updated: not subscribed
		if n := len(f.messages(t)); n != 0 {
			t.Fatalf("an unsubscribed event was queued: %d", n)
		}
		f.replace(t, tx.ID, f.body("esign_pending", nil, "Pat"))

		rc.fail.Store(1)
		w := newWorker(t, env.Store, delivery.Config{AllowPrivateWebhooks: true})
		runOnce(t, w)
		m := f.messages(t)[0]
		if m.Status != models.MessagePending || !strings.Contains(m.LastError, "500") {
			t.Fatalf("after a 500: %s %q", m.Status, m.LastError)
		}
		env.Clock.Advance(2 * time.Minute)
		runOnce(t, w)
		calls := rc.Calls()
		if len(calls) != 1 {
			t.Fatalf("%d deliveries, want exactly 1", len(calls))
		}
		c := calls[0]
		if !c.Valid {
			t.Fatal("the signature does not verify")
		}
		data, _ := c.Event["data"].(map[string]any)
		if c.Event["type"] != models.WebhookTransactionESignPending || c.Event["id"] != c.ID || data["transactionId"] != tx.ID || data["status"] != "esign_pending" || c.Event["time"] == nil {
			t.Fatalf("event: %v", c.Event)
		}
		if m := f.messages(t)[0]; m.Status != models.MessageSent || m.Attempts != 2 {
			t.Fatalf("after delivery: %s, %d attempts", m.Status, m.Attempts)
		}

		// Out of attempts: dead, and an admin's retry brings it back.
		f.replace(t, tx.ID, f.body("draft", nil, "Pat"))
		f.replace(t, tx.ID, f.body("esign_pending", nil, "Pat"))
		rc.fail.Store(100)
		for range 3 {
			runOnce(t, w)
			env.Clock.Advance(2 * time.Minute)
		}
		last := f.messages(t)[1]
		if last.Status != models.MessageDead || last.Attempts != 3 {
			t.Fatalf("after 3 failures: %s, %d attempts", last.Status, last.Attempts)
		}
		rc.fail.Store(0)
		if _, err := env.Store.RetryMessage(t.Context(), last.ID); err != nil {
			t.Fatal(err)
		}
		runOnce(t, w)
		if got := f.messages(t)[1]; got.Status != models.MessageSent || len(rc.Calls()) != 2 {
			t.Fatalf("after retry: %s, %d calls", got.Status, len(rc.Calls()))
		}

		// A call queued for an endpoint deleted since is not made.
		f.replace(t, tx.ID, f.body("draft", nil, "Pat"))
		f.replace(t, tx.ID, f.body("esign_pending", nil, "Pat"))
		if err := env.Store.DeleteWebhook(t.Context(), f.tenant.Org.ID, ep.ID); err != nil {
			t.Fatal(err)
		}
		runOnce(t, w)
		if got := f.messages(t)[2]; got.Status != models.MessageDead || !strings.Contains(got.LastError, "deleted") || len(rc.Calls()) != 2 {
			t.Fatalf("for a deleted endpoint: %s %q, %d calls", got.Status, got.LastError, len(rc.Calls()))
		}
	})
}

func TestPrivateWebhookTargetsAreRefused(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		// At registration, without the operator setting.
		strict := models.WebhookPolicy{}
		for _, u := range []string{"http://hooks.example.com/x", "https://127.0.0.1/x", "https://10.1.2.3/x", "https://[::1]/x",
			"https://169.254.169.254/latest/meta-data", "https://localhost/x", "https://user:pw@hooks.example.com/x", "ftp://hooks.example.com"} {
			_, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, strict, models.NewWebhook{URL: u, Events: []string{models.WebhookTransactionUpdated}})
			var ve *models.ValidationError
			if !asValidation(err, &ve) || ve.Errors[0].Pointer != "#/url" {
				t.Errorf("%s was accepted: %v", u, err)
			}
		}
		// A public name under .invalid (RFC 6761): never resolves, and no DNS query leaves the machine at send time.
		if _, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, strict, models.NewWebhook{URL: "https://hooks.invalid/x", Events: []string{models.WebhookTransactionUpdated}}); err != nil {
			t.Fatalf("a public https URL was refused: %v", err)
		}

		// At send time: names that resolve to loopback are refused before any connection.
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
		t.Cleanup(srv.Close)
		port := srv.Listener.Addr().String()
		port = port[strings.LastIndexByte(port, ':')+1:]
		for _, u := range []string{srv.URL, "http://localhost:" + port} {
			if _, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, models.WebhookPolicy{AllowPrivate: true},
				models.NewWebhook{URL: u, Events: []string{models.WebhookTransactionESignPending}}); err != nil {
				t.Fatal(err)
			}
		}
		f.create(t, f.body("esign_pending", nil, "Pat"))
		runOnce(t, newWorker(t, env.Store, delivery.Config{})) // private targets not allowed
		if hits.Load() != 0 {
			t.Fatal("the worker connected to a loopback address")
		}
		for _, m := range f.messages(t) {
			if strings.Contains(m.Recipient, "hooks.invalid") {
				continue // a public name that never resolves
			}
			if m.Status != models.MessageDead || !strings.Contains(m.LastError, "refused") {
				t.Errorf("%s: %s %q", m.Recipient, m.Status, m.LastError)
			}
		}
	})
}

func TestTwoWorkersDeliverEachMessageOnce(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		smtpd := deliverytest.StartSMTP(t)
		names := make([]string, 100)
		for i := range names {
			names[i] = fmt.Sprintf("Signer%03d", i)
		}
		notify := map[string]any{"notifyParticipants": map[string]any{"email": true}}
		f.create(t, f.body("esign_pending", notify, names...))
		f.create(t, f.body("esign_pending", notify, names...))
		if n := len(f.messages(t)); n != 200 {
			t.Fatalf("queued %d", n)
		}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		// Two instances: each worker has its own store and connection pool.
		for _, store := range []*models.Store{env.Store, env.AnotherInstance(t)} {
			w := newWorker(t, store, delivery.Config{SMTPURL: smtpd.URL(), Batch: 10, Concurrency: 4, Poll: 10 * time.Millisecond})
			wg.Go(func() { w.Run(ctx) })
		}
		smtpd.WaitMessages(t, 200, 60*time.Second)
		// Deliberately a fixed wait: it shows that nothing more comes (a duplicate would arrive now).
		time.Sleep(200 * time.Millisecond)
		cancel()
		wg.Wait()
		got := smtpd.Messages()
		seen := map[string]int{}
		for _, m := range got {
			seen[m.Header(t).Get("Message-Id")]++
		}
		if len(got) != 200 || len(seen) != 200 {
			t.Fatalf("%d messages arrived with %d distinct ids, want 200 once each", len(got), len(seen))
		}
		for _, m := range f.messages(t) {
			if m.Status != models.MessageSent || m.Attempts != 1 {
				t.Fatalf("message %s: %s after %d attempts", m.ID, m.Status, m.Attempts)
			}
		}
	})
}

func TestShutdownFinishesTheSendInFlightAndReturnsTheRest(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		started := make(chan struct{}, 10)
		release := make(chan struct{})
		var got atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			started <- struct{}{}
			<-release
			got.Add(1)
			w.WriteHeader(http.StatusOK)
		}))
		t.Cleanup(srv.Close)
		for i := range 3 {
			if _, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, models.WebhookPolicy{AllowPrivate: true},
				models.NewWebhook{URL: fmt.Sprintf("%s/%d", srv.URL, i), Events: []string{models.WebhookTransactionESignPending}}); err != nil {
				t.Fatal(err)
			}
		}
		f.create(t, f.body("esign_pending", nil, "Pat"))

		w := newWorker(t, env.Store, delivery.Config{AllowPrivateWebhooks: true, Concurrency: 1, Poll: time.Hour})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() {
			w.Run(ctx)
			close(done)
		}()
		<-started // one call is in flight; the other two wait for a slot
		cancel()
		select {
		case <-done:
			t.Fatal("Run returned while a send was in flight")
		case <-time.After(100 * time.Millisecond):
		}
		close(release)
		<-done
		var sent, waiting int
		for _, m := range f.messages(t) {
			switch {
			case m.Status == models.MessageSent && m.Attempts == 1:
				sent++
			case m.Status == models.MessagePending && m.Attempts == 0 && m.LeaseUntil == nil && m.LeaseToken == "":
				waiting++
			default:
				t.Errorf("message %s: %s, %d attempts, lease %v", m.ID, m.Status, m.Attempts, m.LeaseUntil)
			}
		}
		if sent != 1 || waiting != 2 || got.Load() != 1 {
			t.Fatalf("after shutdown: %d sent, %d back in the queue, %d calls", sent, waiting, got.Load())
		}
	})
}

func TestALapsedLeaseBringsAClaimBack(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		f.create(t, f.body("esign_pending", map[string]any{"notifyParticipants": map[string]any{"email": true}}, "Pat"))
		first, err := env.Store.ClaimMessages(t.Context(), 10, time.Minute)
		if err != nil || len(first) != 1 {
			t.Fatalf("claim: %v %v", first, err)
		}
		// The worker that claimed it dies; nobody else may take it while its lease runs.
		if again, _ := env.Store.ClaimMessages(t.Context(), 10, time.Minute); len(again) != 0 {
			t.Fatal("a leased message was claimed twice")
		}
		env.Clock.Advance(61 * time.Second)
		again, err := env.Store.ClaimMessages(t.Context(), 10, time.Minute)
		if err != nil || len(again) != 1 || again[0].Attempts != 2 {
			t.Fatalf("after the lease: %+v %v", again, err)
		}
		// The first worker, back from the dead, cannot record an outcome over the new claim.
		if err := env.Store.FinishMessages(t.Context(), []models.MessageOutcome{{Message: &first[0]}}, models.DefaultRetryPolicy()); err != nil {
			t.Fatal(err)
		}
		if m := f.messages(t)[0]; m.Status != models.MessagePending || m.LeaseToken != again[0].LeaseToken {
			t.Fatalf("a stale claim changed the message: %s", m.Status)
		}
	})
}

func TestWorkerMetrics(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		var fail atomic.Int32
		fail.Store(1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if fail.Add(-1) >= 0 {
				w.WriteHeader(http.StatusBadGateway)
			}
		}))
		t.Cleanup(srv.Close)
		if _, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, models.WebhookPolicy{AllowPrivate: true},
			models.NewWebhook{URL: srv.URL, Events: []string{models.WebhookTransactionESignPending}}); err != nil {
			t.Fatal(err)
		}
		f.create(t, f.body("esign_pending", map[string]any{"notifyParticipants": map[string]any{"email": true}}, "Pat"))
		reg := prometheus.NewRegistry()
		w := newWorker(t, env.Store, delivery.Config{AllowPrivateWebhooks: true, Registry: reg, Counter: env.Store})
		runOnce(t, w)
		env.Clock.Advance(2 * time.Minute)
		runOnce(t, w)

		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, fam := range families {
			for _, m := range fam.GetMetric() {
				key := fam.GetName()
				for _, l := range m.GetLabel() {
					key += "," + l.GetName() + "=" + l.GetValue()
				}
				switch {
				case m.GetCounter() != nil:
					got[key] = m.GetCounter().GetValue()
				case m.GetGauge() != nil:
					got[key] = m.GetGauge().GetValue()
				case m.GetHistogram() != nil:
					got[key] = float64(m.GetHistogram().GetSampleCount())
				}
			}
		}
		want := map[string]float64{
			"markuproom_outbox_deliveries_total,kind=webhook,outcome=retry": 1,
			"markuproom_outbox_deliveries_total,kind=webhook,outcome=sent":  1,
			"markuproom_outbox_deliveries_total,kind=email,outcome=held":    1,
			"markuproom_outbox_send_duration_seconds,kind=webhook":          2,
			"markuproom_outbox_messages,status=sent":                        1,
			"markuproom_outbox_messages,status=held":                        1,
			"markuproom_outbox_messages,status=pending":                     0,
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s = %v, want %v", k, got[k], v)
			}
		}
	})
}
