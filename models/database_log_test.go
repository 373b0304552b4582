package models_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// Slow and failed statements are logged with placeholders, never their values.
func TestSQLLogHasPlaceholdersNotValues(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		var logs modelstest.LogBuffer
		db, err := models.OpenDatabase(context.Background(), models.DatabaseOptions{
			URL:           env.URL(),
			Logger:        slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
			SlowThreshold: time.Nanosecond, // every statement is "slow"
		})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		const secret = "whsec_c2VjcmV0IHRoYXQgbXVzdCBub3QgYmUgbG9nZ2Vk"
		const link = "http://markuproom.test/markup-room/mrr_abc_def"

		var got string
		if err := db.DB.Raw("SELECT ? || ?", secret, link).Scan(&got).Error; err != nil || got != secret+link {
			t.Fatalf("slow statement: %q %v", got, err)
		}
		if err := db.DB.Exec("UPDATE webhook_endpoints SET no_such_column = ? WHERE url = ?", secret, link).Error; err == nil {
			t.Fatal("the failing statement did not fail")
		}

		out := logs.String()
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var slow, failed bool
		for _, l := range lines {
			if strings.Contains(l, `"level":"WARN"`) && strings.Contains(l, "SELECT") {
				slow = true
			}
			if strings.Contains(l, `"level":"ERROR"`) && strings.Contains(l, "no_such_column") {
				failed = true
			}
		}
		if !slow || !failed {
			t.Fatalf("want a slow-statement line and a failed-statement line:\n%s", out)
		}
		for _, v := range []string{secret, "c2VjcmV0IHRoYXQ", link, "mrr_abc_def"} {
			if strings.Contains(out, v) {
				t.Errorf("the SQL log carries the value %q:\n%s", v, out)
			}
		}
	})
}

func TestMaskSQLLiterals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ sql, quotes, want string }{
		{`SELECT "whsec_x" || "a""b"`, `'"`, `SELECT ? || ?`},
		{`SELECT * FROM "t" WHERE a = 'it''s' AND b = $1`, `'`, `SELECT * FROM "t" WHERE a = ? AND b = $1`},
		{`SELECT 1`, `'`, `SELECT 1`},
		{`SELECT 'unterminated`, `'`, `SELECT ?`},
	} {
		if got := models.MaskSQLLiterals(tc.sql, tc.quotes); got != tc.want {
			t.Errorf("mask(%q) = %q, want %q", tc.sql, got, tc.want)
		}
	}
}
