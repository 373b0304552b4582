package models_test

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// txBody builds a transaction with docs documents, tags tags on each and parts participants.
func txBody(doc *models.Document, docs, tags, parts int) []byte {
	var participants []map[string]any
	for i := 0; i < parts; i++ {
		participants = append(participants, map[string]any{"id": fmt.Sprint("p", i), "email": fmt.Sprintf("p%d@example.com", i),
			"firstName": "P", "lastName": fmt.Sprint(i), "authenticationType": "none", "twoFactorContact": "email"})
	}
	var documents []map[string]any
	for d := 0; d < docs; d++ {
		var ts []map[string]any
		for i := 0; i < tags; i++ {
			ts = append(ts, map[string]any{"type": "SIGNATURETEMPLATE", "x": 10 + i%500, "y": 10 + i%700, "width": 50, "height": 20,
				"signerId": fmt.Sprint("p", i%parts), "customData": map[string]any{"i": i}, "page": 1 + i%3})
		}
		documents = append(documents, map[string]any{"gcsRefId": doc.ObjectKey, "title": fmt.Sprint("Doc ", d), "sessionType": "esign",
			"type": "oath", "tags": ts})
	}
	b, _ := json.Marshal(map[string]any{"status": "draft", "referenceId": "r", "documents": documents, "participants": participants})
	return b
}

func actorOf(t *testing.T, env *modelstest.Env, tenant *modelstest.Tenant) models.Actor {
	t.Helper()
	p, err := env.Store.AuthenticateAPIToken(t.Context(), tenant.Token)
	if err != nil {
		t.Fatal(err)
	}
	return p.Actor()
}

func createTx(t *testing.T, env *modelstest.Env, actor models.Actor, body []byte) *models.Transaction {
	t.Helper()
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := env.Store.CreateTransaction(t.Context(), actor, in)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// TestGetTransactionCostsAFixedNumberOfQueries guards against N+1 reads.
func TestGetTransactionCostsAFixedNumberOfQueries(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		actor := actorOf(t, env, tenant)
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "contract")
		small := createTx(t, env, actor, txBody(doc, 1, 1, 1))
		large := createTx(t, env, actor, txBody(doc, 12, 150, 25))

		var queries atomic.Int64
		if err := env.DB.DB.Callback().Query().After("gorm:query").Register("test:count", func(*gorm.DB) { queries.Add(1) }); err != nil {
			t.Fatal(err)
		}
		count := func(id string) int64 {
			queries.Store(0)
			got, err := env.Store.GetTransaction(t.Context(), tenant.Org.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			if id == large.ID && (len(got.Documents) != 12 || len(got.Documents[11].Tags) != 150 || len(got.Participants) != 25) {
				t.Fatalf("large transaction read back incompletely")
			}
			return queries.Load()
		}
		s, l := count(small.ID), count(large.ID)
		if s != l || s > 4 {
			t.Fatalf("reading 1 tag takes %d queries, 1,800 tags take %d; want the same small number", s, l)
		}
	})
}

func TestHistoryRecordsCreateReplaceAndStatusChange(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		actor := actorOf(t, env, tenant)
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "contract")
		tx := createTx(t, env, actor, txBody(doc, 1, 2, 1))

		var next map[string]any
		_ = json.Unmarshal(txBody(doc, 2, 3, 2), &next)
		next["status"] = models.StatusESignPending
		body, _ := json.Marshal(next)
		in, err := models.ParseTransactionInput(body)
		if err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(60e9)
		if _, err := env.Store.ReplaceTransaction(t.Context(), actor, tx.ID, in, ""); err != nil {
			t.Fatal(err)
		}
		events, err := env.Store.ListTransactionEvents(t.Context(), tenant.Org.ID, tx.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 3 {
			t.Fatalf("%d events, want created, replaced, status_changed", len(events))
		}
		kinds := []string{events[0].Kind, events[1].Kind, events[2].Kind}
		if kinds[0] != models.EventCreated || kinds[1] != models.EventReplaced || kinds[2] != models.EventStatusChanged {
			t.Fatalf("kinds = %v", kinds)
		}
		for _, e := range events {
			if e.TokenID == nil || *e.TokenID != tenant.TokenID || e.Actor == "" {
				t.Fatalf("event without its token: %+v", e)
			}
		}
		var replaced struct {
			Tags struct{ Before, After int }
		}
		_ = json.Unmarshal(events[1].Summary, &replaced)
		if replaced.Tags.Before != 2 || replaced.Tags.After != 6 {
			t.Fatalf("replace summary = %s", events[1].Summary)
		}
		var change struct{ From, To string }
		_ = json.Unmarshal(events[2].Summary, &change)
		if change.From != "draft" || change.To != "esign_pending" || !events[2].CreatedAt.Equal(env.Clock.Now()) {
			t.Fatalf("status change = %s at %v", events[2].Summary, events[2].CreatedAt)
		}
		// Another organization sees no history.
		other := env.NewTenant(t, "Other")
		if ev, _ := env.Store.ListTransactionEvents(t.Context(), other.Org.ID, tx.ID); len(ev) != 0 {
			t.Fatal("another organization reads the history")
		}
	})
}
