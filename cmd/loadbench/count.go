package main

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// stmtCounter counts the SQL statements a server sends, BEGIN, COMMIT and
// ROLLBACK excluded (GORM's callbacks do not see those, so both sides are
// counted the same way).
type stmtCounter struct{ n atomic.Int64 }

func (c *stmtCounter) load() int64 { return c.n.Load() }

// attachGORM counts every statement GORM runs on db.
func (c *stmtCounter) attachGORM(db *gorm.DB) error {
	count := func(*gorm.DB) { c.n.Add(1) }
	cb := db.Callback()
	for name, err := range map[string]error{
		"create": cb.Create().After("gorm:create").Register("loadbench:count", count),
		"query":  cb.Query().After("gorm:query").Register("loadbench:count", count),
		"update": cb.Update().After("gorm:update").Register("loadbench:count", count),
		"delete": cb.Delete().After("gorm:delete").Register("loadbench:count", count),
		"row":    cb.Row().After("gorm:row").Register("loadbench:count", count),
		"raw":    cb.Raw().After("gorm:raw").Register("loadbench:count", count),
	} {
		if err != nil {
			return fmt.Errorf("count %s statements: %w", name, err)
		}
	}
	return nil
}

// TraceQueryStart implements pgx.QueryTracer.
func (c *stmtCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	switch strings.ToLower(strings.TrimSpace(data.SQL)) {
	case "begin", "commit", "rollback":
	default:
		c.n.Add(1)
	}
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (c *stmtCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
