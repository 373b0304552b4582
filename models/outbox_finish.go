package models

import (
	"context"
)

// MessageOutcome is a claimed message and how its send ended.
type MessageOutcome struct {
	Message *OutboxMessage
	Outcome Outcome
}

// FinishMessages records the outcomes of claimed messages, each only if its
// claim is still the caller's (a worker whose lease ran out changes
// nothing). Every delivered message is marked sent by one statement; a
// failure needs a statement of its own (its error and next attempt differ);
// with failures, all of it is one database transaction.
func (s *Store) FinishMessages(ctx context.Context, outs []MessageOutcome, policy RetryPolicy) error {
	var sent [][]any
	var failed []MessageOutcome
	for _, o := range outs {
		if policy.Next(o.Outcome, o.Message.Attempts) == MessageSent {
			sent = append(sent, []any{o.Message.ID, o.Message.LeaseToken})
		} else {
			failed = append(failed, o)
		}
	}
	record := func(tx *Store) error {
		now := tx.Now()
		if len(sent) > 0 {
			err := tx.db.WithContext(ctx).Model(&OutboxMessage{}).Where("(id, lease_token) IN ?", sent).
				Updates(map[string]any{"status": MessageSent, "sent_at": now, "last_error": "",
					"lease_until": nil, "lease_token": "", "updated_at": now}).Error
			if err != nil {
				return mapDBError(err)
			}
		}
		for _, o := range failed {
			m, out := o.Message, o.Outcome
			set := map[string]any{"last_error": clip(out.Err.Error()), "lease_until": nil, "lease_token": "", "updated_at": now}
			if next := policy.Next(out, m.Attempts); next == MessagePending {
				set["next_attempt_at"] = now.Add(policy.Delay(m.Attempts))
			} else {
				set["status"] = next
			}
			if err := tx.db.WithContext(ctx).Model(&OutboxMessage{}).
				Where("id = ? AND lease_token = ?", m.ID, m.LeaseToken).Updates(set).Error; err != nil {
				return mapDBError(err)
			}
		}
		return nil
	}
	if len(failed) == 0 {
		return record(s)
	}
	return s.inTx(ctx, record)
}
