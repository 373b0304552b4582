package models_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// A change that rolls back after its messages were written leaves none behind.
func TestRolledBackReplaceQueuesNothing(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		actor := actorOf(t, env, tenant)
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "contract")
		if _, err := env.Store.CreateWebhook(t.Context(), tenant.Org.ID, models.WebhookPolicy{},
			models.NewWebhook{URL: "https://hooks.example.com/in", Events: models.WebhookEvents()}); err != nil {
			t.Fatal(err)
		}
		tx := createTx(t, env, actor, txBody(doc, 1, 2, 2))

		// Fail the statement right after the outbox rows were inserted, inside the same transaction.
		boom := errors.New("the database went away")
		inserted := 0
		if err := env.DB.DB.Callback().Create().After("gorm:create").Register("test:fail_outbox", func(db *gorm.DB) {
			if db.Statement.Table == "outbox" && db.Error == nil {
				inserted += int(db.RowsAffected)
				_ = db.AddError(boom)
			}
		}); err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		_ = json.Unmarshal(txBody(doc, 1, 2, 2), &body)
		body["status"] = "esign_pending"
		body["notifyParticipants"] = map[string]any{"email": true}
		b, _ := json.Marshal(body)
		in, err := models.ParseTransactionInput(b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.ReplaceTransaction(t.Context(), actor, tx.ID, in, ""); !errors.Is(err, boom) {
			t.Fatalf("replace: %v", err)
		}
		if inserted == 0 {
			t.Fatal("the test did not reach the outbox insert")
		}
		var n int64
		env.DB.DB.Model(&models.OutboxMessage{}).Count(&n)
		if n != 0 {
			t.Fatalf("%d messages survived the rollback", n)
		}
		got, err := env.Store.GetTransaction(t.Context(), tenant.Org.ID, tx.ID)
		if err != nil || got.Version != 1 || got.Status != "draft" {
			t.Fatalf("the transaction changed: %+v %v", got, err)
		}

		// The same change, committed, queues its messages.
		_ = env.DB.DB.Callback().Create().Remove("test:fail_outbox")
		if _, err := env.Store.ReplaceTransaction(t.Context(), actor, tx.ID, in, ""); err != nil {
			t.Fatal(err)
		}
		var kinds []string
		env.DB.DB.Model(&models.OutboxMessage{}).Order("id").Pluck("event", &kinds)
		want := []string{"transaction.updated", "transaction.esign_pending", "invitation", "invitation"}
		if len(kinds) != len(want) {
			t.Fatalf("queued %v, want %v", kinds, want)
		}
		for i := range want {
			if kinds[i] != want[i] {
				t.Fatalf("queued %v, want %v", kinds, want)
			}
		}
	})
}

// A long error from a remote server is kept, cut between characters.
func TestLongErrorsAreClippedToValidText(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		actor := actorOf(t, env, tenant)
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "contract")
		var body map[string]any
		_ = json.Unmarshal(txBody(doc, 1, 1, 1), &body)
		body["status"] = "esign_pending"
		body["notifyParticipants"] = map[string]any{"email": true}
		b, _ := json.Marshal(body)
		createTx(t, env, actor, b)
		msgs, err := env.Store.ClaimMessages(t.Context(), 10, time.Minute)
		if err != nil || len(msgs) != 1 {
			t.Fatalf("claim: %v %v", msgs, err)
		}
		long := errors.New("x" + strings.Repeat("é", 600)) // 1,201 bytes: byte 1,000 is inside a character
		if err := env.Store.FinishMessages(t.Context(), []models.MessageOutcome{{Message: &msgs[0], Outcome: models.Outcome{Err: long}}}, models.DefaultRetryPolicy()); err != nil {
			t.Fatal(err)
		}
		var m models.OutboxMessage
		env.DB.DB.First(&m, "id = ?", msgs[0].ID)
		if !utf8.ValidString(m.LastError) || len(m.LastError) != 999 || !strings.HasPrefix(long.Error(), m.LastError) {
			t.Fatalf("stored error: %d bytes, valid %v", len(m.LastError), utf8.ValidString(m.LastError))
		}
	})
}
