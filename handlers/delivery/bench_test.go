package delivery_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery"
	"github.com/markuproom/markuproom/handlers/delivery/deliverytest"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// Outbox throughput: messages per second from queued to delivered, to the
// in-process SMTP server and to a webhook receiver on loopback, with the
// worker's defaults (batches of 20, 4 sends at once). Run with a fixed
// count, e.g. go test -run '^$' -bench Outbox -benchtime 1000x ./handlers/delivery/
// (PostgreSQL too when TEST_DATABASE_URL is set). Queueing is not timed.
func BenchmarkOutboxToSMTP(b *testing.B) {
	for _, d := range modelstest.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			env := modelstest.New(b, d)
			smtpd := deliverytest.StartSMTP(b)
			queue(b, env, b.N, func(f *fixture, n int) {
				names := make([]string, n)
				for i := range names {
					names[i] = fmt.Sprintf("Signer%03d", i)
				}
				f.create(b, f.body("esign_pending", map[string]any{"notifyParticipants": map[string]any{"email": true}}, names...))
			})
			drain(b, env, delivery.Config{SMTPURL: smtpd.URL()}, b.N)
			if got := len(smtpd.Messages()); got != b.N {
				b.Fatalf("%d messages arrived, want %d", got, b.N)
			}
		})
	}
}

func BenchmarkOutboxToWebhook(b *testing.B) {
	for _, d := range modelstest.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			env := modelstest.New(b, d)
			var calls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.WriteHeader(http.StatusNoContent)
			}))
			b.Cleanup(srv.Close)
			var txID string
			queue(b, env, b.N, func(f *fixture, n int) {
				if txID == "" {
					for i := range models.MaxWebhooksPerOrg {
						if _, err := env.Store.CreateWebhook(b.Context(), f.tenant.Org.ID, models.WebhookPolicy{AllowPrivate: true},
							models.NewWebhook{URL: fmt.Sprintf("%s/hook/%d", srv.URL, i), Events: []string{models.WebhookTransactionUpdated}}); err != nil {
							b.Fatal(err)
						}
					}
					txID = f.create(b, f.body("draft", nil, "Pat")).ID
				}
				f.replace(b, txID, f.body("draft", nil, "Pat")) // one transaction.updated per endpoint
			})
			// Only b.N of the queued calls are timed; the rest are dropped first.
			trim(b, env, b.N)
			drain(b, env, delivery.Config{AllowPrivateWebhooks: true}, b.N)
			if calls.Load() != int64(b.N) {
				b.Fatalf("%d calls arrived, want %d", calls.Load(), b.N)
			}
		})
	}
}

// queue calls add (with how many messages are still wanted, at most 100)
// until at least n messages wait in the outbox.
func queue(b *testing.B, env *modelstest.Env, n int, add func(f *fixture, want int)) {
	b.Helper()
	f := newFixture(b, env)
	for {
		var have int64
		env.DB.DB.Model(&models.OutboxMessage{}).Count(&have)
		if have >= int64(n) {
			return
		}
		add(f, min(n-int(have), 100))
	}
}

// trim deletes queued messages beyond the first n.
func trim(b *testing.B, env *modelstest.Env, n int) {
	b.Helper()
	var ids []string
	env.DB.DB.Model(&models.OutboxMessage{}).Order("id").Offset(n).Pluck("id", &ids)
	if len(ids) > 0 {
		if err := env.DB.DB.Where("id IN ?", ids).Delete(&models.OutboxMessage{}).Error; err != nil {
			b.Fatal(err)
		}
	}
}

// drain times one worker sending n queued messages and reports messages per second.
func drain(b *testing.B, env *modelstest.Env, cfg delivery.Config, n int) {
	b.Helper()
	cfg.Timeout = 10 * time.Second
	w, err := delivery.New(env.Store, cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	for done := 0; done < n; {
		k, err := w.RunOnce(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if k == 0 {
			b.Fatalf("nothing left to claim after %d of %d", done, n)
		}
		done += k
	}
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(n)/elapsed.Seconds(), "msgs/s")
	var failed []string
	env.DB.DB.Model(&models.OutboxMessage{}).Where("status <> ?", models.MessageSent).Limit(3).Pluck("last_error", &failed)
	if len(failed) > 0 {
		raw, _ := json.Marshal(failed)
		b.Fatalf("not every message was sent: %s", strings.TrimSpace(string(raw)))
	}
}
