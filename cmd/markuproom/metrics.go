package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// metricsNotServed is the start-up log line when neither
// MARKUPROOM_METRICS_TOKEN nor MARKUPROOM_METRICS_ADDR is set.
const metricsNotServed = "metrics: /metrics is not served; set MARKUPROOM_METRICS_TOKEN to serve it on this listener " +
	"to requests with Authorization: Bearer <token>, or MARKUPROOM_METRICS_ADDR (host:port on a private network) " +
	"to serve it there without a token"

// startMetrics starts the separate metrics listener when MARKUPROOM_METRICS_ADDR
// is set and logs how /metrics is reachable. The returned stop shuts that
// listener down (a no-op when there is none).
func (a *app) startMetrics(ctx context.Context, logger *slog.Logger, registry *prometheus.Registry) (stop func(context.Context) error, err error) {
	stop = func(context.Context) error { return nil }
	if a.cfg.MetricsToken != "" {
		logger.InfoContext(ctx, "metrics: /metrics is served on the main listener to requests bearing MARKUPROOM_METRICS_TOKEN")
	}
	if a.cfg.MetricsAddr == "" {
		if a.cfg.MetricsToken == "" {
			logger.InfoContext(ctx, metricsNotServed)
		}
		return stop, nil
	}
	ln, err := net.Listen("tcp", a.cfg.MetricsAddr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{
		Handler:           handlers.MetricsHandler(registry),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics listener stopped", "error", err)
		}
	}()
	logger.InfoContext(ctx, "metrics: /metrics is served without a token on the separate listener", "metrics_addr", ln.Addr().String())
	return srv.Shutdown, nil
}

// pdfWorkerCollector reports the PDF workers' totals at each scrape: jobs
// run, worker processes started, and workers killed by the limit they
// passed (docs/decisions.md, "PDF workers").
type pdfWorkerCollector struct {
	work                *models.PDFWork
	jobs, starts, kills *prometheus.Desc
}

func newPDFWorkerCollector(work *models.PDFWork) *pdfWorkerCollector {
	return &pdfWorkerCollector{
		work:   work,
		jobs:   prometheus.NewDesc("markuproom_pdf_worker_jobs_total", "PDF jobs run in worker processes (checks, repairs, detection, fingerprints, page edits, anchor searches).", nil, nil),
		starts: prometheus.NewDesc("markuproom_pdf_worker_starts_total", "PDF worker processes started (warm pool, replacements of killed or recycled workers).", nil, nil),
		kills: prometheus.NewDesc("markuproom_pdf_worker_kills_total",
			"PDF workers killed during a job, by the limit they passed: memory, cpu, time, output, crash.", []string{"reason"}, nil),
	}
}

func (c *pdfWorkerCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.jobs
	ch <- c.starts
	ch <- c.kills
}

func (c *pdfWorkerCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.work.Stats()
	ch <- prometheus.MustNewConstMetric(c.jobs, prometheus.CounterValue, float64(s.Jobs))
	ch <- prometheus.MustNewConstMetric(c.starts, prometheus.CounterValue, float64(s.Started))
	for _, r := range pdfworker.Reasons() {
		ch <- prometheus.MustNewConstMetric(c.kills, prometheus.CounterValue, float64(s.Killed[r]), string(r))
	}
}
