package models

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gorm.io/gorm"
)

// StoreOptions configures a Store.
type StoreOptions struct {
	// Now is the clock; nil means time.Now. Tests inject a fixed clock.
	Now func() time.Time
	// TempDir receives uploads while they are checked; empty means os.TempDir().
	TempDir string
	// EVault is the one eVault provider name reported on transactions.
	EVault string
	// RoomTTL is how long a Markup Room URL stays valid.
	RoomTTL time.Duration
	// Logger receives background warnings; nil discards them.
	Logger *slog.Logger
}

// Store is the domain service: it owns the database and the document bucket.
type Store struct {
	db      *gorm.DB
	dialect Dialect
	bucket  *blob.Bucket
	now     func() time.Time
	tempDir string
	evault  string
	roomTTL time.Duration
	log     *slog.Logger
}

// NewStore builds a Store on an open database and bucket.
func NewStore(d *Database, bucket *blob.Bucket, opts StoreOptions) *Store {
	s := &Store{
		db:      d.DB,
		dialect: d.Dialect,
		bucket:  bucket,
		now:     opts.Now,
		tempDir: opts.TempDir,
		evault:  opts.EVault,
		roomTTL: opts.RoomTTL,
		log:     opts.Logger,
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.tempDir == "" {
		s.tempDir = os.TempDir()
	}
	if s.evault == "" {
		s.evault = "default"
	}
	if s.roomTTL <= 0 {
		s.roomTTL = 24 * time.Hour
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Now returns the store's current time in UTC, truncated to microseconds
// (the precision both databases keep), so values read back compare equal.
func (s *Store) Now() time.Time {
	return s.now().UTC().Truncate(time.Microsecond)
}

// Ready checks that the database and the bucket answer.
func (s *Store) Ready(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		return errors.New("database unreachable: " + err.Error())
	}
	if _, err := s.bucket.IsAccessible(ctx); err != nil {
		return errors.New("storage unreachable: " + err.Error())
	}
	return nil
}

// mapDBError turns GORM errors into the package's sentinel errors.
func mapDBError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ErrNotFound
	case errors.Is(err, gorm.ErrDuplicatedKey), isUniqueViolation(err):
		return errors.Join(ErrConflict, err)
	default:
		return err
	}
}

func isUniqueViolation(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}
