package models

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm/logger"
)

// sqlLogger keeps statement values out of the SQL log. GORM's own
// ParameterizedQueries covers most statements, but a Scan records its SQL
// with the values already written in; so every logged statement also has
// its quoted literals replaced by "?" (quotes names the characters that
// quote string literals in the dialect's rendering: ' for PostgreSQL,
// ' and " for SQLite, whose identifiers GORM quotes with backticks).
type sqlLogger struct {
	logger.Interface
	quotes string
}

// LogMode implements logger.Interface.
func (l sqlLogger) LogMode(level logger.LogLevel) logger.Interface {
	return sqlLogger{Interface: l.Interface.LogMode(level), quotes: l.quotes}
}

// ParamsFilter implements gorm.ParamsFilter: the values never reach the log.
func (l sqlLogger) ParamsFilter(_ context.Context, sql string, _ ...any) (string, []any) {
	return sql, nil
}

// Trace implements logger.Interface.
func (l sqlLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	l.Interface.Trace(ctx, begin, func() (string, int64) {
		sql, rows := fc()
		return maskSQLLiterals(sql, l.quotes), rows
	}, err)
}

// maskSQLLiterals replaces every literal quoted with one of quotes (a
// doubled quote inside is part of it) by ?.
func maskSQLLiterals(sql, quotes string) string {
	if !strings.ContainsAny(sql, quotes) {
		return sql
	}
	var b strings.Builder
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		if strings.IndexByte(quotes, c) < 0 {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for ; j < len(sql); j++ {
			if sql[j] == c {
				if j+1 < len(sql) && sql[j+1] == c {
					j++
					continue
				}
				break
			}
		}
		b.WriteByte('?')
		i = j
	}
	return b.String()
}
