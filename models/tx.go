package models

import (
	"context"

	"gorm.io/gorm"
)

// inTx runs fn with a Store whose queries all belong to one database
// transaction; fn's error rolls everything back. Its error, and one from
// beginning or committing the transaction, goes through mapDBError.
func (s *Store) inTx(ctx context.Context, fn func(tx *Store) error) error {
	return mapDBError(s.db.WithContext(ctx).Transaction(func(db *gorm.DB) error {
		c := *s
		c.db = db
		return fn(&c)
	}))
}
