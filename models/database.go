package models

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Dialect names the SQL database behind a Database.
type Dialect string

const (
	// DialectSQLite is the embedded pure-Go SQLite used by default.
	DialectSQLite Dialect = "sqlite"
	// DialectPostgres is PostgreSQL, selected by a postgres:// URL.
	DialectPostgres Dialect = "postgres"
)

// Database is an open GORM connection together with its dialect.
type Database struct {
	DB      *gorm.DB
	Dialect Dialect
}

// DatabaseOptions says which database to open.
type DatabaseOptions struct {
	// URL is DATABASE_URL: empty for the embedded SQLite file, postgres:// for PostgreSQL,
	// or sqlite:///path/to/file.db for an explicit SQLite file.
	URL string
	// DataDir holds the default SQLite file.
	DataDir string
	// Logger receives slow-query and error logs; nil discards them. Their SQL
	// has placeholders, never the values (a value may be a secret).
	Logger *slog.Logger
	// SlowThreshold is how long a statement runs before it is logged as
	// slow; zero means DefaultSlowThreshold.
	SlowThreshold time.Duration
	// Tracer, on PostgreSQL, sees every statement pgx sends (tests count
	// round trips per request with it); nil on SQLite.
	Tracer pgx.QueryTracer
}

// DefaultSlowThreshold is the run time past which a statement is logged.
const DefaultSlowThreshold = 500 * time.Millisecond

// OpenDatabase opens the database named by opts and checks that it answers.
func OpenDatabase(ctx context.Context, opts DatabaseOptions) (*Database, error) {
	dialect, dsn, err := resolveDSN(opts)
	if err != nil {
		return nil, err
	}
	cfg := &gorm.Config{
		SkipDefaultTransaction: true,
		TranslateError:         true,
		Logger:                 logger.Discard,
		NowFunc:                func() time.Time { return time.Now().UTC() },
	}
	if opts.Logger != nil {
		slow := opts.SlowThreshold
		if slow <= 0 {
			slow = DefaultSlowThreshold
		}
		quotes := "'\""
		if dialect == DialectPostgres {
			quotes = "'"
		}
		cfg.Logger = sqlLogger{Interface: logger.NewSlogLogger(opts.Logger, logger.Config{
			SlowThreshold:             slow,
			IgnoreRecordNotFoundError: true,
			LogLevel:                  logger.Warn,
			// Values stay out of the log: a webhook secret or a room URL may be one.
			ParameterizedQueries: true,
		}), quotes: quotes}
	}
	var dialector gorm.Dialector
	switch dialect {
	case DialectPostgres:
		dialector = postgres.Open(dsn)
		if opts.Tracer != nil {
			pc, err := pgx.ParseConfig(dsn)
			if err != nil {
				return nil, fmt.Errorf("parse the PostgreSQL URL: %w", err)
			}
			pc.Tracer = opts.Tracer
			dialector = postgres.New(postgres.Config{Conn: stdlib.OpenDB(*pc)})
		}
	default:
		dialector = sqlite.Open(dsn)
	}
	db, err := gorm.Open(dialector, cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", dialect, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	switch dialect {
	case DialectPostgres:
		sqlDB.SetMaxOpenConns(25)
		sqlDB.SetMaxIdleConns(25)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	default:
		// SQLite serializes writers; a few connections let WAL readers proceed
		// while one writer holds the lock (busy_timeout makes the others wait).
		sqlDB.SetMaxOpenConns(4)
		sqlDB.SetMaxIdleConns(4)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("connect to %s database: %w", dialect, err)
	}
	return &Database{DB: db, Dialect: dialect}, nil
}

// Close releases the connection pool.
func (d *Database) Close() error {
	sqlDB, err := d.DB.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Ping checks that the database answers.
func (d *Database) Ping(ctx context.Context) error {
	sqlDB, err := d.DB.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

func resolveDSN(opts DatabaseOptions) (Dialect, string, error) {
	raw := strings.TrimSpace(opts.URL)
	switch {
	case raw == "":
		dir := opts.DataDir
		if dir == "" {
			dir = "data"
		}
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return "", "", fmt.Errorf("create data dir: %w", err)
		}
		return DialectSQLite, sqliteDSN(filepath.Join(dir, "markuproom.db")), nil
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		return DialectPostgres, raw, nil
	case strings.HasPrefix(raw, "sqlite://"):
		path := strings.TrimPrefix(raw, "sqlite://")
		if path == "" {
			return "", "", fmt.Errorf("DATABASE_URL %q names no SQLite file", raw)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			return "", "", fmt.Errorf("create database dir: %w", err)
		}
		return DialectSQLite, sqliteDSN(path), nil
	default:
		return "", "", fmt.Errorf("DATABASE_URL must start with postgres://, postgresql:// or sqlite:// (got %q)", redactURL(raw))
	}
}

// sqliteDSN enables WAL, a busy timeout, foreign keys, and IMMEDIATE
// transactions (a transaction takes the write lock when it begins, so two
// read-then-write transactions cannot deadlock on lock upgrade).
func sqliteDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	// No _time_format: glebarez/go-sqlite v1.21.2 stops reading parameters
	// after it, which would silently drop _txlock. Its default format
	// (RFC 3339-like, UTC as we store it) sorts correctly as text.
	return "file:" + path + "?" + q.Encode()
}

// redactURL hides a password in a connection URL before it is printed.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(not a URL)" // it may still hold a password
	}
	if u.User == nil {
		return raw
	}
	return u.Redacted()
}
