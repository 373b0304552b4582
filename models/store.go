package models

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gocloud.dev/blob"
	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models/keyring"
	"github.com/markuproom/markuproom/models/passwordhash"
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
	// IdempotencyTTL is how long an Idempotency-Key is kept; zero means
	// DefaultIdempotencyTTL (24 hours; docs/decisions.md, "Idempotency-Key").
	IdempotencyTTL time.Duration
	// Logger receives background warnings; nil discards them.
	Logger *slog.Logger
	// PDF bounds the PDF work (decode caps, concurrent reads); nil means a
	// PDFWork of this Store alone with the defaults.
	PDF *PDFWork
	// Keyring seals webhook secrets and stored replays; a zero Keyring
	// means a random key for this process only (tests).
	Keyring keyring.Keyring
	// Sleep waits before a slowed-down admin sign-in (see LoginDelay); nil
	// really waits. Tests inject one that records the delay instead.
	Sleep func(ctx context.Context, d time.Duration) error
	// VerifyPassword checks a password against a hash at admin sign-in; nil
	// is passwordhash.Verify. Tests wrap it to see that it runs.
	VerifyPassword func(hash, password string) bool
	// MaxTemplates is how many templates (not archived) an organization may
	// keep; zero means DefaultMaxTemplates.
	MaxTemplates int
	// RoomStreamsPerRoom and StreamsPerInstance bound the room event
	// streams of one room and of this process; zero means
	// DefaultRoomStreamsPerRoom and DefaultStreamsPerInstance.
	RoomStreamsPerRoom, StreamsPerInstance int
}

// Store is the domain service: it owns the database and the document bucket.
type Store struct {
	db      *gorm.DB
	dialect Dialect
	// pending collects the audit events of the database transaction this
	// Store belongs to (nil outside one): see inTx and audit.
	pending *auditPending
	bucket  *blob.Bucket
	now     func() time.Time
	tempDir string
	evault  string
	roomTTL time.Duration
	// idempotencyTTL is how long an Idempotency-Key is kept.
	idempotencyTTL time.Duration
	log            *slog.Logger
	// refusals remembers recent rate-limit refusals of this process.
	refusals *rateRefusals
	// localRates stand in for the rate_limits table while it cannot answer.
	localRates *localRateBuckets
	// tokens remembers accepted API tokens for a second (token_cache.go).
	tokens *tokenCache
	pdf    *PDFWork
	keys   keyring.Keyring
	// maxTemplates: see StoreOptions.
	maxTemplates int
	// hub fans rooms' committed events out to this process's streams.
	hub *roomEventHub
	// sleep and verifyPassword: see StoreOptions.
	sleep          func(ctx context.Context, d time.Duration) error
	verifyPassword func(hash, password string) bool
	// pdfStepHook, when set (tests only, SetPDFStepHook), runs inside a page
	// edit's PDF work, after the rewrite and before the new version is read.
	pdfStepHook func(ctx context.Context)
	// templateIndexes keeps each organization's template index in memory
	// (models/template_index.go); shared by the Store's copies.
	templateIndexes *templateIndexes
	// words keeps documents' printed words for the pre-send check
	// (review_store.go); shared by the Store's copies.
	words *wordCache
	// sealer is the audit sealer's state (models/audit_seal.go); shared by
	// the Store's copies.
	sealer *auditSealer
}

// NewStore builds a Store on an open database and bucket.
func NewStore(d *Database, bucket *blob.Bucket, opts StoreOptions) *Store {
	s := &Store{
		db:             d.DB,
		dialect:        d.Dialect,
		bucket:         bucket,
		now:            opts.Now,
		tempDir:        opts.TempDir,
		evault:         opts.EVault,
		roomTTL:        opts.RoomTTL,
		idempotencyTTL: opts.IdempotencyTTL,
		log:            opts.Logger,

		refusals:   newRateRefusals(),
		localRates: newLocalRateBuckets(),
		tokens:     newTokenCache(),
		pdf:        opts.PDF,
		keys:       opts.Keyring,

		sleep:          opts.Sleep,
		verifyPassword: opts.VerifyPassword,
		maxTemplates:   opts.MaxTemplates,

		templateIndexes: newTemplateIndexes(maxIndexedOrganizations),
		words:           newWordCache(maxCachedWordDocuments),
		sealer:          &auditSealer{},
	}
	if s.sleep == nil {
		s.sleep = sleepContext
	}
	if s.verifyPassword == nil {
		s.verifyPassword = passwordhash.Verify
	}
	if s.pdf == nil {
		s.pdf = NewPDFWork(PDFWorkOptions{})
	}
	if s.keys.IsZero() {
		s.keys = keyring.Ephemeral()
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.hub = newRoomEventHub(s.RoomEventsAfter, opts.RoomStreamsPerRoom, opts.StreamsPerInstance)
	if s.maxTemplates <= 0 {
		s.maxTemplates = DefaultMaxTemplates
	}
	if s.tempDir == "" {
		s.tempDir = os.TempDir()
	}
	if s.evault == "" {
		s.evault = "default"
	}
	if s.idempotencyTTL <= 0 {
		s.idempotencyTTL = DefaultIdempotencyTTL
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

// mapDBError turns a storage error into the package's domain errors, which
// the problem mapper knows; every error a Store method gets from GORM or SQL
// goes through it (docs/decisions.md). A row that is not there is
// ErrNotFound; a write that collides with a constraint (unique, foreign
// key, check) or with a concurrent transaction (serialization failure,
// deadlock, a busy SQLite database) is ErrConflict; a statement or lock
// timeout is context.DeadlineExceeded. The original error stays in the chain
// (errors.Join) for the log. Errors already mapped, or not from storage,
// pass through unchanged, so mapping twice is harmless.
func mapDBError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrConflict), errors.Is(err, ErrUnavailable), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ErrNotFound
	case errors.Is(err, gorm.ErrDuplicatedKey), errors.Is(err, gorm.ErrForeignKeyViolated),
		errors.Is(err, gorm.ErrCheckConstraintViolated), isConstraintViolation(err), isConcurrencyFailure(err):
		return errors.Join(ErrConflict, err)
	case isStorageTimeout(err):
		return errors.Join(context.DeadlineExceeded, err)
	case isUnreachable(err):
		return errors.Join(ErrUnavailable, err)
	default:
		return err
	}
}

// PostgreSQL error codes (SQLSTATE) mapDBError knows.
const (
	pgUniqueViolation      = "23505"
	pgForeignKeyViolation  = "23503"
	pgCheckViolation       = "23514"
	pgSerializationFailure = "40001"
	pgDeadlockDetected     = "40P01"
	pgLockNotAvailable     = "55P03"
	pgQueryCanceled        = "57014" // statement_timeout among others
)

// pgCode is the SQLSTATE of a PostgreSQL error in err's chain, or "".
func pgCode(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code
	}
	return ""
}

// isConstraintViolation recognizes constraint errors GORM did not translate
// (statements run on the connection pool directly, such as insertRows).
func isConstraintViolation(err error) bool {
	if isUniqueViolation(err) {
		return true
	}
	switch pgCode(err) {
	case pgForeignKeyViolation, pgCheckViolation:
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "FOREIGN KEY constraint failed") || strings.Contains(msg, "CHECK constraint failed")
}

// isUniqueViolation recognizes a unique index's refusal.
func isUniqueViolation(err error) bool {
	msg := err.Error()
	return errors.Is(err, gorm.ErrDuplicatedKey) || pgCode(err) == pgUniqueViolation ||
		strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}

// isConcurrencyFailure recognizes a transaction that lost to a concurrent
// one: worth retrying as a whole.
func isConcurrencyFailure(err error) bool {
	switch pgCode(err) {
	case pgSerializationFailure, pgDeadlockDetected:
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}

// isUnreachable recognizes a database that cannot be reached: a failed
// connect, a connection lost mid-statement (a network error, an EOF, a pool
// connection gone bad) or a server shutting down or starting up (SQLSTATE
// class 08 and 57P01–57P03).
func isUnreachable(err error) bool {
	code := pgCode(err)
	if strings.HasPrefix(code, "08") || code == "57P01" || code == "57P02" || code == "57P03" {
		return true
	}
	var connect *pgconn.ConnectError
	var netErr *net.OpError
	return errors.As(err, &connect) || errors.As(err, &netErr) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, sql.ErrConnDone) ||
		strings.Contains(err.Error(), "conn closed")
}

// isStorageTimeout recognizes a statement or a lock wait the database gave up on.
func isStorageTimeout(err error) bool {
	switch pgCode(err) {
	case pgLockNotAvailable, pgQueryCanceled:
		return true
	}
	return false
}
