package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
)

func TestRateLimitConfiguration(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	c, err := loadConfig(env())
	if err != nil || c.RateLimits != handlers.DefaultRateLimits() {
		t.Fatalf("defaults: %+v, %v", c.RateLimits, err)
	}
	want := handlers.RateLimits{
		API:              models.RateLimit{PerSecond: 5, Burst: 50},
		Room:             models.RateLimit{PerSecond: 0.5, Burst: 7},
		Anon:             models.RateLimit{PerSecond: 1, Burst: 100},
		UploadsPerMinute: 6,
	}
	c, err = loadConfig(env("MARKUPROOM_RATE_API_RPS", "5", "MARKUPROOM_RATE_API_BURST", "50",
		"MARKUPROOM_RATE_ROOM_RPS", "0.5", "MARKUPROOM_RATE_ROOM_BURST", "7",
		"MARKUPROOM_RATE_ANON_RPS", "1", "MARKUPROOM_RATE_UPLOADS_PER_MIN", "6"))
	if err != nil || c.RateLimits != want {
		t.Fatalf("set: %+v, %v", c.RateLimits, err)
	}
	if c, err := loadConfig(env("MARKUPROOM_RATE_LIMITS", "OFF")); err != nil || !c.RateLimits.Off {
		t.Fatalf("off: %+v, %v", c.RateLimits, err)
	}
	_, err = loadConfig(env("MARKUPROOM_RATE_LIMITS", "no", "MARKUPROOM_RATE_ROOM_RPS", "-1",
		"MARKUPROOM_RATE_ANON_BURST", "1.5", "MARKUPROOM_RATE_UPLOADS_PER_MIN", "0", "MARKUPROOM_RATE_API_RPS", "NaN"))
	for _, key := range []string{"MARKUPROOM_RATE_LIMITS", "MARKUPROOM_RATE_ROOM_RPS", "MARKUPROOM_RATE_ANON_BURST", "MARKUPROOM_RATE_UPLOADS_PER_MIN", "MARKUPROOM_RATE_API_RPS"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("bad values: error %v does not name %s", err, key)
		}
	}
}

// TestServeAppliesRateLimitsUnlessOff runs the real server: a refused token
// from one address is limited by MARKUPROOM_RATE_ANON_*, and not at all
// with MARKUPROOM_RATE_LIMITS=off.
func TestServeAppliesRateLimitsUnlessOff(t *testing.T) {
	for _, tc := range []struct {
		limits string
		want   []int
	}{
		{"on", []int{http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests}},
		{"off", []int{http.StatusUnauthorized, http.StatusUnauthorized, http.StatusUnauthorized}},
	} {
		t.Run(tc.limits, func(t *testing.T) {
			base, _, stop := serveForTest(t, map[string]string{
				"MARKUPROOM_DATA_DIR": t.TempDir(), "MARKUPROOM_DEMO": "false", "MARKUPROOM_RATE_LIMITS": tc.limits,
				"MARKUPROOM_RATE_ANON_RPS": "0.01", "MARKUPROOM_RATE_ANON_BURST": "2",
			})
			defer stop()
			for i, want := range tc.want {
				req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/transactions", nil)
				req.Header.Set("Authorization", "Bearer mrt_wrong")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if res.StatusCode != want {
					t.Fatalf("request %d: %d, want %d", i+1, res.StatusCode, want)
				}
				if want == http.StatusTooManyRequests && res.Header.Get("Retry-After") != "100" {
					t.Fatalf("Retry-After %q, want 100", res.Header.Get("Retry-After"))
				}
			}
		})
	}
}
