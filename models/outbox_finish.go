package models

import (
	"context"

	"gorm.io/gorm/clause"
)

// MessageOutcome is a claimed message and how its send ended.
type MessageOutcome struct {
	Message *OutboxMessage
	Outcome Outcome
}

// FinishMessages records the outcomes of claimed messages, each only if its
// claim is still the caller's (a worker whose lease ran out changes
// nothing). Every delivered message is marked sent by one statement; a
// failure needs a statement of its own (its error and next attempt differ).
// What was recorded is counted for the overview (delivered, retrying, dead
// per organization, metric_rollups) in the same database transaction.
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
	return s.inTx(ctx, func(tx *Store) error {
		now := tx.Now()
		counts := map[RollupKey]int64{}
		count := func(metric string, orgID int64) {
			counts[RollupKey{Metric: metric, Hour: hourOf(now), OrganizationID: orgID, Bucket: noBucket}]++
		}
		if len(sent) > 0 {
			var done []OutboxMessage
			err := tx.db.WithContext(ctx).Model(&done).Clauses(clause.Returning{Columns: []clause.Column{{Name: "organization_id"}}}).
				Where("(id, lease_token) IN ?", sent).
				Updates(map[string]any{"status": MessageSent, "sent_at": now, "last_error": "",
					"lease_until": nil, "lease_token": "", "updated_at": now}).Error
			if err != nil {
				return mapDBError(err)
			}
			for _, m := range done {
				count(MetricOutboxDelivered, m.OrganizationID)
			}
		}
		for _, o := range failed {
			m, out := o.Message, o.Outcome
			set := map[string]any{"last_error": clip(out.Err.Error()), "lease_until": nil, "lease_token": "", "updated_at": now}
			metric := "" // a held e-mail is neither retrying nor dead
			switch next := policy.Next(out, m.Attempts); next {
			case MessagePending:
				set["next_attempt_at"] = now.Add(policy.Delay(m.Attempts))
				metric = MetricOutboxRetrying
			case MessageDead:
				set["status"] = next
				metric = MetricOutboxDead
			default:
				set["status"] = next
			}
			res := tx.db.WithContext(ctx).Model(&OutboxMessage{}).Where("id = ? AND lease_token = ?", m.ID, m.LeaseToken).Updates(set)
			if res.Error != nil {
				return mapDBError(res.Error)
			}
			if res.RowsAffected == 1 && metric != "" {
				count(metric, m.OrganizationID)
			}
		}
		return tx.addRollupDeltas(ctx, counts)
	})
}
