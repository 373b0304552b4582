package models_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/web/i18n"
)

// A transaction that names no invitation subject stores none (NULL: "the
// default", said in each reader's language); a subject of its own is kept.
// Migration 00026 turns the English default older rows stored into NULL.
// (The API's default sent back is taken as none by the API:
// handlers' TestDefaultInviteSubjectReadsInEnglish.)
func TestInviteSubjectDefaultIsStoredAsNone(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "Lease")
		create := func(subject any) string {
			var body map[string]any
			if err := json.Unmarshal(modelstest.TransactionBody(doc, 1, 1), &body); err != nil {
				t.Fatal(err)
			}
			if subject != nil {
				body["inviteEmailSubject"] = subject
			}
			b, _ := json.Marshal(body)
			in, err := models.ParseTransactionInput(b)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := env.Store.CreateTransaction(ctx, p.Actor(), in)
			if err != nil {
				t.Fatal(err)
			}
			return tx.ID
		}
		stored := func(id string) *string {
			var s *string
			if err := env.DB.DB.Raw("SELECT invite_email_subject FROM transactions WHERE id = ?", id).Row().Scan(&s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		english := i18n.English().T("mail.invitation.subject")
		none, own := create(nil), create("Your lease")
		if s := stored(none); s != nil {
			t.Errorf("no subject stored %q", *s)
		}
		if s := stored(own); s == nil || *s != "Your lease" {
			t.Errorf("the caller's subject stored %v", s)
		}

		if err := env.DB.DB.Exec("UPDATE transactions SET invite_email_subject = ? WHERE id = ?", english, none).Error; err != nil {
			t.Fatal(err)
		}
		for _, stmt := range migrationUpdates(t, env.DB.Dialect, "00026_invite_subject.sql") {
			if err := env.DB.DB.Exec(stmt).Error; err != nil {
				t.Fatalf("%v\n%s", err, stmt)
			}
		}
		if s := stored(none); s != nil {
			t.Errorf("migration 00026 left %q", *s)
		}
		if s := stored(own); s == nil || *s != "Your lease" {
			t.Errorf("migration 00026 changed the caller's subject to %v", s)
		}
	})
}
