package models

import (
	"context"

	"gorm.io/gorm"
)

// inTx runs fn with a Store whose queries all belong to one database
// transaction; fn's error rolls everything back. The audit events fn
// records (Store.audit) are appended to their chains just before the
// commit, in the same transaction. Its error, and one from beginning or
// committing the transaction, goes through mapDBError. Called inside a
// transaction, it runs fn in a savepoint of it, and the outer transaction
// writes the audit events. The room events fn queues (roomEvent) are
// written just before the commit too, and the room event hub hears of them
// after it.
func (s *Store) inTx(ctx context.Context, fn func(tx *Store) error) error {
	outer := s.pending != nil
	var pending *auditPending // the transaction's, once it is about to commit
	err := mapDBError(s.db.WithContext(ctx).Transaction(func(db *gorm.DB) error {
		c := *s
		c.db = db
		if !outer {
			c.pending = &auditPending{}
		}
		mark, roomMark := len(c.pending.events), len(c.pending.roomEvents)
		if err := fn(&c); err != nil {
			// a savepoint rolled back takes its events with it
			c.pending.events, c.pending.roomEvents = c.pending.events[:mark], c.pending.roomEvents[:roomMark]
			return err
		}
		if outer {
			return nil
		}
		pending = c.pending
		if err := c.flushRoomEvents(ctx); err != nil {
			return err
		}
		return c.flushAudit(ctx)
	}))
	if err == nil && pending != nil {
		s.roomEventsCommitted(pending.committed)
	}
	return err
}
