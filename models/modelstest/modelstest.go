// Package modelstest gives tests real databases: an embedded SQLite file
// always, and PostgreSQL too when TEST_DATABASE_URL is set. Every test gets a
// fresh, migrated database (a temp file, or a PostgreSQL schema of its own
// that is dropped afterwards), so tests may run in parallel.
package modelstest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/markuproom/markuproom/models"
)

// PostgresURLEnv names the variable that turns PostgreSQL tests on.
const PostgresURLEnv = "TEST_DATABASE_URL"

// Dialects lists the databases tests run on here.
func Dialects() []models.Dialect {
	if os.Getenv(PostgresURLEnv) != "" {
		return []models.Dialect{models.DialectSQLite, models.DialectPostgres}
	}
	return []models.Dialect{models.DialectSQLite}
}

// PDFWork is the PDF workers every test store of this test binary shares
// (New and AnotherInstance use it): the test binary itself, started as a
// worker (its TestMain calls pdfjob.ServeIfWorker), four at a time, so that
// tests do not each pay for starting their own. It is made on first use and
// its workers end with the test binary.
var PDFWork = sync.OnceValue(func() *models.PDFWork {
	return models.NewPDFWork(models.PDFWorkOptions{Concurrency: 4, Wait: time.Minute})
})

// Clock is a settable clock for tests.
type Clock struct{ t time.Time }

// NewClock starts a clock at a fixed instant.
func NewClock() *Clock {
	return &Clock{t: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time { return c.t }

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// Sleeps stands in for the store's sleep (slowed-down admin sign-ins): it
// records each wait instead of waiting.
type Sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Sleep records d and returns at once (or ctx's error if it has ended).
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

// Waits returns the waits recorded so far, oldest first.
func (s *Sleeps) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// Env is one test's database, bucket, store and clock.
type Env struct {
	DB     *models.Database
	Bucket *blob.Bucket
	Store  *models.Store
	Clock  *Clock
	// Sleeps has the sign-in delays the store would have waited.
	Sleeps *Sleeps
	url    string // the database, for AnotherInstance
}

// Each runs fn as a subtest on every dialect of Dialects.
func Each(t *testing.T, fn func(t *testing.T, env *Env)) {
	t.Helper()
	for _, d := range Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fn(t, New(t, d))
		})
	}
}

// New opens a fresh migrated database of dialect with a memory bucket.
func New(t testing.TB, dialect models.Dialect) *Env {
	t.Helper()
	dbURL := freshURL(t, dialect)
	db := openURL(t, dbURL)
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	bucket := memblob.OpenBucket(nil)
	t.Cleanup(func() { _ = bucket.Close() })
	clock := NewClock()
	sleeps := &Sleeps{}
	store := models.NewStore(db, bucket, models.StoreOptions{Now: clock.Now, TempDir: t.TempDir(), Sleep: sleeps.Sleep, PDF: PDFWork()})
	return &Env{DB: db, Bucket: bucket, Store: store, Clock: clock, Sleeps: sleeps, url: dbURL}
}

// OpenDatabase opens an empty, unmigrated database of dialect.
func OpenDatabase(t testing.TB, dialect models.Dialect) *models.Database {
	t.Helper()
	return openURL(t, freshURL(t, dialect))
}

// freshURL is a new, empty database of dialect: a temp SQLite file or a PostgreSQL schema.
func freshURL(t testing.TB, dialect models.Dialect) string {
	if dialect == models.DialectPostgres {
		return PostgresSchemaURL(t)
	}
	return "sqlite://" + filepath.Join(t.TempDir(), "test.db")
}

func openURL(t testing.TB, dbURL string) *models.Database {
	t.Helper()
	db, err := models.OpenDatabase(context.Background(), models.DatabaseOptions{URL: dbURL})
	if err != nil {
		t.Fatalf("open %s: %v", dbURL, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// AnotherInstance is a second Store on the same database and bucket with a
// connection pool of its own, as a second server instance would have.
func (e *Env) AnotherInstance(t testing.TB) *models.Store {
	t.Helper()
	return models.NewStore(openURL(t, e.url), e.Bucket, models.StoreOptions{Now: e.Clock.Now, TempDir: t.TempDir(), Sleep: e.Sleeps.Sleep, PDF: PDFWork()})
}

// PostgresSchemaURL creates a schema of the test's own and returns a URL whose
// search_path selects it; the schema is dropped when the test ends.
func PostgresSchemaURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(PostgresURLEnv)
	if base == "" {
		t.Fatalf("%s is not set", PostgresURLEnv)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	admin, err := gorm.Open(postgres.Open(base), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatalf("connect to %s: %v", PostgresURLEnv, err)
	}
	if err := admin.Exec("CREATE SCHEMA " + schema).Error; err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_ = admin.Exec("DROP SCHEMA " + schema + " CASCADE").Error
		if sqlDB, err := admin.DB(); err == nil {
			_ = sqlDB.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", PostgresURLEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
