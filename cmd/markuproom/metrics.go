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
