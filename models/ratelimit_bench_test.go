package models_test

import (
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// BenchmarkTakeRateTokens measures the one statement a limited request
// costs: one bucket (an API call), two (an upload), and many callers at once
// on one bucket (they serialize on its row).
//
//	go test -run '^$' -bench TakeRateTokens -benchtime 3000x ./models/
func BenchmarkTakeRateTokens(b *testing.B) {
	limit := models.RateLimit{PerSecond: 1, Burst: 1 << 30}
	for _, d := range modelstest.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			env := modelstest.New(b, d)
			for _, n := range []int{1, 2} {
				buckets := make([]models.RateBucket, n)
				for i := range buckets {
					buckets[i] = models.RateBucket{Key: "bench:" + strconv.Itoa(i), Limit: limit}
				}
				b.Run(strconv.Itoa(n)+"-buckets", func(b *testing.B) {
					for b.Loop() {
						if d, err := env.Store.TakeRateTokens(b.Context(), buckets...); err != nil || !d.Allowed {
							b.Fatal(d, err)
						}
					}
				})
			}
			b.Run("1-bucket-parallel", func(b *testing.B) {
				b.SetParallelism(4)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if d, err := env.Store.TakeRateTokens(b.Context(), models.RateBucket{Key: "shared", Limit: limit}); err != nil || !d.Allowed {
							b.Error(d, err)
							return
						}
					}
				})
			})
		})
	}
}
