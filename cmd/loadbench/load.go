package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// request describes the request worker w sends.
type request func(ctx context.Context, w int) (*http.Request, error)

// phaseResult is what one phase of load against one server produced.
type phaseResult struct {
	latencies []time.Duration
	ok, errs  int
	elapsed   time.Duration
	samples   []string
}

// result is the measured load against one server, over one or more phases.
type result struct {
	Requests  int // completed, whatever the status
	OK        int // 2xx
	Errors    int // non-2xx answers and transport errors
	Elapsed   time.Duration
	P50, P95  time.Duration
	P99       time.Duration
	Samples   []string // the first few distinct error descriptions, warm-up included
	WarmupOK  int      // 2xx answers during the warm-up
	WarmupErr int
	latencies []time.Duration
}

// Throughput is 2xx answers per second.
func (r *result) Throughput() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.OK) / r.Elapsed.Seconds()
}

func (r *result) addSamples(samples []string) {
	for _, s := range samples {
		if len(r.Samples) < 5 && !slices.Contains(r.Samples, s) {
			r.Samples = append(r.Samples, s)
		}
	}
}

// addWarmup counts a warm-up phase: its errors, not its figures.
func (r *result) addWarmup(p phaseResult) {
	r.WarmupOK += p.ok
	r.WarmupErr += p.errs
	r.addSamples(p.samples)
}

// add counts a measured phase.
func (r *result) add(p phaseResult) {
	r.Requests += len(p.latencies)
	r.OK += p.ok
	r.Errors += p.errs
	r.Elapsed += p.elapsed
	r.latencies = append(r.latencies, p.latencies...)
	r.addSamples(p.samples)
}

// finish computes the percentiles.
func (r *result) finish() {
	slices.Sort(r.latencies)
	r.P50, r.P95, r.P99 = percentile(r.latencies, 0.50), percentile(r.latencies, 0.95), percentile(r.latencies, 0.99)
}

// phase runs c workers for d, each sending requests one after another
// through the shared client; the phase ends when the last answer arrives.
func phase(ctx context.Context, client *http.Client, c int, d time.Duration, mk request) phaseResult {
	if d <= 0 {
		return phaseResult{}
	}
	stats := make([]phaseResult, c)
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for w := range c {
		wg.Go(func() {
			st := &stats[w]
			for ctx.Err() == nil && time.Now().Before(deadline) {
				t0 := time.Now()
				err := send(ctx, client, mk, w)
				st.latencies = append(st.latencies, time.Since(t0))
				if err == nil {
					st.ok++
					continue
				}
				if ctx.Err() != nil {
					return
				}
				st.errs++
				if msg := err.Error(); len(st.samples) < 3 && !slices.Contains(st.samples, msg) {
					st.samples = append(st.samples, msg)
				}
			}
		})
	}
	wg.Wait()
	out := phaseResult{elapsed: time.Since(start)}
	for _, st := range stats {
		out.latencies = append(out.latencies, st.latencies...)
		out.ok += st.ok
		out.errs += st.errs
		for _, s := range st.samples {
			if !slices.Contains(out.samples, s) {
				out.samples = append(out.samples, s)
			}
		}
	}
	return out
}

// send performs one request; a non-2xx answer is an error.
func send(ctx context.Context, client *http.Client, mk request, w int) error {
	req, err := mk(ctx, w)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		_, err := io.Copy(io.Discard, resp.Body)
		return err
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, bytes.TrimSpace(b))
}

// percentile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// newClient is the one client of the load generator: keep-alive connections,
// enough idle ones per host for every worker.
func newClient(c int) *http.Client {
	return &http.Client{
		Timeout: time.Minute,
		Transport: &http.Transport{
			MaxIdleConns:        4 * c,
			MaxIdleConnsPerHost: 2 * c,
			IdleConnTimeout:     time.Minute,
			DisableCompression:  true,
		},
	}
}

// jsonRequest builds a request with a JSON body and an optional bearer token.
func jsonRequest(ctx context.Context, method, url, token string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, nil
}
