package models

import (
	"context"
	"errors"
	"slices"

	"gorm.io/gorm/clause"
)

// auditChain is the head of one organization's chain: its last event's
// seq and hash, and the checkpoint retention left (the seq and hash of the
// last event it deleted; 0 and "" while it deleted none).
type auditChain struct {
	OrganizationID int64  `gorm:"column:organization_id;primaryKey"`
	Seq            int64  `gorm:"column:seq"`
	Hash           string `gorm:"column:hash"`
	CheckpointSeq  int64  `gorm:"column:checkpoint_seq"`
	CheckpointHash string `gorm:"column:checkpoint_hash"`
}

// TableName implements gorm's tabler.
func (auditChain) TableName() string { return "audit_chains" }

// auditPending collects the audit events of one database transaction; inTx
// appends them to their chains just before it commits, so a chain's head is
// locked only for the last moment of the transaction.
type auditPending struct {
	events []AuditEvent
}

// audit records e, by the actor in ctx, as part of the database transaction
// s belongs to: it is written when that transaction commits and not at all
// when it rolls back. Outside a transaction it is written in one of its own.
func (s *Store) audit(ctx context.Context, e AuditEntry) error {
	if s.pending == nil {
		return s.inTx(ctx, func(tx *Store) error { return tx.audit(ctx, e) })
	}
	a := AuditActorFrom(ctx)
	s.pending.events = append(s.pending.events, AuditEvent{
		OrganizationID: e.OrganizationID,
		ActorKind:      a.Kind, ActorID: clip(a.ID), ActorName: clip(a.Name),
		Via: clip(a.Via), ClientAddr: clip(a.Address),
		Action: clip(e.Action), TargetType: clip(e.TargetType),
		TargetID: clip(e.TargetID), TransactionID: clip(e.TransactionID),
		Summary: clip(e.Summary),
	})
	return nil
}

// RecordAudit writes e, by the actor in ctx, in a database transaction of
// its own: for an event that changes nothing else (a refused sign-in).
// A change records its events with audit, inside its own transaction.
func (s *Store) RecordAudit(ctx context.Context, e AuditEntry) error {
	return s.inTx(ctx, func(tx *Store) error { return tx.audit(ctx, e) })
}

// flushAudit appends the transaction's pending events to their chains:
// each chain's head is locked (FOR UPDATE on PostgreSQL; SQLite's IMMEDIATE
// transactions already hold the database) in organization order, so two
// transactions never wait on each other's heads crosswise.
func (s *Store) flushAudit(ctx context.Context) error {
	events := s.pending.events
	s.pending.events = nil
	if len(events) == 0 {
		return nil
	}
	orgs := make([]int64, 0, 1)
	for _, e := range events {
		if !slices.Contains(orgs, e.OrganizationID) {
			orgs = append(orgs, e.OrganizationID)
		}
	}
	slices.Sort(orgs)
	heads := make(map[int64]*auditChain, len(orgs))
	for _, org := range orgs {
		h, err := s.lockAuditChain(ctx, org)
		if err != nil {
			return err
		}
		heads[org] = h
	}
	at := s.Now() // one time for the transaction's events, taken under the lock: a chain's times never go back
	for i := range events {
		e := &events[i]
		e.At = at
		h := heads[e.OrganizationID]
		h.Seq++
		e.Seq, e.PrevHash = h.Seq, h.Hash
		e.Hash = e.ComputeHash()
		h.Hash = e.Hash
	}
	// The events and the new heads: on PostgreSQL one statement.
	var b writeBatch
	addRows(&b, s.batchRows(), "audit_events", auditEventColumns(), events, auditEventValues)
	for _, org := range orgs {
		h := heads[org]
		b.add("UPDATE audit_chains SET seq = ?, hash = ? WHERE organization_id = ?", h.Seq, h.Hash, org)
	}
	return s.execBatch(ctx, &b)
}

// auditEventColumns are the columns an audit event is inserted with: all
// but id, which the database assigns (the audit tests write and verify
// every one).
func auditEventColumns() []string {
	return []string{"organization_id", "seq", "at", "actor_kind", "actor_id", "actor_name", "via", "client_addr",
		"action", "target_type", "target_id", "transaction_id", "summary", "prev_hash", "hash"}
}

func auditEventValues(e *AuditEvent) []any {
	return []any{e.OrganizationID, e.Seq, e.At, e.ActorKind, e.ActorID, e.ActorName, e.Via, e.ClientAddr,
		e.Action, e.TargetType, e.TargetID, e.TransactionID, e.Summary, e.PrevHash, e.Hash}
}

// lockAuditChain reads org's chain head for update, creating it (empty,
// genesis hash) on the organization's first event: one round trip once the
// head exists (the SELECT … FOR UPDATE), three the first time.
func (s *Store) lockAuditChain(ctx context.Context, org int64) (*auditChain, error) {
	db := s.db.WithContext(ctx)
	read := func() ([]auditChain, error) {
		q := db.Where("organization_id = ?", org).Limit(1)
		if s.dialect == DialectPostgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		var heads []auditChain
		return heads, mapDBError(q.Find(&heads).Error)
	}
	heads, err := read()
	if err != nil {
		return nil, err
	}
	if len(heads) == 0 {
		// Raw SQL: gorm would leave a zero primary key (organization 0) to
		// the database.
		if err := db.Exec(`INSERT INTO audit_chains (organization_id, seq, hash, checkpoint_seq, checkpoint_hash)
	VALUES (?, 0, ?, 0, '') ON CONFLICT (organization_id) DO NOTHING`, org, auditGenesis).Error; err != nil {
			return nil, mapDBError(err)
		}
		if heads, err = read(); err != nil {
			return nil, err
		}
		if len(heads) == 0 {
			return nil, errors.New("models: the audit chain's head is missing after its creation")
		}
	}
	return &heads[0], nil
}
