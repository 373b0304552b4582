package delivery_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// For a day after a rotation, every call carries a signature by the old and
// one by the new secret, so a receiver still on the old one keeps working;
// then only the new one signs.
func TestRotatedSecretSignsBesideTheNewOneForADay(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		f := newFixture(t, env)
		var mu sync.Mutex
		var headers []http.Header
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			headers = append(headers, r.Header.Clone())
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
		}))
		t.Cleanup(srv.Close)
		ep, err := env.Store.CreateWebhook(t.Context(), f.tenant.Org.ID, models.WebhookPolicy{AllowPrivate: true},
			models.NewWebhook{URL: srv.URL, Events: []string{models.WebhookTransactionUpdated}})
		if err != nil {
			t.Fatal(err)
		}
		rotated, err := env.Store.RotateWebhookSecret(t.Context(), f.tenant.Org.ID, ep.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rotated.Secret == ep.Secret || !strings.HasPrefix(rotated.Secret, "whsec_") {
			t.Fatalf("rotation kept %q", rotated.Secret)
		}
		if _, err := env.Store.RotateWebhookSecret(t.Context(), f.tenant.Org.ID+1000, ep.ID); err != models.ErrNotFound {
			t.Fatalf("another organization's rotation: %v", err)
		}

		w := newWorker(t, env.Store, delivery.Config{AllowPrivateWebhooks: true})
		deliver := func() []string {
			t.Helper()
			tx := f.create(t, f.body("draft", nil, "Pat"))
			f.replace(t, tx.ID, f.body("draft", nil, "Pat"))
			runOnce(t, w)
			mu.Lock()
			defer mu.Unlock()
			if len(headers) == 0 {
				t.Fatal("no call arrived")
			}
			h := headers[len(headers)-1]
			headers = nil
			return append(strings.Fields(h.Get("webhook-signature")), h.Get("webhook-id"), h.Get("webhook-timestamp"))
		}
		check := func(got []string, secrets ...string) {
			t.Helper()
			sigs, id, ts := got[:len(got)-2], got[len(got)-2], got[len(got)-1]
			if len(sigs) != len(secrets) {
				t.Fatalf("%d signatures, want %d: %v", len(sigs), len(secrets), sigs)
			}
			var payload []byte
			for _, m := range f.messages(t) {
				if strings.Contains(string(m.Payload), id) {
					payload = m.Payload
				}
			}
			for i, s := range secrets {
				sec, _ := strconv.ParseInt(ts, 10, 64)
				want, err := delivery.Sign(s, id, sec, payload)
				if err != nil {
					t.Fatal(err)
				}
				if sigs[i] != want {
					t.Errorf("signature %d does not verify with the expected secret", i)
				}
			}
		}
		check(deliver(), rotated.Secret, ep.Secret)
		env.Clock.Advance(models.WebhookRotationOverlap + time.Minute)
		check(deliver(), rotated.Secret)
	})
}
