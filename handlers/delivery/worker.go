// Package delivery sends what the outbox holds: invitation e-mails over
// SMTP and signed webhook calls. A Worker claims due messages from the
// store (leased, so several instances never send one twice), sends each,
// and records the outcome; failures come back later with exponential
// backoff and jitter, then go dead.
package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers/logsafe"
	"github.com/markuproom/markuproom/models"
)

// Store is what the worker needs of models.Store.
type Store interface {
	ClaimMessages(ctx context.Context, limit int, lease time.Duration) ([]models.OutboxMessage, error)
	FinishMessages(ctx context.Context, outs []models.MessageOutcome, policy models.RetryPolicy) error
	ReleaseMessage(ctx context.Context, m *models.OutboxMessage) error
	WebhooksByID(ctx context.Context, ids []string) (map[string]*models.WebhookEndpoint, error)
}

// Config sets up a Worker. Zero values take the defaults noted.
type Config struct {
	// SMTPURL is where e-mails go (smtp:// or smtps://); empty holds them:
	// they are logged (recipient and subject) and kept as "held".
	SMTPURL string
	// From is the sender of e-mails (default "Markup Room <no-reply@localhost>").
	From string
	// AllowPrivateWebhooks lets webhooks use http:// and reach private addresses.
	AllowPrivateWebhooks bool
	// Retry spaces out attempts (default models.DefaultRetryPolicy()). Without
	// a Jitter the worker seeds one of its own (models.NewJitter).
	Retry models.RetryPolicy
	// Poll is how often an idle worker looks for due messages (default 1 s).
	Poll time.Duration
	// Batch is how many messages one claim takes (default 20).
	Batch int
	// Concurrency is how many sends run at once (default 4).
	Concurrency int
	// Timeout bounds one send (default 10 s); Lease must exceed it (default 2 min).
	Timeout time.Duration
	Lease   time.Duration
	Logger  *slog.Logger
	// Registry, when set, receives the worker's metrics.
	Registry prometheus.Registerer
	// Counter, when set with Registry, reports the outbox's size by status
	// at each scrape.
	Counter MessageCounter
}

// Worker sends the outbox's due messages until its context ends.
type Worker struct {
	store  Store
	cfg    Config
	mailer *Mailer // nil: e-mails are held
	hooks  *WebhookSender
	log    *slog.Logger
	stats  *metrics // nil without a registry
}

// New checks the configuration and builds a worker.
func New(store Store, cfg Config) (*Worker, error) {
	if cfg.From == "" {
		cfg.From = "Markup Room <no-reply@localhost>"
	}
	if cfg.Retry.Attempts <= 0 {
		cfg.Retry = models.DefaultRetryPolicy()
	}
	if cfg.Retry.Jitter == nil {
		cfg.Retry.Jitter = models.NewJitter(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 20
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 2 * time.Minute
	}
	if cfg.Lease <= 2*cfg.Timeout {
		return nil, fmt.Errorf("the outbox lease (%s) must exceed twice the send timeout (%s)", cfg.Lease, cfg.Timeout)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	w := &Worker{store: store, cfg: cfg, log: cfg.Logger,
		hooks: NewWebhookSender(cfg.AllowPrivateWebhooks, cfg.Timeout)}
	if cfg.Registry != nil {
		stats, err := newMetrics(cfg.Registry, cfg.Counter)
		if err != nil {
			return nil, err
		}
		w.stats = stats
	}
	if cfg.SMTPURL != "" {
		m, err := NewMailer(cfg.SMTPURL, cfg.From, cfg.Timeout)
		if err != nil {
			return nil, err
		}
		w.mailer = m
	}
	return w, nil
}

// Run sends due messages until ctx ends. Then it claims nothing more, lets
// the sends in flight finish (each is bounded by the send timeout), returns
// the claimed messages it has not started to the queue, and returns.
func (w *Worker) Run(ctx context.Context) {
	defer w.hooks.Close()
	for ctx.Err() == nil {
		n, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.log.Warn("outbox: claiming messages failed", "error", err)
		}
		if n == w.cfg.Batch {
			continue // there may be more right away
		}
		timer := time.NewTimer(w.cfg.Poll)
		select {
		case <-ctx.Done():
		case <-timer.C:
		}
		timer.Stop()
	}
}

// RunOnce claims one batch of due messages and sends them; it reports how
// many it claimed.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	// Claims and outcomes use a context that outlives ctx: a send that was
	// started finishes and is recorded even while the server stops.
	keep := context.WithoutCancel(ctx)
	msgs, err := w.store.ClaimMessages(keep, w.cfg.Batch, w.cfg.Lease)
	if err != nil {
		return 0, err
	}
	// The batch's webhook endpoints, in one read.
	var ids []string
	for _, m := range msgs {
		if m.EndpointID != nil {
			ids = append(ids, *m.EndpointID)
		}
	}
	endpoints, err := w.store.WebhooksByID(keep, ids)
	if err != nil {
		for i := range msgs {
			_ = w.store.ReleaseMessage(keep, &msgs[i])
		}
		return 0, err
	}
	rec := w.startRecorder(keep, len(msgs))
	var emails, others []*models.OutboxMessage
	for i := range msgs {
		if msgs[i].Kind == models.MessageEmail {
			emails = append(emails, &msgs[i])
		} else {
			others = append(others, &msgs[i])
		}
	}
	var wg sync.WaitGroup
	// E-mails go out beside the webhooks, over one SMTP connection per
	// chunk: a slow webhook never holds them up.
	wg.Go(func() { w.sendEmails(ctx, keep, emails, rec) })
	slots := make(chan struct{}, w.cfg.Concurrency)
	for _, m := range others {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			w.release(keep, m)
			continue
		}
		wg.Go(func() {
			defer func() { <-slots }()
			sendCtx, cancel := context.WithTimeout(keep, w.cfg.Timeout)
			defer cancel()
			start := time.Now()
			rec.add(w.outcome(m, w.send(sendCtx, m, endpoints), time.Since(start)))
		})
	}
	wg.Wait()
	rec.close()
	return len(msgs), nil
}

// sendEmails sends the batch's e-mails in chunks, each over one SMTP
// connection and short enough to finish well within the lease. Chunks not
// started when ctx ends go back to the queue.
func (w *Worker) sendEmails(ctx, keep context.Context, emails []*models.OutboxMessage, rec *recorder) {
	if w.mailer == nil {
		for _, m := range emails {
			rec.add(w.outcome(m, models.Outcome{Err: errors.New("no SMTP server is configured"), Held: true}, 0))
		}
		return
	}
	size := max(1, int(w.cfg.Lease/(2*w.cfg.Timeout)))
	for chunk := range slices.Chunk(emails, size) {
		if ctx.Err() != nil {
			for _, m := range chunk {
				w.release(keep, m)
			}
			continue
		}
		letters := make([]Letter, len(chunk))
		errs := make([]error, len(chunk))
		for i, m := range chunk {
			var inv models.Invitation
			if err := json.Unmarshal(m.Payload, &inv); err != nil {
				errs[i] = permanent(err)
			}
			letters[i] = Letter{ID: m.ID, Invitation: &inv}
		}
		sendCtx, cancel := context.WithTimeout(keep, time.Duration(len(chunk))*w.cfg.Timeout)
		start := time.Now()
		sent := w.mailer.SendBatch(sendCtx, letters)
		cancel()
		each := time.Since(start) / time.Duration(len(chunk))
		for i, m := range chunk {
			err := errs[i]
			if err == nil {
				err = sent[i]
			}
			var p *permanentError
			rec.add(w.outcome(m, models.Outcome{Err: err, Permanent: errors.As(err, &p)}, each))
		}
	}
}

// release returns a claimed message that was never sent to the queue.
func (w *Worker) release(ctx context.Context, m *models.OutboxMessage) {
	if err := w.store.ReleaseMessage(ctx, m); err != nil {
		w.log.Warn("outbox: returning a message to the queue failed", "id", m.ID, "error", err)
	}
}

// outcome logs and counts how one message's send ended.
func (w *Worker) outcome(m *models.OutboxMessage, out models.Outcome, took time.Duration) models.MessageOutcome {
	w.stats.observe(m.Kind, w.cfg.Retry.Next(out, m.Attempts), took)
	log := w.log.With("id", m.ID, "kind", m.Kind, "event", m.Event, "attempt", m.Attempts)
	to := m.Recipient
	if m.Kind == models.MessageWebhook {
		to = logsafe.RawURL(to) // an endpoint URL may carry its owner's token in the query
	}
	switch {
	case out.Held:
		// Recipient and subject only: the body may carry personal text.
		log.Info("outbox: no SMTP server configured; e-mail held", "to", m.Recipient, "subject", mailSubject(m))
	case out.Err != nil:
		log.Warn("outbox: send failed", "to", to, "error", out.Err, "permanent", out.Permanent)
	default:
		log.Info("outbox: sent", "to", to)
	}
	return models.MessageOutcome{Message: m, Outcome: out}
}

func (w *Worker) send(ctx context.Context, m *models.OutboxMessage, endpoints map[string]*models.WebhookEndpoint) models.Outcome {
	var err error
	switch m.Kind {
	case models.MessageWebhook:
		err = w.sendWebhook(ctx, m, endpoints)
	default:
		err = permanent(fmt.Errorf("unknown message kind %q", m.Kind))
	}
	var p *permanentError
	return models.Outcome{Err: err, Permanent: errors.As(err, &p)}
}

func (w *Worker) sendWebhook(ctx context.Context, m *models.OutboxMessage, endpoints map[string]*models.WebhookEndpoint) error {
	var ep *models.WebhookEndpoint
	if m.EndpointID != nil {
		ep = endpoints[*m.EndpointID]
	}
	if ep == nil {
		return permanent(errors.New("the webhook endpoint was deleted"))
	}
	return w.hooks.Send(ctx, ep, m)
}

// permanentError marks a failure a retry cannot fix.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

func permanent(err error) error { return &permanentError{err: err} }
