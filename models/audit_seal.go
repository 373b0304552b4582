package models

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The sealer (docs/decisions.md, "Audit sealing"): a change inserts its
// audit events unsealed (flushAudit); SealAudit, run by the server every
// few hundred milliseconds and at shutdown, appends the committed ones to
// their organizations' chains, one instance at a time.

// auditSealBatch is how many events one sealing transaction chains.
const auditSealBatch = 2000

// auditSealerLockClass is the first key of the sealer's PostgreSQL advisory
// lock; the second is a hash of the schema, so databases that keep several
// schemas (the tests) have a sealer each.
const auditSealerLockClass = 0x6d726175 // "mrau"

// auditSealer is the sealer's state shared by a Store's copies: a mutex,
// so one process runs one pass at a time (on SQLite that is the whole
// guard: its writers hold the database), and the count of unsealed events
// the last pass left (the /metrics gauge).
type auditSealer struct {
	mu       sync.Mutex
	unsealed atomic.Int64
}

// AuditSealReport is what one SealAudit pass did.
type AuditSealReport struct {
	// Sealed is how many events the pass chained.
	Sealed int64
	// Folded is how many rollup deltas it added to metric_rollups.
	Folded int64
	// Busy is true when another instance held the sealer's lock: the pass
	// did nothing.
	Busy bool
	// Unsealed is how many events were left unsealed after the pass (not
	// yet committed long enough, or past this pass's batches).
	Unsealed int64
}

// SealAudit runs one pass of the sealer: in transactions of up to
// auditSealBatch events, each under the sealer's lock (PostgreSQL:
// pg_try_advisory_xact_lock, so a second instance skips its pass instead of
// waiting), it chains the unsealed events whose inserting transactions are
// all finished — on PostgreSQL those whose xid is older than the oldest
// transaction still running, so no event that commits later can come
// before them — in the order (xid, id) (SQLite: id, the commit order of its
// one writer), giving each its seq, prev_hash and hash and moving the chain
// heads; then it folds the rollup deltas into metric_rollups. A pass that
// fails leaves the events unsealed for the next one.
func (s *Store) SealAudit(ctx context.Context) (AuditSealReport, error) {
	s.sealer.mu.Lock()
	defer s.sealer.mu.Unlock()
	var rep AuditSealReport
	for {
		var n int64
		err := s.inTx(ctx, func(tx *Store) error {
			ok, err := tx.takeSealerLock(ctx)
			if err != nil || !ok {
				rep.Busy = !ok
				return err
			}
			if n, err = tx.sealAuditBatch(ctx); err != nil {
				return err
			}
			if n < auditSealBatch {
				folded, err := tx.foldRollupDeltas(ctx)
				rep.Folded += folded
				return err
			}
			return nil
		})
		if err != nil {
			return rep, fmt.Errorf("seal the audit trail: %w", err)
		}
		rep.Sealed += n
		if rep.Busy || n < auditSealBatch {
			break
		}
	}
	unsealed, err := s.CountUnsealedAudit(ctx, nil)
	if err != nil {
		return rep, err
	}
	rep.Unsealed = unsealed
	s.sealer.unsealed.Store(unsealed)
	return rep, nil
}

// UnsealedAuditEvents is how many events the last SealAudit pass of this
// Store left unsealed: the /metrics gauge, read without a query.
func (s *Store) UnsealedAuditEvents() int64 { return s.sealer.unsealed.Load() }

// SealAuditBacklog seals, pass after pass, until every event that was
// unsealed when it was called is sealed (by this instance or another), or
// ctx ends: the server's last step at shutdown, once its requests have
// finished, and the command line's after a command.
func (s *Store) SealAuditBacklog(ctx context.Context) error {
	var last int64
	err := s.db.WithContext(ctx).Raw("SELECT COALESCE(MAX(id), 0) FROM audit_events WHERE seq IS NULL").Row().Scan(&last)
	if err != nil {
		return mapDBError(err)
	}
	if last == 0 {
		return nil
	}
	for wait := time.Duration(0); ; wait = min(2*wait+10*time.Millisecond, 200*time.Millisecond) {
		if _, err := s.SealAudit(ctx); err != nil {
			return err
		}
		var left int64
		if err := s.db.WithContext(ctx).Model(&AuditEvent{}).Where("seq IS NULL AND id <= ?", last).Count(&left).Error; err != nil {
			return mapDBError(err)
		}
		if left == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("seal the audit trail: %d events left unsealed: %w", left, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// CountUnsealedAudit counts the events not sealed yet (org's, or every
// organization's when org is nil), on the partial index of unsealed events.
func (s *Store) CountUnsealedAudit(ctx context.Context, org *int64) (int64, error) {
	q := s.db.WithContext(ctx).Model(&AuditEvent{}).Where("seq IS NULL")
	if org != nil {
		q = q.Where("organization_id = ?", *org)
	}
	var n int64
	return n, mapDBError(q.Count(&n).Error)
}

// takeSealerLock takes the sealer's lock for the rest of the transaction
// s belongs to, without waiting: false when another instance holds it. On
// SQLite the transaction itself (IMMEDIATE) holds the database.
func (s *Store) takeSealerLock(ctx context.Context) (bool, error) {
	if s.dialect != DialectPostgres {
		return true, nil
	}
	var ok bool
	err := s.db.WithContext(ctx).Raw("SELECT pg_try_advisory_xact_lock(?, hashtext(current_schema()))", auditSealerLockClass).Row().Scan(&ok)
	return ok, mapDBError(err)
}

// sealAuditBatch chains up to auditSealBatch settled events; s holds the
// sealer's lock. It returns how many it sealed.
func (s *Store) sealAuditBatch(ctx context.Context) (int64, error) {
	db := s.db.WithContext(ctx)
	q := db.Where("seq IS NULL").Order("id")
	if s.dialect == DialectPostgres {
		// pg_current_snapshot() is this statement's snapshot: every event
		// whose xid is under its xmin is committed (and seen) or rolled
		// back, and every event still to commit has a larger xid.
		q = db.Where("seq IS NULL AND xid < pg_snapshot_xmin(pg_current_snapshot())").Order("xid, id")
	}
	var events []AuditEvent
	if err := q.Limit(auditSealBatch).Find(&events).Error; err != nil {
		return 0, mapDBError(err)
	}
	if len(events) == 0 {
		return 0, nil
	}
	heads, err := s.readAuditHeads(ctx, events)
	if err != nil {
		return 0, err
	}
	for i := range events {
		e := &events[i]
		h := heads[e.OrganizationID]
		h.Seq++
		e.Seq, e.PrevHash = h.Seq, h.Hash
		e.Hash = e.ComputeHash()
		h.Hash = e.Hash
	}
	const per = 1000 // 4 parameters each
	for start := 0; start < len(events); start += per {
		chunk := events[start:min(start+per, len(events))]
		var sql strings.Builder
		sql.WriteString("WITH v (id, seq, prev_hash, hash) AS (VALUES ")
		args := make([]any, 0, 4*len(chunk))
		for i := range chunk {
			if i > 0 {
				sql.WriteString(", ")
			}
			sql.WriteString("(CAST(? AS bigint), CAST(? AS bigint), ?, ?)")
			args = append(args, chunk[i].ID, chunk[i].Seq, chunk[i].PrevHash, chunk[i].Hash)
		}
		sql.WriteString(`) UPDATE audit_events SET seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
	FROM v WHERE audit_events.id = v.id AND audit_events.seq IS NULL`)
		res := db.Exec(sql.String(), args...)
		if res.Error != nil {
			return 0, mapDBError(res.Error)
		}
		if res.RowsAffected != int64(len(chunk)) {
			return 0, errors.New("models: audit events were sealed by someone else meanwhile")
		}
	}
	orgs := make([]int64, 0, len(heads))
	for org := range heads {
		orgs = append(orgs, org)
	}
	slices.Sort(orgs)
	var sql strings.Builder
	sql.WriteString("INSERT INTO audit_chains (organization_id, seq, hash, checkpoint_seq, checkpoint_hash) VALUES ")
	args := make([]any, 0, 3*len(orgs))
	for i, org := range orgs {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString("(?, ?, ?, 0, '')")
		args = append(args, org, heads[org].Seq, heads[org].Hash)
	}
	sql.WriteString(" ON CONFLICT (organization_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash")
	if err := db.Exec(sql.String(), args...).Error; err != nil {
		return 0, mapDBError(err)
	}
	return int64(len(events)), nil
}

// readAuditHeads reads the chain heads of the events' organizations; an
// organization without one starts at seq 0 and the genesis hash.
func (s *Store) readAuditHeads(ctx context.Context, events []AuditEvent) (map[int64]*auditChain, error) {
	heads := map[int64]*auditChain{}
	orgs := make([]int64, 0, 1)
	for i := range events {
		org := events[i].OrganizationID
		if _, ok := heads[org]; !ok {
			heads[org] = &auditChain{OrganizationID: org, Hash: auditGenesis}
			orgs = append(orgs, org)
		}
	}
	for start := 0; start < len(orgs); start += 1000 {
		var rows []auditChain
		err := s.db.WithContext(ctx).Where("organization_id IN ?", orgs[start:min(start+1000, len(orgs))]).Find(&rows).Error
		if err != nil {
			return nil, mapDBError(err)
		}
		for i := range rows {
			heads[rows[i].OrganizationID] = &rows[i]
		}
	}
	return heads, nil
}
