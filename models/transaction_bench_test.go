package models_test

import (
	"context"
	"sync/atomic"
	"testing"

	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// benchSize is one transaction shape: docs documents with tagsPerDoc tags each.
type benchSize struct {
	name       string
	docs       int
	tagsPerDoc int
}

// benchSizes are the shapes of docs/benchmarks.md: "documents × total tags"
// (1×25, 10×250, 100×500, tags spread evenly over the documents), then the
// pair 1×250 / 1×2500 for the "10× the tags costs ≤ 11× the time" check,
// and 2×50 (2 documents × 25 tags), the body of cmd/loadbench's operation A
// whose allocations issue 38 halves.
func benchSizes() []benchSize {
	return []benchSize{
		{"1x25", 1, 25},
		{"2x50", 2, 25},
		{"10x250", 10, 25},
		{"100x500", 100, 5},
		{"1x250", 1, 250},
		{"1x2500", 1, 2500},
	}
}

func (s benchSize) tags() int { return s.docs * s.tagsPerDoc }

// benchTagTypes are the tag types the benchmark payload cycles through.
// benchCountStatements counts every SQL statement GORM runs on db (BEGIN and
// COMMIT are not callbacks, so they are not counted).
func benchCountStatements(b *testing.B, db *gorm.DB) *atomic.Int64 {
	b.Helper()
	var n atomic.Int64
	count := func(*gorm.DB) { n.Add(1) }
	cb := db.Callback()
	for name, err := range map[string]error{
		"create": cb.Create().After("gorm:create").Register("bench:count", count),
		"query":  cb.Query().After("gorm:query").Register("bench:count", count),
		"update": cb.Update().After("gorm:update").Register("bench:count", count),
		"delete": cb.Delete().After("gorm:delete").Register("bench:count", count),
		"row":    cb.Row().After("gorm:row").Register("bench:count", count),
		"raw":    cb.Raw().After("gorm:raw").Register("bench:count", count),
	} {
		if err != nil {
			b.Fatalf("register %s counter: %v", name, err)
		}
	}
	return &n
}

// BenchmarkReplaceTransaction times Store.ReplaceTransaction (operation A's
// store call: reads, checks, XFDF generation and the atomic replace) at each
// benchSize, on SQLite and, with TEST_DATABASE_URL, on PostgreSQL. Besides
// ns/op it reports tags/s and the SQL statements per replace.
func BenchmarkReplaceTransaction(b *testing.B) {
	for _, dialect := range modelstest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			env := modelstest.New(b, dialect)
			ctx := context.Background()
			tenant := env.NewTenant(b, "Bench")
			p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
			if err != nil {
				b.Fatal(err)
			}
			actor := (&models.Principal{Organization: p.Organization, Token: p.Token}).Actor()
			doc := env.UploadPDF(b, tenant.Org.ID, pdftest.ThreePages(b), "contract")
			statements := benchCountStatements(b, env.DB.DB)
			for _, size := range benchSizes() {
				b.Run(size.name, func(b *testing.B) {
					in, err := models.ParseTransactionInput(modelstest.TransactionBody(doc, size.docs, size.tagsPerDoc))
					if err != nil {
						b.Fatal(err)
					}
					tx, err := env.Store.CreateTransaction(ctx, actor, in)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					statements.Store(0)
					for b.Loop() {
						if _, err := env.Store.ReplaceTransaction(ctx, actor, tx.ID, in, ""); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(size.tags()*b.N)/b.Elapsed().Seconds(), "tags/s")
					b.ReportMetric(float64(statements.Load())/float64(b.N), "gorm_stmts/op")
				})
			}
		})
	}
}

// BenchmarkParseTransactionInput times decoding and checking the request
// body alone (pure CPU, no database) at each benchSize.
func BenchmarkParseTransactionInput(b *testing.B) {
	doc := &models.Document{ID: "0198a6a0-0000-7000-8000-000000000000", ObjectKey: "orgs/1/documents/0198a6a0-0000-7000-8000-000000000000.pdf"}
	for _, size := range benchSizes() {
		b.Run(size.name, func(b *testing.B) {
			body := modelstest.TransactionBody(doc, size.docs, size.tagsPerDoc)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := models.ParseTransactionInput(body); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size.tags()*b.N)/b.Elapsed().Seconds(), "tags/s")
		})
	}
}

// BenchmarkReviewReplaced times the pre-send check operation A's answer
// adds to a replace (Store.ReviewReplaced: no query; the printed words from
// memory, read once before by the review route) at each benchSize; the
// replace itself is BenchmarkReplaceTransaction (docs/review.md).
func BenchmarkReviewReplaced(b *testing.B) {
	env := modelstest.New(b, models.DialectSQLite)
	ctx := context.Background()
	tenant := env.NewTenant(b, "Bench")
	p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
	if err != nil {
		b.Fatal(err)
	}
	actor := (&models.Principal{Organization: p.Organization, Token: p.Token}).Actor()
	doc := env.UploadPDF(b, tenant.Org.ID, pdftest.ThreePages(b), "contract")
	for _, size := range benchSizes() {
		b.Run(size.name, func(b *testing.B) {
			in, err := models.ParseTransactionInput(modelstest.TransactionBody(doc, size.docs, size.tagsPerDoc))
			if err != nil {
				b.Fatal(err)
			}
			tx, err := env.Store.CreateTransaction(ctx, actor, in)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := env.Store.ReviewTransaction(ctx, tenant.Org.ID, tx.ID); err != nil {
				b.Fatal(err)
			}
			t, err := env.Store.ReplaceTransaction(ctx, actor, tx.ID, in, "")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := env.Store.ReviewReplaced(ctx, t); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size.tags()*b.N)/b.Elapsed().Seconds(), "tags/s")
		})
	}
}
