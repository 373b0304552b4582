package models

import (
	"context"
	"strconv"
	"strings"
)

// maxBindParams is PostgreSQL's limit on the parameters of one statement.
const maxBindParams = 65535

// writeBatch collects the writes of one operation (INSERTs and UPDATEs, in
// order, written with ? placeholders) so that PostgreSQL receives them as one
// statement: every write after the first becomes a data-modifying CTE of it,
// one round trip instead of one per write. Such a statement is atomic by
// itself, and the foreign keys between its parts are checked when it ends, so
// parents and children can sit in one batch. Writes that read rows another
// part changes must not share a batch (all parts see one snapshot).
type writeBatch struct {
	stmts []batchStmt
	args  int
}

// batchStmt is one write of a batch. Its SQL and arguments are built only
// when it is sent, so a batch too large for one statement, sent one write at
// a time, holds one write's arguments at once, not all of them.
type batchStmt struct {
	params int                    // how many arguments it has
	build  func() (string, []any) // its SQL, with ? placeholders, and its arguments
}

// add appends one write; sql uses ? for each of args.
func (b *writeBatch) add(sql string, args ...any) {
	b.stmts = append(b.stmts, batchStmt{params: len(args), build: func() (string, []any) { return sql, args }})
	b.args += len(args)
}

// addRows appends multi-row INSERTs of rows into table, at most per rows each
// (values returns one row's values in the order of cols).
func addRows[T any](b *writeBatch, per int, table string, cols []string, rows []T, values func(*T) []any) {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	for start := 0; start < len(rows); start += per {
		chunk := rows[start:min(start+per, len(rows))]
		params := len(chunk) * len(cols)
		b.stmts = append(b.stmts, batchStmt{params: params, build: func() (string, []any) {
			var sql strings.Builder
			sql.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
			args := make([]any, 0, params)
			for i := range chunk {
				if i > 0 {
					sql.WriteString(", ")
				}
				sql.WriteString(row)
				args = append(args, values(&chunk[i])...)
			}
			return sql.String(), args
		}})
		b.args += params
	}
}

// combined is the batch as one PostgreSQL statement, or false when it holds
// more parameters than one statement may.
func (b *writeBatch) combined() (string, []any, bool) {
	if b.args > maxBindParams || len(b.stmts) == 0 {
		return "", nil, false
	}
	var sql strings.Builder
	args := make([]any, 0, b.args)
	last := len(b.stmts) - 1
	for i, st := range b.stmts {
		stSQL, stArgs := st.build()
		switch {
		case i == last && i == 0:
		case i == 0:
			sql.WriteString("WITH ")
		default:
			if i < last {
				sql.WriteString(", ")
			} else {
				sql.WriteString(" ")
			}
		}
		if i < last {
			sql.WriteString("w" + strconv.Itoa(i) + " AS (")
		}
		sql.WriteString(numberPlaceholders(stSQL, len(args)))
		if i < last {
			sql.WriteString(")")
		}
		args = append(args, stArgs...)
	}
	return sql.String(), args, true
}

// numberPlaceholders turns each ? of sql into PostgreSQL's $n, counting on
// from after (the parameters of the batch's earlier parts).
func numberPlaceholders(sql string, after int) string {
	var out strings.Builder
	out.Grow(len(sql) + 4*strings.Count(sql, "?"))
	n := after
	for i := 0; i < len(sql); i++ {
		if sql[i] == '?' {
			n++
			out.WriteString("$" + strconv.Itoa(n))
			continue
		}
		out.WriteByte(sql[i])
	}
	return out.String()
}

// execBatch runs b on s's connection (or database transaction): on
// PostgreSQL as one statement when it fits, else (and on SQLite, where a
// statement is no round trip) one statement per write. A caller outside a
// database transaction uses writeBatchAtomically instead.
func (s *Store) execBatch(ctx context.Context, b *writeBatch) error {
	pool := s.db.Statement.ConnPool
	if s.dialect == DialectPostgres {
		if sql, args, ok := b.combined(); ok {
			_, err := pool.ExecContext(ctx, sql, args...)
			return mapDBError(err)
		}
	}
	for _, st := range b.stmts {
		sql, args := st.build()
		if s.dialect == DialectPostgres {
			sql = numberPlaceholders(sql, 0)
		}
		if _, err := pool.ExecContext(ctx, sql, args...); err != nil {
			return mapDBError(err)
		}
	}
	return nil
}

// writeBatchAtomically runs b as one unit outside any database transaction:
// on PostgreSQL one statement (no BEGIN, no COMMIT) when it fits, else one
// database transaction.
func (s *Store) writeBatchAtomically(ctx context.Context, b *writeBatch) error {
	if s.dialect == DialectPostgres {
		if sql, args, ok := b.combined(); ok {
			_, err := s.db.WithContext(ctx).Statement.ConnPool.ExecContext(ctx, sql, args...)
			return mapDBError(err)
		}
	}
	return s.inTx(ctx, func(tx *Store) error { return tx.execBatch(ctx, b) })
}
