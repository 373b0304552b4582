package models

import (
	"context"
	"fmt"
	"time"
)

// sweepAudit deletes the audit events older than before, batch events of
// one organization per database transaction. Each step moves the chain's
// checkpoint to the last event it deletes (its seq and hash), so the events
// left still verify from there (VerifyAudit). Only sealed events go: an
// unsealed one waits for the sealer, and a later sweep.
func (s *Store) sweepAudit(ctx context.Context, before time.Time, batch int) (int64, error) {
	var orgs []int64
	if err := s.db.WithContext(ctx).Model(&AuditEvent{}).Distinct("organization_id").
		Where("at < ?", before).Pluck("organization_id", &orgs).Error; err != nil {
		return 0, mapDBError(err)
	}
	var total int64
	for _, org := range orgs {
		for {
			n, err := s.sweepAuditStep(ctx, org, before, batch)
			total += n
			if err != nil {
				return total, fmt.Errorf("organization %d: %w", org, err)
			}
			if n < int64(batch) {
				break
			}
		}
	}
	return total, nil
}

// sweepAuditStep deletes up to batch of org's oldest events older than
// before, and moves the checkpoint past them, in one transaction.
func (s *Store) sweepAuditStep(ctx context.Context, org int64, before time.Time, batch int) (int64, error) {
	var deleted int64
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.lockAuditChain(ctx, org); err != nil {
			return err
		}
		db := tx.db.WithContext(ctx)
		var old []AuditEvent
		if err := db.Select("seq", "hash").Where("organization_id = ? AND at < ? AND seq IS NOT NULL", org, before).
			Order("seq").Limit(batch).Find(&old).Error; err != nil {
			return mapDBError(err)
		}
		if len(old) == 0 {
			return nil
		}
		last := old[len(old)-1]
		if err := db.Model(&auditChain{}).Where("organization_id = ?", org).
			Updates(map[string]any{"checkpoint_seq": last.Seq, "checkpoint_hash": last.Hash}).Error; err != nil {
			return mapDBError(err)
		}
		res := db.Where("organization_id = ? AND seq <= ?", org, last.Seq).Delete(&AuditEvent{})
		deleted = res.RowsAffected
		return mapDBError(res.Error)
	})
	return deleted, err
}
