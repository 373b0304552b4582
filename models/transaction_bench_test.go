package models_test

import (
	"context"
	"encoding/json"
	"fmt"
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
// pair 1×250 / 1×2500 for the "10× the tags costs ≤ 11× the time" check.
func benchSizes() []benchSize {
	return []benchSize{
		{"1x25", 1, 25},
		{"10x250", 10, 25},
		{"100x500", 100, 5},
		{"1x250", 1, 250},
		{"1x2500", 1, 2500},
	}
}

func (s benchSize) tags() int { return s.docs * s.tagsPerDoc }

// benchTagTypes are the tag types the benchmark payload cycles through.
func benchTagTypes() []string {
	return []string{"SIGNATURETEMPLATE", "INITIALSTEMPLATE", "DATETEMPLATE", "FULLNAMETEMPLATE"}
}

// benchTxBody is a replace body for doc: 2 participants without passwords
// (authenticationType "none", so no password hashing is timed) and
// tagsPerDoc tags on each of docs documents, spread over the 3 pages of the
// sample PDF inside its 612×792 box. Documents name their upload by id and
// gcsRefId, as a read sent back would. cmd/loadbench builds the same shape.
func benchTxBody(doc *models.Document, docs, tagsPerDoc int) []byte {
	type obj = map[string]any
	types := benchTagTypes()
	documents := make([]obj, 0, docs)
	for d := range docs {
		tags := make([]obj, 0, tagsPerDoc)
		for j := range tagsPerDoc {
			slot := j / 3
			tag := obj{
				"type":       types[j%len(types)],
				"x":          36 + (slot%8)*70, // 36 … 526, + width 60 ≤ 586
				"y":          36 + (slot/8%28)*25,
				"width":      60,
				"height":     20,
				"signerId":   fmt.Sprint("p", 1+j%2),
				"customData": obj{"label": fmt.Sprint("field ", j+1)},
				"page":       1 + j%3,
				"required":   true,
			}
			if tag["type"] == "DATETEMPLATE" {
				tag["dateFormat"] = "MM/DD/YYYY"
			}
			tags = append(tags, tag)
		}
		documents = append(documents, obj{
			"id": doc.ID, "gcsRefId": doc.ObjectKey, "title": fmt.Sprint("Agreement part ", d+1), "sessionType": "esign",
			"type": "acknowledgment", "pages": 3, "tags": tags,
		})
	}
	body, err := json.Marshal(obj{
		"status": "draft", "referenceId": "bench", "signingOrder": true,
		"documents": documents,
		"participants": []obj{
			{"id": "p1", "email": "pat.buyer@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"},
			{"id": "p2", "email": "robin.seller@example.com", "firstName": "Robin", "lastName": "Seller", "authenticationType": "none", "twoFactorContact": "email"},
		},
	})
	if err != nil {
		panic(err)
	}
	return body
}

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
					in, err := models.ParseTransactionInput(benchTxBody(doc, size.docs, size.tagsPerDoc))
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
					b.ReportMetric(float64(statements.Load())/float64(b.N), "stmts/op")
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
			body := benchTxBody(doc, size.docs, size.tagsPerDoc)
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
