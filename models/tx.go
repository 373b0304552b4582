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
// writes the audit events.
func (s *Store) inTx(ctx context.Context, fn func(tx *Store) error) error {
	outer := s.pending != nil
	return mapDBError(s.db.WithContext(ctx).Transaction(func(db *gorm.DB) error {
		c := *s
		c.db = db
		if !outer {
			c.pending = &auditPending{}
		}
		mark := len(c.pending.events)
		if err := fn(&c); err != nil {
			c.pending.events = c.pending.events[:mark] // a savepoint rolled back takes its events with it
			return err
		}
		if outer {
			return nil
		}
		return c.flushAudit(ctx)
	}))
}
