package models

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/postgres/*.sql migrations/sqlite/*.sql
var migrationFiles embed.FS

// ErrSchemaBehind reports a database whose schema is older than this binary.
var ErrSchemaBehind = errors.New("the database schema is behind this binary; run `markuproom migrate`")

func (d *Database) migrationProvider() (*goose.Provider, error) {
	sqlDB, err := d.DB.DB()
	if err != nil {
		return nil, err
	}
	var (
		dir     string
		dialect goose.Dialect
		opts    = []goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}
	)
	switch d.Dialect {
	case DialectPostgres:
		dir, dialect = "migrations/postgres", goose.DialectPostgres
		// Instances starting together take turns instead of racing. The
		// advisory lock is per schema, so separate schemas (tests) never wait
		// for each other.
		var schema string
		if err := d.DB.Raw("SELECT current_schema()").Scan(&schema).Error; err != nil {
			return nil, fmt.Errorf("read current schema: %w", err)
		}
		h := fnv.New64a()
		h.Write([]byte("markuproom-migrations:" + schema))
		locker, err := lock.NewPostgresSessionLocker(
			lock.WithLockID(int64(h.Sum64()>>1)),
			lock.WithLockTimeout(1, 600),
			lock.WithUnlockTimeout(1, 60),
		)
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	default:
		dir, dialect = "migrations/sqlite", goose.DialectSQLite3
	}
	sub, err := fs.Sub(migrationFiles, dir)
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(dialect, sqlDB, sub, opts...)
}

// Migrate applies every pending migration and returns the versions applied.
func (d *Database) Migrate(ctx context.Context) ([]int64, error) {
	p, err := d.migrationProvider()
	if err != nil {
		return nil, fmt.Errorf("prepare migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return nil, fmt.Errorf("apply migrations: %w", err)
	}
	applied := make([]int64, 0, len(results))
	for _, r := range results {
		applied = append(applied, r.Source.Version)
	}
	return applied, nil
}

// CheckSchema returns ErrSchemaBehind when migrations are pending.
func (d *Database) CheckSchema(ctx context.Context) error {
	p, err := d.migrationProvider()
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if pending {
		return ErrSchemaBehind
	}
	return nil
}
