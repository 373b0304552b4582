package models_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/keyring"
	"github.com/markuproom/markuproom/models/modelstest"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, keyring.SecretKeySize) }

func newKeyring(t *testing.T, current []byte, previous ...[]byte) keyring.Keyring {
	t.Helper()
	k, err := keyring.New(current, previous...)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Webhook secrets and stored replays are sealed in the table; a plaintext
// row from before still signs and is sealed at start-up; after a key
// rotation, start-up seals everything again with the new key.
func TestStoredSecretsAreSealedAndRotate(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		storeWith := func(k keyring.Keyring) *models.Store {
			return models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir(), Keyring: k})
		}
		s1 := storeWith(newKeyring(t, key(1)))
		tenant := env.NewTenant(t, "Acme")
		org := tenant.Org.ID
		ep, err := s1.CreateWebhook(ctx, org, models.WebhookPolicy{}, models.NewWebhook{URL: "https://hooks.example.com/a", Events: []string{models.WebhookTransactionUpdated}})
		if err != nil {
			t.Fatal(err)
		}
		raw := func(id string) string {
			t.Helper()
			var s string
			if err := env.DB.DB.Raw("SELECT secret FROM webhook_endpoints WHERE id = ?", id).Scan(&s).Error; err != nil {
				t.Fatal(err)
			}
			return s
		}
		if r := raw(ep.ID); !keyring.IsSealed(r) || strings.Contains(r, ep.Secret) || strings.Contains(r, strings.TrimPrefix(ep.Secret, "whsec_")) {
			t.Fatalf("the table keeps %q", r)
		}
		// A stored replay (it may carry a room URL) is sealed too.
		if _, err := s1.ClaimIdempotencyKey(ctx, org, "POST /x", "k1", "h"); err != nil {
			t.Fatal(err)
		}
		body := []byte(`{"url":"http://x/markup-room/mrr_secret"}`)
		if err := s1.CompleteIdempotencyKey(ctx, org, "POST /x", "k1", 200, "application/json", models.RawJSON("{}"), body); err != nil {
			t.Fatal(err)
		}
		var rec models.IdempotencyRecord
		if err := env.DB.DB.Where("idempotency_key = ?", "k1").Take(&rec).Error; err != nil {
			t.Fatal(err)
		}
		stored := rec.Body
		if bytes.Contains(stored, []byte("mrr_secret")) || !keyring.IsSealed(string(stored)) {
			t.Fatalf("the idempotency table keeps %q", stored)
		}
		if c, err := s1.ClaimIdempotencyKey(ctx, org, "POST /x", "k1", "h"); err != nil || c.Replay == nil || !bytes.Equal(c.Replay.Body, body) {
			t.Fatalf("replay: %+v %v", c, err)
		}

		// A row written before sealing: plaintext, still signs, sealed at start-up.
		legacy := "whsec_" + strings.Repeat("A", 43) + "="
		if err := env.DB.DB.Exec("INSERT INTO webhook_endpoints (id, organization_id, url, events, secret, description, created_at) VALUES (?, ?, ?, ?, ?, '', ?)",
			"legacy-1", org, "https://hooks.example.com/b", `["transaction.updated"]`, legacy, env.Clock.Now()).Error; err != nil {
			t.Fatal(err)
		}
		if got, err := s1.WebhooksByID(ctx, []string{"legacy-1"}); err != nil || got["legacy-1"].Secret != legacy {
			t.Fatalf("legacy row: %+v %v", got["legacy-1"], err)
		}
		if n, err := s1.SealStoredSecrets(ctx); err != nil || n != 1 {
			t.Fatalf("start-up sealing: %d %v", n, err)
		}
		if r := raw("legacy-1"); !keyring.IsSealed(r) || strings.Contains(r, legacy) {
			t.Fatalf("legacy row after sealing: %q", r)
		}

		// Key rotation: the new key seals, the old one still opens; start-up
		// re-seals every value, after which the old key can go.
		s2 := storeWith(newKeyring(t, key(2), key(1)))
		got, err := s2.WebhooksByID(ctx, []string{ep.ID, "legacy-1"})
		if err != nil || got[ep.ID].Secret != ep.Secret || got["legacy-1"].Secret != legacy {
			t.Fatalf("with the previous key: %+v %v", got, err)
		}
		if n, err := s2.SealStoredSecrets(ctx); err != nil || n != 3 {
			t.Fatalf("re-sealing after rotation: %d %v", n, err)
		}
		s3 := storeWith(newKeyring(t, key(2)))
		got, err = s3.WebhooksByID(ctx, []string{ep.ID, "legacy-1"})
		if err != nil || got[ep.ID].Secret != ep.Secret || got["legacy-1"].Secret != legacy {
			t.Fatalf("with the new key alone: %+v %v", got, err)
		}
		if c, err := s3.ClaimIdempotencyKey(ctx, org, "POST /x", "k1", "h"); err != nil || c.Replay == nil || !bytes.Equal(c.Replay.Body, body) {
			t.Fatalf("replay after rotation: %+v %v", c, err)
		}
		// A server without the key refuses to sign rather than failing the batch.
		got, err = storeWith(newKeyring(t, key(9))).WebhooksByID(ctx, []string{ep.ID})
		if err != nil || got[ep.ID] == nil || got[ep.ID].Secret != "" {
			t.Fatalf("with a wrong key: %+v %v", got[ep.ID], err)
		}
	})
}
