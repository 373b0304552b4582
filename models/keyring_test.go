package models_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, models.SecretKeySize) }

func keyring(t *testing.T, current []byte, previous ...[]byte) models.Keyring {
	t.Helper()
	k, err := models.NewKeyring(current, previous...)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestKeyringSealsAndOpens(t *testing.T) {
	k1 := keyring(t, key(1))
	sealed, err := k1.Seal([]byte("whsec_abc"), "row-1")
	if err != nil || !models.IsSealed(sealed) || strings.Contains(sealed, "whsec_abc") {
		t.Fatalf("sealed %q, %v", sealed, err)
	}
	if pt, current, err := k1.Open(sealed, "row-1"); err != nil || string(pt) != "whsec_abc" || !current {
		t.Fatalf("open: %q %v %v", pt, current, err)
	}
	if _, _, err := k1.Open(sealed, "row-2"); err == nil {
		t.Fatal("a value moved to another row opened")
	}
	// During a rotation the previous key opens, and says the value is not current.
	k2 := keyring(t, key(2), key(1))
	if pt, current, err := k2.Open(sealed, "row-1"); err != nil || string(pt) != "whsec_abc" || current {
		t.Fatalf("open with the previous key: %q %v %v", pt, current, err)
	}
	if _, _, err := keyring(t, key(2)).Open(sealed, "row-1"); err != models.ErrUnknownSecretKey {
		t.Fatalf("without the old key: %v", err)
	}
	if _, err := models.NewKeyring([]byte("short")); err == nil {
		t.Fatal("a short key was accepted")
	}
	// The derived key is stable, 32 bytes, and depends on the session secret.
	a, _ := models.DeriveSecretKey(key(7))
	b, _ := models.DeriveSecretKey(key(7))
	c, _ := models.DeriveSecretKey(key(8))
	if len(a) != models.SecretKeySize || !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatal("DeriveSecretKey is not a stable per-secret 32-byte key")
	}
	for in, ok := range map[string]bool{
		"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=": true, "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE": true,
		"AQEB": false, "not base64!": false,
	} {
		if _, err := models.ParseSecretKey(in); (err == nil) != ok {
			t.Errorf("ParseSecretKey(%q): %v", in, err)
		}
	}
}

// Webhook secrets and stored replays are sealed in the table; a plaintext
// row from before still signs and is sealed at start-up; after a key
// rotation, start-up seals everything again with the new key.
func TestStoredSecretsAreSealedAndRotate(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		storeWith := func(k models.Keyring) *models.Store {
			return models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir(), Keyring: k})
		}
		s1 := storeWith(keyring(t, key(1)))
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
		if r := raw(ep.ID); !models.IsSealed(r) || strings.Contains(r, ep.Secret) || strings.Contains(r, strings.TrimPrefix(ep.Secret, "whsec_")) {
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
		if bytes.Contains(stored, []byte("mrr_secret")) || !models.IsSealed(string(stored)) {
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
		if r := raw("legacy-1"); !models.IsSealed(r) || strings.Contains(r, legacy) {
			t.Fatalf("legacy row after sealing: %q", r)
		}

		// Key rotation: the new key seals, the old one still opens; start-up
		// re-seals every value, after which the old key can go.
		s2 := storeWith(keyring(t, key(2), key(1)))
		got, err := s2.WebhooksByID(ctx, []string{ep.ID, "legacy-1"})
		if err != nil || got[ep.ID].Secret != ep.Secret || got["legacy-1"].Secret != legacy {
			t.Fatalf("with the previous key: %+v %v", got, err)
		}
		if n, err := s2.SealStoredSecrets(ctx); err != nil || n != 3 {
			t.Fatalf("re-sealing after rotation: %d %v", n, err)
		}
		s3 := storeWith(keyring(t, key(2)))
		got, err = s3.WebhooksByID(ctx, []string{ep.ID, "legacy-1"})
		if err != nil || got[ep.ID].Secret != ep.Secret || got["legacy-1"].Secret != legacy {
			t.Fatalf("with the new key alone: %+v %v", got, err)
		}
		if c, err := s3.ClaimIdempotencyKey(ctx, org, "POST /x", "k1", "h"); err != nil || c.Replay == nil || !bytes.Equal(c.Replay.Body, body) {
			t.Fatalf("replay after rotation: %+v %v", c, err)
		}
		// A server without the key refuses to sign rather than failing the batch.
		got, err = storeWith(keyring(t, key(9))).WebhooksByID(ctx, []string{ep.ID})
		if err != nil || got[ep.ID] == nil || got[ep.ID].Secret != "" {
			t.Fatalf("with a wrong key: %+v %v", got[ep.ID], err)
		}
	})
}
