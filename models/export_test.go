package models

import (
	"errors"

	"gorm.io/gorm"
)

// MaskSQLLiterals exposes maskSQLLiterals to the external tests.
var MaskSQLLiterals = maskSQLLiterals

// FailActivityWrites makes every insert into the activity log of s fail
// until the returned function is called (a failed audit row, for tests).
func FailActivityWrites(s *Store) (restore func()) {
	name := "test:fail_activity_writes"
	_ = s.db.Callback().Create().Before("gorm:create").Register(name, func(db *gorm.DB) {
		if db.Statement.Table == "admin_activity" {
			_ = db.AddError(errors.New("the activity log refused the row"))
		}
	})
	return func() { _ = s.db.Callback().Create().Remove(name) }
}

// MapDBError exposes mapDBError to the external tests.
var MapDBError = mapDBError
