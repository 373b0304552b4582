package handlers_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/static"
)

// BenchmarkAPIRateLimitCost measures one cheap API call (GET of a
// transaction list) with the rate limits on and off, one caller at a time
// and many at once on one token (all taking from the same bucket row).
//
//	go test -run '^$' -bench APIRateLimitCost -benchtime 2000x ./handlers/
func BenchmarkAPIRateLimitCost(b *testing.B) {
	assets, err := static.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range modelstest.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			env := modelstest.New(b, d)
			tenant := env.NewTenant(b, "Bench")
			for _, mode := range []string{"on", "off"} {
				h, err := handlers.New(handlers.Deps{
					Config: handlers.Config{BaseURL: testBaseURL, SessionSecret: bytes.Repeat([]byte("k"), 32),
						RateLimits: handlers.RateLimits{Off: mode == "off", API: models.RateLimit{PerSecond: 1, Burst: 1 << 30}}},
					Store: env.Store, Assets: assets, Registry: prometheus.NewRegistry(), Logger: slog.New(slog.DiscardHandler),
				})
				if err != nil {
					b.Fatal(err)
				}
				call := func(b *testing.B) {
					req := httptest.NewRequest(http.MethodGet, "/api/v1/transactions?limit=1", nil)
					req.Header.Set("Authorization", "Bearer "+tenant.Token)
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
					}
				}
				b.Run("limits-"+mode, func(b *testing.B) {
					for b.Loop() {
						call(b)
					}
				})
				b.Run("limits-"+mode+"-parallel", func(b *testing.B) {
					b.SetParallelism(4)
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							call(b)
						}
					})
				})
			}
		})
	}
}
