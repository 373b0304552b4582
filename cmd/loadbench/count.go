package main

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// roundTrips counts what a server sends to PostgreSQL through pgx: every
// statement, BEGIN and COMMIT included, is one round trip. The product's
// database and the baselines' pool each get one (models.DatabaseOptions.Tracer,
// pgxpool's ConnConfig.Tracer), so both sides are counted the same way.
type roundTrips struct{ n atomic.Int64 }

func (c *roundTrips) load() int64 { return c.n.Load() }

// TraceQueryStart implements pgx.QueryTracer.
func (c *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (c *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
