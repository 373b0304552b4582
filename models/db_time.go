package models

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// dbTime reads a time a query computed (a subquery's value): PostgreSQL
// answers a time, SQLite the stored text, since an expression has no
// declared column type for its driver to convert by. NULL is the zero time.
type dbTime struct{ time.Time }

// Scan implements sql.Scanner.
func (t *dbTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		t.Time = time.Time{}
		return nil
	case time.Time:
		t.Time = v
		return nil
	case []byte:
		return t.parse(string(v))
	case string:
		return t.parse(v)
	}
	return fmt.Errorf("models: cannot read %T as a time", src)
}

// Value implements driver.Valuer (gorm reads a column's type through it).
func (t dbTime) Value() (driver.Value, error) {
	if t.IsZero() {
		return nil, nil
	}
	return t.Time, nil
}

// parse reads a time stored as text.
func (t *dbTime) parse(s string) error {
	// The text forms SQLite's driver stores times in.
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano, "2006-01-02 15:04:05.999999999"} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v
			return nil
		}
	}
	return fmt.Errorf("models: cannot read %q as a time", s)
}
