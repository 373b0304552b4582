package models_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// overview reads the overview, failing the test on an error.
func overview(t *testing.T, s *models.Store, org int64) *models.Overview {
	t.Helper()
	o, err := s.Overview(context.Background(), models.OverviewFilter{OrganizationID: org})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestTwoInstancesMergeTheirRollupsIntoOneChart(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		a, b := env.Store, env.AnotherInstance(t)
		ra, rb := models.NewRollupRecorder(a, env.Clock.Now), models.NewRollupRecorder(b, env.Clock.Now)
		// A: 90 fast requests (≤ 5 ms) and 3 client errors; B: 10 slow ones
		// (250–500 ms), 2 of them server errors. Merged: 100 requests, whose
		// 95th is the 5th of B's 10, halfway through the 250–500 ms bucket.
		for i := range 90 {
			status := 200
			if i < 3 {
				status = 404
			}
			ra.ObserveRequest(7, status, 2*time.Millisecond)
		}
		for i := range 10 {
			status := 200
			if i < 2 {
				status = 503
			}
			rb.ObserveRequest(7, status, 300*time.Millisecond)
		}
		if err := ra.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if err := rb.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		// A flushes again later in the same hour: the counts add up.
		ra.ObserveRequest(7, 200, 2*time.Millisecond)
		if err := ra.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		last := models.OverviewHours - 1
		for name, s := range map[string]*models.Store{"A": a, "B": b} {
			o := overview(t, s, 0)
			if got := o.Hourly[models.MetricAPIRequests][last]; got != 101 {
				t.Errorf("%s: requests this hour = %d, want 101", name, got)
			}
			if got := o.Hourly[models.MetricAPIClientErrors][last]; got != 3 {
				t.Errorf("%s: 4xx = %d, want 3", name, got)
			}
			if got := o.Hourly[models.MetricAPIServerErrors][last]; got != 2 {
				t.Errorf("%s: 5xx = %d, want 2", name, got)
			}
			// 101 requests, 91 fast: rank 95.95 is the 4.95th of B's 10 in
			// (250, 500] ms, so 250 ms + 0.495 × 250 ms.
			want := 373750 * time.Microsecond
			if got := o.P95[last]; got < want-time.Microsecond || got > want+time.Microsecond {
				t.Errorf("%s: p95 = %v, want %v", name, got, want)
			}
			if o.Hourly[models.MetricAPIRequests][last-1] != 0 {
				t.Errorf("%s: the hour before counted requests", name)
			}
		}
		if o := overview(t, a, 8); o.Hourly[models.MetricAPIRequests][last] != 0 {
			t.Errorf("organization 8 sees organization 7's requests")
		}
	})
}

func TestLatencyQuantileFromBuckets(t *testing.T) {
	t.Parallel()
	n := models.LatencyBucketCount
	buckets := func(pairs ...int64) []int64 {
		b := make([]int64, n)
		for i := 0; i < len(pairs); i += 2 {
			b[pairs[i]] = pairs[i+1]
		}
		return b
	}
	for _, c := range []struct {
		name    string
		buckets []int64
		want    time.Duration
	}{
		{"no requests", buckets(), 0},
		{"all in the first bucket", buckets(0, 100), 4750 * time.Microsecond},
		{"95 fast, 5 in 1–2.5 s", buckets(0, 95, 8, 5), 5 * time.Millisecond},
		{"94 fast, 6 in 1–2.5 s", buckets(0, 94, 8, 6), time.Second + 250*time.Millisecond},
		{"slower than every bound", buckets(int64(models.LatencyBucketCount-1), 10), 30 * time.Second},
	} {
		if got := models.LatencyQuantile(c.buckets, 0.95); got != c.want {
			t.Errorf("%s: p95 = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOverviewDaysAreUTCDaysOfTheLast30(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		now := env.Clock.Now() // 2026-11-22 09:00 UTC
		today := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
		add := func(at time.Time, org int64, metric string, n int64) {
			t.Helper()
			key := models.RollupKey{Metric: metric, Hour: at.Truncate(time.Hour).Unix(), OrganizationID: org, Bucket: -1}
			if err := env.Store.AddRollups(ctx, map[models.RollupKey]int64{key: n}); err != nil {
				t.Fatal(err)
			}
		}
		first := today.AddDate(0, 0, -29)
		add(first.Add(-time.Second), 1, models.MetricTransactionsCreated, 100) // 23:00 the day before the window
		add(first, 1, models.MetricTransactionsCreated, 1)                     // the window's first hour
		add(first.Add(23*time.Hour), 1, models.MetricTransactionsCreated, 2)   // its last hour
		add(today, 1, models.MetricTransactionsCreated, 4)
		add(now, 2, models.MetricTransactionsCreated, 8)
		add(now, 2, models.MetricTransactionsSent, 16)
		o := overview(t, env.Store, 0)
		if len(o.Days) != 30 || !o.Days[0].Equal(first) || !o.Days[29].Equal(today) {
			t.Fatalf("days = %v … %v (%d), want %v … %v", o.Days[0], o.Days[len(o.Days)-1], len(o.Days), first, today)
		}
		created := o.Daily[models.MetricTransactionsCreated]
		if created[0] != 3 || created[29] != 12 || sum(created) != 15 {
			t.Errorf("created = %v, want 3 on the first day, 12 today, 15 in all", created)
		}
		if got := o.Daily[models.MetricTransactionsSent][29]; got != 16 {
			t.Errorf("sent today = %d, want 16", got)
		}
		one := overview(t, env.Store, 1)
		if got := one.Daily[models.MetricTransactionsCreated]; got[0] != 3 || got[29] != 4 || sum(got) != 7 {
			t.Errorf("organization 1: created = %v, want 3 then 4", got)
		}
		if sum(one.Daily[models.MetricTransactionsSent]) != 0 {
			t.Error("organization 1 sees organization 2's sends")
		}
	})
}

func sum(v []int64) int64 {
	var n int64
	for _, x := range v {
		n += x
	}
	return n
}

func TestChangesAreCountedWhereTheyHappen(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other")
		p, err := env.Store.AuthenticateAPIToken(ctx, acme.Token)
		if err != nil {
			t.Fatal(err)
		}
		doc := env.UploadPDF(t, acme.Org.ID, pdftest.ThreePages(t), "contract")
		body := modelstest.TransactionBody(doc, 1, 2)
		for _, status := range []string{"draft", "esign_pending"} {
			in, err := models.ParseTransactionInput(bytes.Replace(body, []byte(`"draft"`), []byte(`"`+status+`"`), 1))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := env.Store.CreateTransaction(ctx, p.Actor(), in); err != nil {
				t.Fatal(err)
			}
		}
		room := createRoomOn(t, env, acme, doc.ID, `{}`)
		env.Clock.Advance(time.Hour)
		if err := env.Store.ExpireRoom(ctx, room.ID); err != nil {
			t.Fatal(err)
		}
		// The changes wrote their counts as delta rows (no shared counter
		// row locked); the overview reads them before and after the sealer
		// folds them into metric_rollups, and the fold leaves none behind.
		var deltas int64
		for _, phase := range []string{"deltas", "folded"} {
			if phase == "folded" {
				sealAll(t, env.Store)
			}
			env.DB.DB.Table("metric_rollup_deltas").Count(&deltas)
			if (phase == "deltas") != (deltas > 0) {
				t.Fatalf("%s: %d delta rows", phase, deltas)
			}
			today := models.OverviewDays - 1
			for _, org := range []int64{acme.Org.ID, 0} {
				o := overview(t, env.Store, org)
				for metric, want := range map[string]int64{
					models.MetricTransactionsCreated: 3, models.MetricTransactionsSent: 1,
					models.MetricRoomsOpened: 1, models.MetricRoomsExpired: 1, models.MetricRoomsCompleted: 0,
				} {
					if got := o.Daily[metric][today]; got != want {
						t.Errorf("%s, organization %d: %s today = %d, want %d", phase, org, metric, got, want)
					}
				}
			}
			if o := overview(t, env.Store, other.Org.ID); sum(o.Daily[models.MetricTransactionsCreated])+sum(o.Daily[models.MetricRoomsExpired]) != 0 {
				t.Errorf("%s: another organization sees Acme's figures", phase)
			}
		}
	})
}

func TestFinishedMessagesAreCountedPerHour(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		db := env.DB.DB
		now := env.Clock.Now()
		for _, id := range []string{"ok-1", "ok-2", "retry", "dead"} {
			row := models.OutboxMessage{ID: id, OrganizationID: tenant.Org.ID, Kind: "webhook", Event: "transaction.created",
				Recipient: "https://example.com/hook", Payload: models.RawJSON("{}"), Status: models.MessagePending, NextAttemptAt: now, CreatedAt: now, UpdatedAt: now}
			if id == "dead" {
				row.Attempts = 99
			}
			if err := db.Create(&row).Error; err != nil {
				t.Fatal(err)
			}
		}
		claimed, err := env.Store.ClaimMessages(ctx, 10, time.Minute)
		if err != nil || len(claimed) != 4 {
			t.Fatalf("claimed %d, %v", len(claimed), err)
		}
		var outs []models.MessageOutcome
		for i := range claimed {
			m := &claimed[i]
			out := models.Outcome{}
			if m.ID == "retry" || m.ID == "dead" {
				out.Err = context.DeadlineExceeded
			}
			outs = append(outs, models.MessageOutcome{Message: m, Outcome: out})
		}
		if err := env.Store.FinishMessages(ctx, outs, models.DefaultRetryPolicy()); err != nil {
			t.Fatal(err)
		}
		o := overview(t, env.Store, tenant.Org.ID)
		last := models.OverviewHours - 1
		for metric, want := range map[string]int64{models.MetricOutboxDelivered: 2, models.MetricOutboxRetrying: 1, models.MetricOutboxDead: 1} {
			if got := o.Hourly[metric][last]; got != want {
				t.Errorf("%s = %d, want %d", metric, got, want)
			}
		}
	})
}

func TestSweepDeletesRollupsOlderThan90Days(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		now := env.Clock.Now()
		counts := map[models.RollupKey]int64{}
		for _, age := range []time.Duration{91 * 24 * time.Hour, 89 * 24 * time.Hour} {
			counts[models.RollupKey{Metric: models.MetricAPIRequests, Hour: now.Add(-age).Truncate(time.Hour).Unix(), OrganizationID: 1, Bucket: -1}] = 5
		}
		if err := env.Store.AddRollups(ctx, counts); err != nil {
			t.Fatal(err)
		}
		rep, err := env.Store.Sweep(ctx, models.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		var left int64
		if err := env.DB.DB.Table("metric_rollups").Count(&left).Error; err != nil {
			t.Fatal(err)
		}
		// Each count has its organization's row and the all-organizations row.
		if rep.Rollups != 2 || left != 2 {
			t.Errorf("swept %d rollups, %d left; want 2 and 2", rep.Rollups, left)
		}
	})
}
