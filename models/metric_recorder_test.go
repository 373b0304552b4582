package models_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
)

// fakeFlusher records what a recorder flushes, failing while down.
type fakeFlusher struct {
	mu    sync.Mutex
	down  bool
	added map[models.RollupKey]int64
}

func (f *fakeFlusher) AddRollups(_ context.Context, counts map[models.RollupKey]int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errors.New("database down")
	}
	for k, n := range counts {
		f.added[k] += n
	}
	return nil
}

func (f *fakeFlusher) requests() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var n int64
	for k, c := range f.added {
		if k.Metric == models.MetricAPIRequests {
			n += c
		}
	}
	return n
}

func TestRecorderKeepsCountsAFailedFlushAndFlushesOnShutdown(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	f := &fakeFlusher{down: true, added: map[models.RollupKey]int64{}}
	r := models.NewRollupRecorder(f, func() time.Time { return at })
	r.ObserveRequest(5, 201, 40*time.Millisecond)
	if err := r.Flush(context.Background()); err == nil {
		t.Fatal("a flush to a database that is down succeeded")
	}
	f.mu.Lock()
	f.down = false
	f.mu.Unlock()
	r.ObserveRequest(5, 500, 2*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx, time.Hour, func(err error) { t.Error(err) })
	}()
	cancel() // a shutdown: Run flushes once more and returns
	<-done
	if got := f.requests(); got != 2 {
		t.Fatalf("flushed %d requests, want 2 (the failed flush's one kept)", got)
	}
	hour := at.Truncate(time.Hour).Unix()
	for key, want := range map[models.RollupKey]int64{
		{Metric: models.MetricAPIServerErrors, Hour: hour, OrganizationID: 5, Bucket: -1}: 1,
		{Metric: models.MetricAPILatency, Hour: hour, OrganizationID: 5, Bucket: 3}:       1, // 40 ms: (25, 50]
		{Metric: models.MetricAPILatency, Hour: hour, OrganizationID: 5, Bucket: 8}:       1, // 2 s: (1, 2.5] s
	} {
		if got := f.added[key]; got != want {
			t.Errorf("%+v = %d, want %d", key, got, want)
		}
	}
}
