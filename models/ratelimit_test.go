package models_test

import (
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// take takes one token from buckets and fails the test on an error.
func take(t *testing.T, s *models.Store, buckets ...models.RateBucket) models.RateDecision {
	t.Helper()
	d, err := s.TakeRateTokens(t.Context(), buckets...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func wantDecision(t *testing.T, step string, got, want models.RateDecision) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: decision = %+v, want %+v", step, got, want)
	}
}

func TestRateBucketRefillsUpToItsBurst(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		b := models.RateBucket{Key: "api:1", Limit: models.RateLimit{PerSecond: 2, Burst: 5}}
		// A new bucket starts full: five requests at once pass, the sixth waits
		// half a second (one token at two a second).
		for i := 4; i >= 0; i-- {
			wantDecision(t, "burst", take(t, env.Store, b), models.RateDecision{
				Key: "api:1", Allowed: true, Limit: 5, Remaining: i, Reset: time.Duration(5-i) * 500 * time.Millisecond})
		}
		wantDecision(t, "over the burst", take(t, env.Store, b), models.RateDecision{
			Key: "api:1", Limit: 5, RetryAfter: 500 * time.Millisecond, Reset: 2500 * time.Millisecond})

		// A quarter second later half a token is back: still refused. Another
		// instance asks the database (it has no memory of the refusal).
		env.Clock.Advance(250 * time.Millisecond)
		other := env.AnotherInstance(t)
		wantDecision(t, "half a token, database", take(t, other, b), models.RateDecision{
			Key: "api:1", Limit: 5, RetryAfter: 250 * time.Millisecond, Reset: 2250 * time.Millisecond})
		wantDecision(t, "half a token, remembered", take(t, env.Store, b), models.RateDecision{
			Key: "api:1", Limit: 5, RetryAfter: 250 * time.Millisecond, Reset: 2250 * time.Millisecond})

		// Once the token is whole, one request passes and the next waits again.
		env.Clock.Advance(250 * time.Millisecond)
		wantDecision(t, "one token", take(t, env.Store, b), models.RateDecision{
			Key: "api:1", Allowed: true, Limit: 5, Remaining: 0, Reset: 2500 * time.Millisecond})
		if d := take(t, env.Store, b); d.Allowed || d.RetryAfter != 500*time.Millisecond {
			t.Fatalf("right after: %+v, want refused for 500ms", d)
		}

		// An hour idle fills the bucket to its burst, not beyond.
		env.Clock.Advance(time.Hour)
		for i := 4; i >= 0; i-- {
			if d := take(t, env.Store, b); !d.Allowed || d.Remaining != i {
				t.Fatalf("after an hour, take %d: %+v", 5-i, d)
			}
		}
		if d := take(t, env.Store, b); d.Allowed {
			t.Fatalf("after an hour the burst is still 5: %+v", d)
		}

		// Other keys are other buckets.
		if d := take(t, env.Store, models.RateBucket{Key: "api:2", Limit: b.Limit}); !d.Allowed || d.Remaining != 4 {
			t.Fatalf("another key: %+v", d)
		}
	})
}

func TestRateBucketsOfOneRequestAreTakenTogether(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		general := models.RateBucket{Key: "api:1", Limit: models.RateLimit{PerSecond: 1, Burst: 5}}
		uploads := models.RateBucket{Key: "upload:api:1", Limit: models.RateLimit{PerSecond: 1, Burst: 2}}
		wantDecision(t, "first", take(t, env.Store, general, uploads), models.RateDecision{
			Key: "upload:api:1", Allowed: true, Limit: 2, Remaining: 1, Reset: time.Second})
		take(t, env.Store, general, uploads)
		// The upload bucket refuses and is the one reported.
		wantDecision(t, "third upload", take(t, env.Store, general, uploads), models.RateDecision{
			Key: "upload:api:1", Limit: 2, RetryAfter: time.Second, Reset: 2 * time.Second})
		// The general bucket gave three tokens (the refused request's too) and has two left.
		wantDecision(t, "general", take(t, env.Store, general), models.RateDecision{
			Key: "api:1", Allowed: true, Limit: 5, Remaining: 1, Reset: 4 * time.Second})
	})
}

func TestRateBucketIsSharedByInstances(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		b := models.RateBucket{Key: "anon:192.0.2.1", Limit: models.RateLimit{PerSecond: 1, Burst: 10}}
		stores := []*models.Store{env.Store, env.AnotherInstance(t)}
		// Forty requests at once, half on each instance, on a clock that does
		// not move: exactly the burst passes.
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			allowed int
		)
		for i := range 40 {
			wg.Go(func() {
				d, err := stores[i%2].TakeRateTokens(t.Context(), b)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if allowed != 10 {
			t.Fatalf("%d of 40 requests passed a bucket of 10 shared by two instances", allowed)
		}

		// An instance whose clock runs behind refills nothing and moves no time back.
		behind := models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: func() time.Time { return env.Clock.Now().Add(-time.Minute) }})
		if d := take(t, behind, b); d.Allowed {
			t.Fatalf("a clock a minute behind: %+v", d)
		}
		env.Clock.Advance(time.Second)
		if d := take(t, stores[1], b); !d.Allowed || d.Remaining != 0 {
			t.Fatalf("a second later: %+v, want one token", d)
		}
	})
}

func TestPurgeFullRateBucketsKeepsPartlyUsedOnes(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		slow := models.RateBucket{Key: "slow", Limit: models.RateLimit{PerSecond: 0.01, Burst: 2}}
		fast := models.RateBucket{Key: "fast", Limit: models.RateLimit{PerSecond: 10, Burst: 2}}
		take(t, env.Store, slow, fast)
		take(t, env.Store, slow, fast)
		env.Clock.Advance(time.Second)
		n, err := env.Store.PurgeFullRateBuckets(t.Context())
		if err != nil || n != 1 {
			t.Fatalf("purge: %d rows, %v; want 1 (the refilled fast bucket)", n, err)
		}
		// The slow bucket kept its count: still empty.
		if d := take(t, env.AnotherInstance(t), slow); d.Allowed {
			t.Fatalf("slow bucket after the purge: %+v", d)
		}
		if d := take(t, env.Store, fast); !d.Allowed || d.Remaining != 1 {
			t.Fatalf("fast bucket after the purge: %+v", d)
		}
	})
}

func TestTakeRateTokensRefusesBadBuckets(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	ok := models.RateLimit{PerSecond: 1, Burst: 1}
	for name, buckets := range map[string][]models.RateBucket{
		"no key":       {{Limit: ok}},
		"zero rate":    {{Key: "a", Limit: models.RateLimit{Burst: 1}}},
		"zero burst":   {{Key: "a", Limit: models.RateLimit{PerSecond: 1}}},
		"repeated key": {{Key: "a", Limit: ok}, {Key: "a", Limit: ok}},
	} {
		if _, err := env.Store.TakeRateTokens(t.Context(), buckets...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// While the rate_limits table cannot answer, buckets of the process stand
// in with the same policies: the burst passes, the next request is refused
// until a token is back.
func TestRateLimitsHoldWhenTheTableCannotAnswer(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		if err := env.DB.DB.Exec("DROP TABLE rate_limits").Error; err != nil {
			t.Fatal(err)
		}
		b := models.RateBucket{Key: "api:1", Limit: models.RateLimit{PerSecond: 2, Burst: 3}}
		up := models.RateBucket{Key: "upload:api:1", Limit: models.RateLimit{PerSecond: 1, Burst: 5}}
		for i := 2; i >= 0; i-- {
			if d := take(t, env.Store, b, up); !d.Allowed || d.Key != "api:1" || d.Remaining != i {
				t.Fatalf("within the burst: %+v", d)
			}
		}
		wantDecision(t, "over the burst", take(t, env.Store, b, up), models.RateDecision{
			Key: "api:1", Limit: 3, RetryAfter: 500 * time.Millisecond, Reset: 1500 * time.Millisecond})
		env.Clock.Advance(500 * time.Millisecond)
		if d := take(t, env.Store, b); !d.Allowed {
			t.Fatalf("a token later: %+v", d)
		}
		if d := take(t, env.Store, b); d.Allowed {
			t.Fatalf("right after: %+v", d)
		}
	})
}
