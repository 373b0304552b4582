package models_test

import (
	"context"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// BenchmarkCreateTemplateFromTransaction times Store.CreateTemplate copying a
// transaction of one document with 5,000 tags (reading it, converting its
// tags, writing the template, its version and its document), on SQLite and,
// with TEST_DATABASE_URL, on PostgreSQL (docs/benchmarks.md, "Templates":
// the aim is under 200 ms on PostgreSQL).
func BenchmarkCreateTemplateFromTransaction(b *testing.B) {
	for _, dialect := range modelstest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			env := modelstest.New(b, dialect)
			ctx := context.Background()
			tenant := env.NewTenant(b, "Bench")
			p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
			if err != nil {
				b.Fatal(err)
			}
			doc := env.UploadPDF(b, tenant.Org.ID, pdftest.ThreePages(b), "contract")
			in, err := models.ParseTransactionInput(modelstest.TransactionBody(doc, 1, models.MaxTagsPerDocument))
			if err != nil {
				b.Fatal(err)
			}
			tx, err := env.Store.CreateTransaction(ctx, p.Actor(), in)
			if err != nil {
				b.Fatal(err)
			}
			// Every iteration keeps its template: lift the per-organization bound.
			store := models.NewStore(env.DB, env.Bucket, models.StoreOptions{MaxTemplates: 1 << 30})
			body := &models.TemplateInput{Name: "Bench", TransactionID: tx.ID, RoleNames: []string{"Buyer", "Seller"}}
			b.ReportAllocs()
			for b.Loop() {
				t, err := store.CreateTemplate(ctx, p.TemplateActor(), body)
				if err != nil {
					b.Fatal(err)
				}
				if t.TagCount != models.MaxTagsPerDocument {
					b.Fatalf("the template has %d tags", t.TagCount)
				}
			}
			b.ReportMetric(float64(models.MaxTagsPerDocument*b.N)/b.Elapsed().Seconds(), "tags/s")
		})
	}
}
