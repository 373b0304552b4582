package models

import (
	"context"
	"fmt"
	"time"
)

// Retention says how long rows that only record the past are kept before
// the background sweep deletes them. Zero fields take DefaultRetention's.
type Retention struct {
	// Messages is how long a delivered or given-up outbox message stays
	// (the console's "Outgoing messages" shows it that long).
	Messages time.Duration
	// AdminSessions is the console sessions' maximum age: a session that
	// started, or ended, longer ago than this is deleted.
	AdminSessions time.Duration
	// OrphanBlobs is how old a bucket object no document row names must be
	// before the sweep deletes it (longer than any upload takes).
	OrphanBlobs time.Duration
	// Audit is how long audit events are kept; zero keeps them forever (it
	// has no default). The sweep leaves a checkpoint in each chain, so what
	// is left still verifies.
	Audit time.Duration
	// Rollups is how long the overview's per-hour figures (metric_rollups)
	// are kept; the overview reads 30 days of them.
	Rollups time.Duration
	// BatchSize is how many rows one DELETE removes, so a sweep never holds
	// long locks on a busy table.
	BatchSize int
	// Lease is how long one instance owns the sweep; others skip it meanwhile.
	Lease time.Duration
}

// DefaultRetention keeps finished messages 30 days, console sessions 12
// hours (the default maximum session age) and the overview's rollups 90
// days (three times what it shows), deletes bucket objects no
// document names after 15 minutes (no upload takes that long), deletes 1,000 rows a statement and leases
// the sweep for 10 minutes.
func DefaultRetention() Retention {
	return Retention{Messages: 30 * 24 * time.Hour, AdminSessions: 12 * time.Hour, OrphanBlobs: 15 * time.Minute, Rollups: 90 * 24 * time.Hour, BatchSize: 1000, Lease: 10 * time.Minute}
}

func (r Retention) withDefaults() Retention {
	d := DefaultRetention()
	if r.Messages <= 0 {
		r.Messages = d.Messages
	}
	if r.AdminSessions <= 0 {
		r.AdminSessions = d.AdminSessions
	}
	if r.OrphanBlobs <= 0 {
		r.OrphanBlobs = d.OrphanBlobs
	}
	if r.Rollups <= 0 {
		r.Rollups = d.Rollups
	}
	if r.BatchSize <= 0 {
		r.BatchSize = d.BatchSize
	}
	if r.Lease <= 0 {
		r.Lease = d.Lease
	}
	return r
}

// SweepReport counts what one sweep deleted, by table.
type SweepReport struct {
	// Ran is false when another instance holds the sweep's lease.
	Ran             bool
	Messages        int64
	IdempotencyKeys int64
	AdminSessions   int64
	LoginAttempts   int64
	RateBuckets     int64
	OrphanBlobs     int64
	AuditEvents     int64
	Rollups         int64
}

// sweepStep is one table's batched delete: sql ends with a LIMIT placeholder
// for the batch size, after args.
type sweepStep struct {
	table string
	count *int64
	sql   string
	args  []any
}

// sweepLeaseKey names the app_settings row whose value is the time until
// which one instance owns the sweep.
const sweepLeaseKey = "sweep_lease_until"

// leaseLayout writes lease times so that text order is time order.
const leaseLayout = "2006-01-02T15:04:05.000000000Z"

// Sweep deletes what the retention policy no longer keeps: finished outbox
// messages past r.Messages, Idempotency-Key records past their lifetime,
// console sessions that can no longer be used (kept r.AdminSessions), sign-in
// attempts older than the lockout window, the overview's rollups older than
// r.Rollups, rate-limit buckets that have
// refilled, and bucket objects no document names (older than r.OrphanBlobs).
// It runs on one instance at a time (a lease row; the others skip), each
// table in batches of r.BatchSize rows, and stops at the first error.
func (s *Store) Sweep(ctx context.Context, r Retention) (SweepReport, error) {
	r = r.withDefaults()
	var rep SweepReport
	ok, err := s.claimSweep(ctx, r.Lease)
	if err != nil || !ok {
		return rep, err
	}
	rep.Ran = true
	now := s.Now()
	cutoff := now.Add(-r.AdminSessions)
	steps := []sweepStep{
		{"outbox", &rep.Messages,
			`DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status IN ? AND updated_at < ? LIMIT ?)`,
			[]any{[]MessageStatus{MessageSent, MessageDead}, now.Add(-r.Messages)}},
		{"idempotency_keys", &rep.IdempotencyKeys,
			`DELETE FROM idempotency_keys WHERE (organization_id, scope, idempotency_key) IN
			 (SELECT organization_id, scope, idempotency_key FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)`,
			[]any{now}},
		{"admin_sessions", &rep.AdminSessions,
			`DELETE FROM admin_sessions WHERE id_hash IN (SELECT id_hash FROM admin_sessions WHERE ended_at < ? OR created_at < ? LIMIT ?)`,
			[]any{cutoff, cutoff}},
		{"login_attempts", &rep.LoginAttempts,
			`DELETE FROM login_attempts WHERE id IN (SELECT id FROM login_attempts WHERE created_at < ? LIMIT ?)`,
			[]any{now.Add(-LoginWindow)}},
		{"metric_rollups", &rep.Rollups,
			`DELETE FROM metric_rollups WHERE (metric, hour, organization_id, bucket) IN
			 (SELECT metric, hour, organization_id, bucket FROM metric_rollups WHERE hour < ? LIMIT ?)`,
			[]any{hourOf(now.Add(-r.Rollups))}},
	}
	for _, st := range steps {
		for {
			res := s.db.WithContext(ctx).Exec(st.sql, append(st.args, r.BatchSize)...)
			if res.Error != nil {
				return rep, fmt.Errorf("sweep %s: %w", st.table, mapDBError(res.Error))
			}
			*st.count += res.RowsAffected
			if res.RowsAffected < int64(r.BatchSize) {
				break
			}
		}
	}
	if r.Audit > 0 {
		n, err := s.sweepAudit(ctx, now.Add(-r.Audit), r.BatchSize)
		rep.AuditEvents = n
		if err != nil {
			return rep, fmt.Errorf("sweep audit_events: %w", err)
		}
	}
	n, err := s.PurgeFullRateBuckets(ctx)
	rep.RateBuckets = n
	if err != nil {
		return rep, fmt.Errorf("sweep rate_limits: %w", mapDBError(err))
	}
	rep.OrphanBlobs, err = s.sweepOrphanBlobs(ctx, now.Add(-r.OrphanBlobs), r.BatchSize)
	if err != nil {
		return rep, fmt.Errorf("sweep orphaned blobs: %w", err)
	}
	return rep, nil
}

// claimSweep takes the sweep's lease for d when no other instance holds it:
// one statement that inserts the lease row or moves its time forward only if
// it has passed, so two instances can never both see true.
func (s *Store) claimSweep(ctx context.Context, d time.Duration) (bool, error) {
	now := s.Now().UTC()
	until := now.Add(d).Format(leaseLayout)
	var claimed []string
	err := s.db.WithContext(ctx).Raw(
		`INSERT INTO app_settings (key, value, created_at) VALUES (?, ?, ?)
		 ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE app_settings.value < ?
		 RETURNING key`, sweepLeaseKey, until, now, now.Format(leaseLayout)).Scan(&claimed).Error
	if err != nil {
		return false, fmt.Errorf("claim the sweep: %w", mapDBError(err))
	}
	return len(claimed) == 1, nil
}
