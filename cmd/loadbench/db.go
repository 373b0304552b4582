package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// defaultBenchURL is the database used when neither BENCH_DATABASE_URL nor
// TEST_DATABASE_URL is set; it is created when missing.
const defaultBenchURL = "postgres://postgres@127.0.0.1:5432/markuproom_bench?sslmode=disable"

// benchDatabaseURL picks the database: BENCH_DATABASE_URL, else
// TEST_DATABASE_URL, else defaultBenchURL. It returns the URL and where it came from.
func benchDatabaseURL() (string, string) {
	for _, name := range []string{"BENCH_DATABASE_URL", "TEST_DATABASE_URL"} {
		if v := strings.TrimSpace(os.Getenv(name)); v != "" {
			return v, name
		}
	}
	return defaultBenchURL, "default"
}

// ensureDatabase connects to the database of dbURL and, when it does not
// exist (SQLSTATE 3D000), creates it through the "postgres" database of the
// same server. It reports whether it created the database.
func ensureDatabase(ctx context.Context, dbURL string) (bool, error) {
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return false, fmt.Errorf("parse database URL: %w", err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err == nil {
		return false, conn.Close(ctx)
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "3D000" {
		return false, fmt.Errorf("connect to %s: %w", redact(dbURL), err)
	}
	name := cfg.Database
	admin := cfg.Copy()
	admin.Database = "postgres"
	aconn, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return false, fmt.Errorf("connect to the postgres database to create %q: %w", name, err)
	}
	defer aconn.Close(ctx)
	if _, err := aconn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // created meanwhile
			return false, nil
		}
		return false, fmt.Errorf("create database %q: %w", name, err)
	}
	return true, nil
}

// schemas creates and later drops the schemas of one run (only those).
type schemas struct {
	dbURL   string
	conn    *pgx.Conn
	created []string
}

func openSchemas(ctx context.Context, dbURL string) (*schemas, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", redact(dbURL), err)
	}
	return &schemas{dbURL: dbURL, conn: conn}, nil
}

// create makes a new schema named prefix_<random> and returns its name and
// a database URL whose search_path selects it.
func (s *schemas) create(ctx context.Context, prefix string) (string, string, error) {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	name := prefix + "_" + hex.EncodeToString(b)
	if _, err := s.conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", "", fmt.Errorf("create schema %s: %w", name, err)
	}
	s.created = append(s.created, name)
	u, err := url.Parse(s.dbURL)
	if err != nil {
		return "", "", err
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return name, u.String(), nil
}

// exec runs one statement on the administrative connection.
func (s *schemas) exec(ctx context.Context, sql string, args ...any) error {
	_, err := s.conn.Exec(ctx, sql, args...)
	return err
}

// dropAll drops the schemas this run created, and closes the connection.
func (s *schemas) dropAll() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var errs []error
	for _, name := range s.created {
		if _, err := s.conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE"); err != nil {
			errs = append(errs, fmt.Errorf("drop schema %s: %w", name, err))
		}
	}
	s.created = nil
	errs = append(errs, s.conn.Close(ctx))
	return errors.Join(errs...)
}

// redact hides a password in a connection URL.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	return u.Redacted()
}
