package handlers_test

import (
	"bufio"
	"context"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// BenchmarkAdminTransactionsCSV exports the console's transactions as CSV
// through the real handler, signed in, with 10,000 and then 100,000
// transactions in the database (two participants and a document each,
// written by a bulk insert). It reports rows/s, ms/export, the bytes
// allocated per export (B/op) and the peak live heap during the export
// above the heap before it (peak-heap-MB, sampled every millisecond): the
// peak stays flat from 10,000 to 100,000 rows because the export holds one
// page of models.ExportPageSize rows at a time. Figures: docs/benchmarks.md.
//
//	go test -run '^$' -bench AdminTransactionsCSV -benchtime 3x ./handlers/
func BenchmarkAdminTransactionsCSV(b *testing.B) {
	for _, d := range modelstest.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			env := modelstest.New(b, d)
			ctx := context.Background()
			org, err := env.Store.CreateOrganization(ctx, "Bench", true)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := env.Store.CreateUser(ctx, models.NewUser{OrganizationID: org.ID, Email: "ada@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"}); err != nil {
				b.Fatal(err)
			}
			doc := env.UploadPDF(b, org.ID, pdftest.ThreePages(b), "Purchase Agreement")
			client, base := benchConsole(b, env)
			seeded := 0
			for _, n := range []int{10_000, 100_000} {
				ids := seedExportTransactions(b, env, org.ID, n-seeded)
				seedExportDocuments(b, env, doc, ids)
				seeded = n
				b.Run(itoa64(int64(n)), func(b *testing.B) {
					b.ReportAllocs()
					var peak uint64
					start := time.Now()
					for b.Loop() {
						rows, p := exportOnce(b, client, base+"/admin/transactions.csv")
						if rows != n+1 {
							b.Fatalf("%d lines, want %d", rows, n+1)
						}
						peak = max(peak, p)
					}
					elapsed := time.Since(start)
					b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "rows/s")
					b.ReportMetric(float64(elapsed.Milliseconds())/float64(b.N), "ms/export")
					b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				})
			}
		})
	}
}

// exportOnce downloads url, counting its lines, and returns them with the
// peak live heap above the heap before the request.
func exportOnce(b *testing.B, client *http.Client, url string) (int, uint64) {
	b.Helper()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > before.HeapAlloc {
					peak = max(peak, m.HeapAlloc-before.HeapAlloc)
				}
			}
		}
	})
	res, err := client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	lines := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		lines++
	}
	_ = res.Body.Close()
	close(stop)
	wg.Wait()
	if err := sc.Err(); err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("export: %v, status %d", err, res.StatusCode)
	}
	return lines, peak
}

// seedExportDocuments gives each transaction of ids doc as its one
// document, in a bulk insert.
func seedExportDocuments(tb testing.TB, env *modelstest.Env, doc *models.Document, ids []string) {
	tb.Helper()
	rows := make([]models.TransactionDocument, len(ids))
	for i, id := range ids {
		rows[i] = models.TransactionDocument{TransactionID: id, DocumentID: doc.ID, GCSRefID: doc.ObjectKey, Title: doc.Title,
			XFDF: "", SessionType: "esign", Type: "acknowledgment", Pages: 3}
	}
	if err := env.DB.DB.CreateInBatches(rows, 500).Error; err != nil {
		tb.Fatal(err)
	}
	if err := env.DB.DB.Exec("UPDATE transactions SET document_count = 1").Error; err != nil {
		tb.Fatal(err)
	}
}
