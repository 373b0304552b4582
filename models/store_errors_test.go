package models_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models"
)

// Storage errors become the domain errors the problem mapper knows, keep the
// original in their chain, and map once however often they pass.
func TestStorageErrorsMapToDomainErrors(t *testing.T) {
	t.Parallel()
	pg := func(code string) error {
		return fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: code, Message: "pg " + code})
	}
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"no row", gorm.ErrRecordNotFound, models.ErrNotFound},
		{"unique, translated", gorm.ErrDuplicatedKey, models.ErrConflict},
		{"unique, PostgreSQL", pg("23505"), models.ErrConflict},
		{"unique, SQLite", errors.New("constraint failed: UNIQUE constraint failed: documents.object_key (2067)"), models.ErrConflict},
		{"foreign key, translated", gorm.ErrForeignKeyViolated, models.ErrConflict},
		{"foreign key, PostgreSQL", pg("23503"), models.ErrConflict},
		{"foreign key, SQLite", errors.New("constraint failed: FOREIGN KEY constraint failed (787)"), models.ErrConflict},
		{"check, translated", gorm.ErrCheckConstraintViolated, models.ErrConflict},
		{"check, PostgreSQL", pg("23514"), models.ErrConflict},
		{"serialization failure", pg("40001"), models.ErrConflict},
		{"deadlock", pg("40P01"), models.ErrConflict},
		{"SQLite busy", errors.New("database is locked (5) (SQLITE_BUSY)"), models.ErrConflict},
		{"statement timeout", pg("57014"), context.DeadlineExceeded},
		{"lock timeout", pg("55P03"), context.DeadlineExceeded},
	} {
		got := models.MapDBError(c.err)
		if !errors.Is(got, c.want) {
			t.Errorf("%s: %v is not %v", c.name, got, c.want)
		}
		if c.want != models.ErrNotFound && !errors.Is(got, c.err) {
			t.Errorf("%s: the original error left the chain: %v", c.name, got)
		}
		if again := models.MapDBError(got); again.Error() != got.Error() {
			t.Errorf("%s: mapped twice: %q, once: %q", c.name, again, got)
		}
	}
	other := errors.New("disk full")
	ve := models.Unprocessable("#", "x", "problem.room.not_checked")
	for _, err := range []error{nil, other, ve, models.ErrNotFound, context.Canceled} {
		if got := models.MapDBError(err); got != err {
			t.Errorf("%v changed into %v", err, got)
		}
	}
}
