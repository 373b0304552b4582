package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/handlers/delivery"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/static"
)

// shutdownGrace is how long requests in flight may finish after SIGTERM.
const shutdownGrace = 25 * time.Second

// serve runs the server until ctx ends: the stored data made ready, the
// handler built, the outbox and the sweep started, then the listener served
// and shut down gracefully.
func (e *cliEnv) serve(ctx context.Context, args []string) int {
	fs := e.newFlagSet("serve")
	if _, err := parseFlags(fs, args); err != nil {
		return 2
	}
	logger := e.serverLogger()
	a, err := e.openApp(ctx, logger)
	if err != nil {
		return e.fail("serve", err)
	}
	defer a.close()
	if code := e.prepareData(ctx, a, logger); code != 0 {
		return code
	}
	if err := a.pdf.Start(ctx); err != nil {
		return e.fail("serve: start the PDF workers", err)
	}
	logger.InfoContext(ctx, "pdf workers started", "workers", a.pdf.Options().Size, "memory_bytes", a.pdf.Options().Memory,
		"memory_cgroups", a.pdf.Cgroups(), "timeout", a.pdf.Options().Timeout.String())
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		newPDFWorkerCollector(a.pdf))
	a.requests = models.NewRollupRecorder(a.store, a.store.Now)
	handler, err := a.newHandler(logger, registry)
	if err != nil {
		return e.fail("serve", err)
	}
	stopOutbox, err := a.startOutbox(ctx, logger, registry)
	if err != nil {
		return e.fail("serve", &usageError{err})
	}
	stopRollups := a.startRollups(ctx)
	stopSealer := a.startAuditSealer(ctx, registry)
	stop := func() { stopOutbox(); stopRollups(); stopSealer() }
	defer stop()
	return e.listenAndServe(ctx, a, newHTTPServer(ctx, a.cfg.Addr, handler, logger), logger, registry, stop)
}

// prepareData seals the stored secrets still in plaintext (rows from before
// sealing) or sealed with a previous key (a key rotation) with the current
// key, and creates the demo data when asked to. It returns 0, or the exit
// code of its failure.
func (e *cliEnv) prepareData(ctx context.Context, a *app, logger *slog.Logger) int {
	if n, err := a.store.SealStoredSecrets(ctx); err != nil {
		return e.fail("serve: seal stored secrets", err)
	} else if n > 0 {
		logger.InfoContext(ctx, "sealed stored secrets with the current key", "count", n)
	}
	if a.cfg.Demo {
		demo, err := a.store.SeedDemo(ctx)
		if err != nil {
			return e.fail("serve: create demo data", err)
		}
		if demo != nil {
			printDemo(e.stdout, a.cfg.BaseURL, demo)
		} else if old, err := a.store.FindDemo(ctx); err != nil {
			return e.fail("serve: read demo data", err)
		} else if old != nil {
			printDemoOnRecord(e.stdout, a.cfg.BaseURL, old)
		}
	}
	return 0
}

// newHandler builds the router over the app's store with its configuration.
// A session key the configuration cannot give is a *usageError.
func (a *app) newHandler(logger *slog.Logger, registry *prometheus.Registry) (http.Handler, error) {
	assets, err := static.New()
	if err != nil {
		return nil, err
	}
	sessionKey, err := a.cfg.sessionKey()
	if err != nil {
		return nil, &usageError{err}
	}
	gin.SetMode(gin.ReleaseMode)
	return handlers.New(handlers.Deps{
		Config: handlers.Config{
			BaseURL:          a.cfg.BaseURL,
			MaxUploadBytes:   a.cfg.MaxUploadBytes,
			SessionSecret:    sessionKey,
			SessionMaxAge:    a.cfg.RoomTTL,
			AdminIdleTimeout: a.cfg.AdminIdleTimeout,
			AdminMaxAge:      a.cfg.AdminMaxAge,
			TrustedProxies:   a.cfg.TrustedProxies,
			Webhooks:         models.WebhookPolicy{AllowPrivate: a.cfg.WebhookAllowPrivate},
			RateLimits:       a.cfg.RateLimits,
			MetricsToken:     a.cfg.MetricsToken,
			PseudoLocale:     a.cfg.PseudoLocale,
		},
		Store:    a.store,
		Assets:   assets,
		Logger:   logger,
		Registry: registry,
		Requests: a.requestRecorder(),
	})
}

// requestRecorder is the app's API request counter, or nil when it has none
// (never a nil pointer in an interface).
func (a *app) requestRecorder() handlers.RequestRecorder {
	if a.requests == nil {
		return nil
	}
	return a.requests
}

// startRollups adds the API requests this instance counted to the
// overview's rollups every cfg.RollupInterval; the returned stop, called
// after the server's shutdown, flushes what the last requests counted and
// waits for it.
func (a *app) startRollups(ctx context.Context) (stop func()) {
	if a.requests == nil {
		return func() {}
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.requests.Run(runCtx, a.cfg.RollupInterval, func(err error) {
			a.log.Warn("overview rollups: flush", "error", err)
		})
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
}

// newHTTPServer is the server of handler on addr, with its timeouts; its
// requests' contexts outlive ctx, so that a shutdown lets them finish.
func newHTTPServer(ctx context.Context, addr string, handler http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       10 * time.Minute, // uploads of up to 50 MiB on slow links
		WriteTimeout:      10 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
}

// listenAndServe listens on the configured address, serves srv and the
// metrics listener and runs the sweep until ctx ends, then shuts down within
// shutdownGrace and stops the outbox and the rollups (stop). It returns the
// exit code.
func (e *cliEnv) listenAndServe(ctx context.Context, a *app, srv *http.Server, logger *slog.Logger, registry *prometheus.Registry, stop func()) int {
	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		return e.fail("serve", err)
	}
	if a.cfg.RateLimits.Off {
		logger.WarnContext(ctx, "rate limits are off (MARKUPROOM_RATE_LIMITS=off)")
	}
	logger.InfoContext(ctx, "listening", "addr", ln.Addr().String(), "base_url", a.cfg.BaseURL, "database", string(a.db.Dialect))
	fmt.Fprintf(e.stdout, "Markup Room is listening on %s (public URL %s; admin console %s/admin).\n", ln.Addr(), a.cfg.BaseURL, a.cfg.BaseURL)

	stopMetrics, err := a.startMetrics(ctx, logger, registry)
	if err != nil {
		ln.Close()
		return e.fail("serve: metrics listener", err)
	}
	defer stopMetrics(context.WithoutCancel(ctx)) // when Serve fails; a second Shutdown is a no-op
	// Room event streams end first at a shutdown: they would hold it for
	// its whole grace otherwise.
	srv.RegisterOnShutdown(a.store.CloseRoomStreams)
	listenCtx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	go a.store.ListenRoomEvents(listenCtx)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	go a.sweep(ctx)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return e.fail("serve", err)
		}
		return 0
	case <-ctx.Done():
	}
	logger.Info("shutting down", "grace", shutdownGrace.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := errors.Join(srv.Shutdown(shutdownCtx), stopMetrics(shutdownCtx)); err != nil {
		return e.fail("serve: shutdown", err)
	}
	stop()
	logger.Info("stopped")
	return 0
}

// startOutbox starts the delivery worker; the returned stop makes it claim
// nothing more, waits for the sends in flight (each bounded by its timeout)
// and returns. Held e-mails go back in the queue when SMTP is configured.
func (a *app) startOutbox(ctx context.Context, logger *slog.Logger, registry prometheus.Registerer) (stop func(), err error) {
	retry := models.DefaultRetryPolicy()
	retry.Attempts = a.cfg.OutboxMaxAttempts
	retry.Jitter = models.NewJitter(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	w, err := delivery.New(a.store, delivery.Config{
		SMTPURL:              a.cfg.SMTPURL,
		From:                 a.cfg.SMTPFrom,
		AllowPrivateWebhooks: a.cfg.WebhookAllowPrivate,
		Retry:                retry,
		Lease:                a.cfg.OutboxLease,
		Logger:               logger,
		Registry:             registry,
		Counter:              a.store,
	})
	if err != nil {
		return nil, err
	}
	if a.cfg.SMTPURL != "" {
		if n, err := a.store.ResumeHeld(ctx); err != nil {
			return nil, err
		} else if n > 0 {
			logger.Info("outbox: SMTP is configured; held e-mails queued again", "count", n)
		}
	} else {
		logger.Info("outbox: no MARKUPROOM_SMTP_URL; invitation e-mails are logged and held")
	}
	workerCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(workerCtx)
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}, nil
}

// serverLogger writes JSON lines to stderr at MARKUPROOM_LOG_LEVEL.
func (e *cliEnv) serverLogger() *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(strings.TrimSpace(e.getenv("MARKUPROOM_LOG_LEVEL")))); err != nil {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

// retention is the sweep's policy, from the configuration.
func (a *app) retention() models.Retention {
	return models.Retention{Messages: a.cfg.MessageRetention, AdminSessions: a.cfg.AdminMaxAge, Audit: a.cfg.AuditRetention, Lease: a.cfg.SweepInterval / 2}
}

// sweep runs the retention sweep (models.Store.Sweep) every
// cfg.SweepInterval until ctx ends, the first time at start: finished
// outbox messages past their retention, expired Idempotency-Key records,
// console sessions past their maximum age, old sign-in attempts, refilled
// rate-limit buckets. Every instance runs the loop; a lease lets one sweep
// the database at a time, while each removes its own stale staged uploads
// (models.StaleUploadAge).
func (a *app) sweep(ctx context.Context) {
	tick := time.NewTicker(a.cfg.SweepInterval)
	defer tick.Stop()
	policy := a.retention()
	for {
		// Temporary files are this instance's own: every instance removes its stale ones.
		if n, err := a.store.RemoveStaleUploads(time.Now().Add(-models.StaleUploadAge)); err != nil {
			a.log.WarnContext(ctx, "remove stale staged uploads", "error", err, "removed", n)
		} else if n > 0 {
			a.log.InfoContext(ctx, "removed stale staged uploads", "removed", n)
		}
		rep, err := a.store.Sweep(ctx, policy)
		switch {
		case err != nil && ctx.Err() == nil:
			a.log.WarnContext(ctx, "retention sweep", "error", err)
		case rep.Ran:
			a.log.InfoContext(ctx, "retention sweep", "messages", rep.Messages, "idempotency_keys", rep.IdempotencyKeys,
				"admin_sessions", rep.AdminSessions, "login_attempts", rep.LoginAttempts, "rate_buckets", rep.RateBuckets, "audit_events", rep.AuditEvents)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
