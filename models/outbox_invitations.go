package models

import "context"

// InvitationCounts counts the invitation e-mails of one transaction in the
// outbox by status (pending, sending, sent, held, dead): what a completed
// room tells of its invitations. Delivered and dead messages leave the
// outbox with retention (Store.Sweep), so an old transaction may count none.
func (s *Store) InvitationCounts(ctx context.Context, orgID int64, transactionID string) (map[MessageStatus]int64, error) {
	var rows []struct {
		Status MessageStatus
		N      int64
	}
	err := s.db.WithContext(ctx).Model(&OutboxMessage{}).Select("status, count(*) AS n").
		Where("organization_id = ? AND transaction_id = ? AND kind = ? AND event = ?", orgID, transactionID, MessageEmail, EventInvitation).
		Group("status").Scan(&rows).Error
	out := map[MessageStatus]int64{}
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, mapDBError(err)
}
