package models

import (
	"context"
	"errors"

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
// inserts them just before it commits (flushAudit), and the sealer chains
// them afterwards.
type auditPending struct {
	events []AuditEvent
	// roomEvents are the transaction's room events (roomEvent), written
	// with the audit events; committed, the last number each room got,
	// which the room event hub hears of after the commit.
	roomEvents []roomEventDraft
	committed  []committedRoomEvent
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

// flushAudit inserts the transaction's pending events, not sealed yet (seq,
// prev_hash and hash NULL), with the rest of the change: no chain head is
// read or locked, so the writers of one organization never wait on each
// other here. The sealer (SealAudit) chains them once they commit
// (docs/decisions.md, "Audit sealing").
func (s *Store) flushAudit(ctx context.Context) error {
	events := s.pending.events
	s.pending.events = nil
	if len(events) == 0 {
		return nil
	}
	at := s.Now() // one time for the transaction's events
	for i := range events {
		events[i].At = at
	}
	var b writeBatch
	addRows(&b, s.batchRows(), "audit_events", auditEventColumns(), events, auditEventValues)
	return s.execBatch(ctx, &b)
}

// auditEventColumns are the columns an audit event is inserted with: all
// but id, which the database assigns, and the chain's seq, prev_hash and
// hash, which the sealer sets (the audit tests write and verify every one).
func auditEventColumns() []string {
	return []string{"organization_id", "at", "actor_kind", "actor_id", "actor_name", "via", "client_addr",
		"action", "target_type", "target_id", "transaction_id", "summary"}
}

func auditEventValues(e *AuditEvent) []any {
	return []any{e.OrganizationID, e.At, e.ActorKind, e.ActorID, e.ActorName, e.Via, e.ClientAddr,
		e.Action, e.TargetType, e.TargetID, e.TransactionID, e.Summary}
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
