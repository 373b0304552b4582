package models

import (
	"context"
	"fmt"
)

// AuditReport is what VerifyAudit found: how many events and chains it
// walked, how many events are not sealed yet (the sealer has not chained
// them: nothing verifies them until it does) and, when a chain does not
// verify, the first break.
type AuditReport struct {
	Events   int64
	Chains   int
	Unsealed int64
	Broken   *AuditBreak
}

// AuditBreak is the first place a chain does not verify: the event whose
// content or link does not match (EventID 0 when the break is at the
// chain's end or no event is left to name), and why.
type AuditBreak struct {
	OrganizationID int64
	EventID        int64
	Seq            int64
	Reason         string
}

// Error implements error: one line that names the event.
func (b *AuditBreak) Error() string {
	if b.EventID == 0 {
		return fmt.Sprintf("organization %d: %s", b.OrganizationID, b.Reason)
	}
	return fmt.Sprintf("event %d (organization %d, #%d): %s", b.EventID, b.OrganizationID, b.Seq, b.Reason)
}

// auditVerifyBatch is how many events one query of VerifyAudit reads.
const auditVerifyBatch = 1000

// VerifyAudit walks the audit chains (every organization's, or org's when
// org is not nil) from their checkpoints to their heads: each event's hash
// must match its content, its seq must follow the previous one, its
// previous hash must be the previous event's hash, and the last event must
// be the chain's head. An edited, inserted or deleted row breaks one of
// these; the first break is reported, and no error is returned for it.
// Events not sealed yet are counted, not walked (docs/decisions.md, "Audit
// sealing").
func (s *Store) VerifyAudit(ctx context.Context, org *int64) (AuditReport, error) {
	var rep AuditReport
	db := s.db.WithContext(ctx)
	unsealed, err := s.CountUnsealedAudit(ctx, org)
	if err != nil {
		return rep, err
	}
	rep.Unsealed = unsealed
	var chains []auditChain
	q := db.Order("organization_id")
	if org != nil {
		q = q.Where("organization_id = ?", *org)
	}
	if err := q.Find(&chains).Error; err != nil {
		return rep, mapDBError(err)
	}
	var orphan AuditEvent
	oq := db.Where("seq IS NOT NULL AND organization_id NOT IN (SELECT organization_id FROM audit_chains)").Order("id")
	if org != nil {
		oq = oq.Where("organization_id = ?", *org)
	}
	if err := oq.Limit(1).Find(&orphan).Error; err != nil {
		return rep, mapDBError(err)
	}
	if orphan.ID != 0 {
		rep.Broken = &AuditBreak{OrganizationID: orphan.OrganizationID, EventID: orphan.ID, Seq: orphan.Seq,
			Reason: "its organization has no chain head: the event was inserted, or the head deleted"}
		return rep, nil
	}
	for _, c := range chains {
		rep.Chains++
		n, broken, err := s.verifyChain(ctx, c)
		rep.Events += n
		if err != nil || broken != nil {
			rep.Broken = broken
			return rep, err
		}
	}
	return rep, nil
}

// verifyChain walks one organization's chain; see VerifyAudit.
func (s *Store) verifyChain(ctx context.Context, c auditChain) (int64, *AuditBreak, error) {
	seq, prev := c.CheckpointSeq, c.CheckpointHash
	if seq == 0 {
		prev = auditGenesis
	}
	var n int64
	for {
		var batch []AuditEvent
		err := s.db.WithContext(ctx).Where("organization_id = ? AND seq > ? AND seq <= ?", c.OrganizationID, seq, c.Seq).
			Order("seq").Limit(auditVerifyBatch).Find(&batch).Error
		if err != nil {
			return n, nil, mapDBError(err)
		}
		for i := range batch {
			e := &batch[i]
			n++
			if b := checkAuditLink(e, seq, prev); b != nil {
				return n, b, nil
			}
			seq, prev = e.Seq, e.Hash
		}
		if len(batch) < auditVerifyBatch {
			break
		}
	}
	if seq != c.Seq || prev != c.Hash {
		return n, &AuditBreak{OrganizationID: c.OrganizationID, Seq: c.Seq, Reason: fmt.Sprintf(
			"the chain ends at #%d but its head names #%d: its last events were deleted or the head was changed", seq, c.Seq)}, nil
	}
	b, err := s.checkPastHead(ctx, c)
	return n, b, err
}

// checkPastHead finds a sealed event past the head VerifyAudit read: one
// the sealer chained meanwhile is under the head read again; any other was
// inserted.
func (s *Store) checkPastHead(ctx context.Context, c auditChain) (*AuditBreak, error) {
	db := s.db.WithContext(ctx)
	var past AuditEvent
	if err := db.Where("organization_id = ? AND seq > ?", c.OrganizationID, c.Seq).Order("seq DESC").Limit(1).Find(&past).Error; err != nil {
		return nil, mapDBError(err)
	}
	if past.ID == 0 {
		return nil, nil
	}
	var now auditChain
	if err := db.Where("organization_id = ?", c.OrganizationID).Limit(1).Find(&now).Error; err != nil {
		return nil, mapDBError(err)
	}
	if now.Seq >= past.Seq {
		return nil, nil
	}
	return &AuditBreak{OrganizationID: c.OrganizationID, EventID: past.ID, Seq: past.Seq, Reason: fmt.Sprintf(
		"it lies past the chain's head (#%d): the event was inserted, or the head changed", now.Seq)}, nil
}

// checkAuditLink checks one event against its predecessor's seq and hash.
func checkAuditLink(e *AuditEvent, prevSeq int64, prevHash string) *AuditBreak {
	b := &AuditBreak{OrganizationID: e.OrganizationID, EventID: e.ID, Seq: e.Seq}
	switch {
	case e.Seq != prevSeq+1:
		b.Reason = fmt.Sprintf("it follows #%d: events #%d to #%d are missing (deleted)", prevSeq, prevSeq+1, e.Seq-1)
	case e.PrevHash != prevHash:
		b.Reason = fmt.Sprintf("its link does not match the hash of #%d: that event or this one was changed", prevSeq)
	case e.ComputeHash() != e.Hash:
		b.Reason = "its content does not match its hash: the event was changed"
	default:
		return nil
	}
	return b
}
