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
	// PDF bounds the PDF work (decode caps, concurrent reads); nil means a
	// PDFWork of this Store alone with the defaults.
	PDF *PDFWork
	// Keyring seals webhook secrets and stored replays; a zero Keyring
	// means a random key for this process only (tests).
	Keyring Keyring
	// Sleep waits before a slowed-down admin sign-in (see LoginDelay); nil
	// really waits. Tests inject one that records the delay instead.
	Sleep func(ctx context.Context, d time.Duration) error
	// VerifyPassword checks a password against a hash at admin sign-in; nil
	// is the package's VerifyPassword. Tests wrap it to see that it runs.
	VerifyPassword func(hash, password string) bool
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
	// refusals remembers recent rate-limit refusals of this process.
	refusals *rateRefusals
	pdf      *PDFWork
	keys     Keyring
	// sleep and verifyPassword: see StoreOptions.
	sleep          func(ctx context.Context, d time.Duration) error
	verifyPassword func(hash, password string) bool
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

		refusals: newRateRefusals(),
		pdf:      opts.PDF,
		keys:     opts.Keyring,

		sleep:          opts.Sleep,
		verifyPassword: opts.VerifyPassword,
	}
	if s.sleep == nil {
		s.sleep = sleepContext
	}
	if s.verifyPassword == nil {
		s.verifyPassword = VerifyPassword
	}
	if s.pdf == nil {
		s.pdf = NewPDFWork(PDFWorkOptions{})
	}
	if s.keys.IsZero() {
		s.keys = ephemeralKeyring()
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
