package models

import (
	"context"
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
	db := s.db.WithContext(ctx)
	if err := db.CreateInBatches(events, s.batchRows()).Error; err != nil {
		return mapDBError(err)
	}
	for _, org := range orgs {
		h := heads[org]
		if err := db.Model(&auditChain{}).Where("organization_id = ?", org).
			Updates(map[string]any{"seq": h.Seq, "hash": h.Hash}).Error; err != nil {
			return mapDBError(err)
		}
	}
	return nil
}

// lockAuditChain reads org's chain head for update, creating it (empty,
// genesis hash) on the organization's first event.
func (s *Store) lockAuditChain(ctx context.Context, org int64) (*auditChain, error) {
	db := s.db.WithContext(ctx)
	if err := db.Clauses(clause.OnConflict{DoNothing: true}).
		Create(&auditChain{OrganizationID: org, Hash: auditGenesis}).Error; err != nil {
		return nil, mapDBError(err)
	}
	q := db.Where("organization_id = ?", org)
	if s.dialect == DialectPostgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var h auditChain
	if err := q.Take(&h).Error; err != nil {
		return nil, mapDBError(err)
	}
	return &h, nil
}
