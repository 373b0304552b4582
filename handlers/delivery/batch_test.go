package delivery_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery"
	"github.com/markuproom/markuproom/handlers/delivery/deliverytest"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// A batch's e-mails share one SMTP connection and are recorded as sent
// while a slow webhook of the same batch is still waiting for its answer.
func TestASlowWebhookDoesNotHoldUpTheEmailsOfItsBatch(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		smtpd := deliverytest.StartSMTP(t)
		release := make(chan struct{})
		var once sync.Once
		open := func() { once.Do(func() { close(release) }) }
		t.Cleanup(open)
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-release // the webhook answers only when the test lets it
			w.WriteHeader(http.StatusNoContent)
		}))
		t.Cleanup(slow.Close)
		if _, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, models.WebhookPolicy{AllowPrivate: true},
			models.NewWebhook{URL: slow.URL + "/hook", Events: models.WebhookEvents()}); err != nil {
			t.Fatal(err)
		}
		names := []string{"Ada", "Bob", "Cy", "Dee", "Eve"}
		f.create(t, f.body("esign_pending", map[string]any{"notifyParticipants": map[string]any{"email": true}}, names...))
		kinds := map[string]int{}
		for _, m := range f.messages(t) {
			kinds[m.Kind]++
		}
		if kinds[models.MessageEmail] != len(names) || kinds[models.MessageWebhook] == 0 {
			t.Fatalf("queued %v, want %d e-mails and a webhook", kinds, len(names))
		}

		w := newWorker(t, env.Store, delivery.Config{SMTPURL: smtpd.URL(), AllowPrivateWebhooks: true, Batch: 20, Concurrency: 1})
		done := make(chan int)
		go func() { done <- runOnce(t, w) }()
		sentEmails := func() int {
			var n int64
			env.DB.DB.Model(&models.OutboxMessage{}).Where("kind = ? AND status = ?", models.MessageEmail, models.MessageSent).Count(&n)
			return int(n)
		}
		deadline := time.Now().Add(20 * time.Second)
		for sentEmails() < len(names) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if got := sentEmails(); got != len(names) {
			t.Fatalf("%d of %d e-mails recorded as sent while the webhook is still waiting", got, len(names))
		}
		if got := smtpd.Sessions(); got != 1 {
			t.Errorf("the batch's e-mails took %d SMTP connections, want 1", got)
		}
		open()
		if n := <-done; n != len(names)+kinds[models.MessageWebhook] {
			t.Errorf("the run claimed %d messages", n)
		}
		for _, m := range f.messages(t) {
			if m.Status != models.MessageSent {
				t.Errorf("%s %s: %s (%s)", m.Kind, m.ID, m.Status, m.LastError)
			}
		}
	})
}
