package models

import (
	"context"
	"sync"
	"time"
)

// latencyBounds are the upper bounds of the API latency histogram kept in
// metric_rollups (bucket i counts requests slower than bound i-1 and at most
// bound i; the last bucket, index len(latencyBounds), counts the slower
// rest). Fixed, so the buckets of every instance and every hour add up: an
// array nothing outside this package can reach.
var latencyBounds = [...]time.Duration{
	5 * time.Millisecond, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second,
	2500 * time.Millisecond, 5 * time.Second, 10 * time.Second, 30 * time.Second,
}

// LatencyBucketCount is the number of buckets of the API latency histogram:
// one per bound and one for the requests slower than every bound.
const LatencyBucketCount = len(latencyBounds) + 1

// latencyBucket is the index of the histogram bucket d falls in.
func latencyBucket(d time.Duration) int {
	for i, b := range latencyBounds {
		if d <= b {
			return i
		}
	}
	return len(latencyBounds)
}

// RollupFlusher writes counts to metric_rollups (met by *Store).
type RollupFlusher interface {
	AddRollups(ctx context.Context, counts map[RollupKey]int64) error
}

// RollupRecorder counts one instance's API requests in memory, per hour
// and organization, until Flush adds them to metric_rollups; every instance
// has its own and they merge in the table. Safe for concurrent use.
type RollupRecorder struct {
	mu     sync.Mutex
	counts map[RollupKey]int64
	store  RollupFlusher
	now    func() time.Time
}

// NewRollupRecorder is a recorder that flushes to store; now is the clock
// (nil: time.Now).
func NewRollupRecorder(store RollupFlusher, now func() time.Time) *RollupRecorder {
	if now == nil {
		now = time.Now
	}
	return &RollupRecorder{counts: map[RollupKey]int64{}, store: store, now: now}
}

// ObserveRequest counts one API request of orgID (0: no organization) that
// answered status after d.
func (r *RollupRecorder) ObserveRequest(orgID int64, status int, d time.Duration) {
	hour := hourOf(r.now())
	key := func(metric string, bucket int) RollupKey {
		return RollupKey{Metric: metric, Hour: hour, OrganizationID: orgID, Bucket: bucket}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counts[key(MetricAPIRequests, noBucket)]++
	switch {
	case status >= 500:
		r.counts[key(MetricAPIServerErrors, noBucket)]++
	case status >= 400:
		r.counts[key(MetricAPIClientErrors, noBucket)]++
	}
	r.counts[key(MetricAPILatency, latencyBucket(d))]++
}

// Flush adds what was counted since the last flush to metric_rollups. When
// the write fails the counts are kept for the next flush.
func (r *RollupRecorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	taken := r.counts
	r.counts = map[RollupKey]int64{}
	r.mu.Unlock()
	if len(taken) == 0 {
		return nil
	}
	err := r.store.AddRollups(ctx, taken)
	if err != nil {
		r.mu.Lock()
		for k, n := range taken {
			r.counts[k] += n
		}
		r.mu.Unlock()
	}
	return err
}

// Run flushes every interval until ctx ends, then once more (with a context
// that outlives ctx), so a shutdown loses nothing counted; onError hears
// each failed flush.
func (r *RollupRecorder) Run(ctx context.Context, every time.Duration, onError func(error)) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if err := r.Flush(flushCtx); err != nil {
				onError(err)
			}
			return
		case <-tick.C:
			if err := r.Flush(ctx); err != nil {
				onError(err)
			}
		}
	}
}
