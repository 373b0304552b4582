package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/static"
)

// BenchmarkAdminTransactionsPage measures the console's transactions page
// with 10,000 transactions (two participants each) in the database: the
// first page, a search by participant e-mail, and a filtered later page.
// It reports the median of the loads as ms/median.
//
//	go test -run '^$' -bench AdminTransactionsPage -benchtime 20x ./handlers/
func BenchmarkAdminTransactionsPage(b *testing.B) {
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
			seedTransactions(b, env, org.ID, 10000)
			client, base := benchConsole(b, env)
			for _, path := range []string{"/admin/transactions", "/admin/transactions?q=person4242%40", "/admin/transactions?status=draft&q=example"} {
				b.Run(path, func(b *testing.B) {
					var times []time.Duration
					for b.Loop() {
						start := time.Now()
						res, err := client.Get(base + path)
						if err != nil {
							b.Fatal(err)
						}
						_, _ = io.Copy(io.Discard, res.Body)
						_ = res.Body.Close()
						if res.StatusCode != http.StatusOK {
							b.Fatalf("status %d", res.StatusCode)
						}
						times = append(times, time.Since(start))
					}
					slices.Sort(times)
					b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/median")
				})
			}
		})
	}
}

// seedTransactions writes n transactions with two participants each, fast.
func seedTransactions(b *testing.B, env *modelstest.Env, orgID int64, n int) {
	b.Helper()
	now := time.Now().UTC()
	txs := make([]models.Transaction, n)
	people := make([]models.Participant, 0, 2*n)
	for i := range txs {
		id, _ := uuid.NewV7()
		txs[i] = models.Transaction{ID: id.String(), OrganizationID: orgID, ReferenceID: fmt.Sprintf("REF-%05d", i), Status: models.StatusDraft,
			EVault: "default", SendFinalEnoteTo: models.StringList{"default"}, Version: 1, ParticipantCount: 2, CreatedAt: now, UpdatedAt: now}
		for j := 0; j < 2; j++ {
			people = append(people, models.Participant{TransactionID: txs[i].ID, Position: j, ParticipantID: fmt.Sprintf("p%d", j),
				Email: fmt.Sprintf("person%d@example.com", 2*i+j), FirstName: "Per", LastName: "Son", AuthenticationType: models.AuthNone, TwoFactorContact: models.ContactEmail})
		}
	}
	if err := env.DB.DB.CreateInBatches(txs, 400).Error; err != nil {
		b.Fatal(err)
	}
	if err := env.DB.DB.CreateInBatches(people, 400).Error; err != nil {
		b.Fatal(err)
	}
}

// benchConsole serves the real handler and signs an admin in; it returns the client and base URL.
func benchConsole(b *testing.B, env *modelstest.Env) (*http.Client, string) {
	b.Helper()
	assets, err := static.New()
	if err != nil {
		b.Fatal(err)
	}
	h, err := handlers.New(handlers.Deps{
		Config: handlers.Config{BaseURL: testBaseURL, SessionSecret: bytes.Repeat([]byte("k"), 32)},
		Store:  env.Store, Assets: assets, Registry: prometheus.NewRegistry(), Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	res, err := client.Get(srv.URL + "/admin/login")
	if err != nil {
		b.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		b.Fatal("no CSRF token on the sign-in page")
	}
	res, err = client.PostForm(srv.URL+"/admin/login", url.Values{"csrf": {string(m[1])}, "email": {"ada@example.com"}, "password": {"correct horse"}})
	if err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("sign-in: %v %v", err, res)
	}
	_ = res.Body.Close()
	return client, srv.URL
}
