package models_test

import (
	"context"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// A batch is all or nothing: when its last write fails (a duplicate key),
// the writes before it are not kept, on PostgreSQL (one statement) and on
// SQLite (one database transaction).
func TestWriteBatchIsAllOrNothing(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		now := env.Clock.Now()
		insert := "INSERT INTO app_settings (key, value, created_at) VALUES (?, ?, ?)"
		if err := models.WriteBatchAtomically(ctx, env.Store, []any{insert, "batch.taken", "x", now}); err != nil {
			t.Fatal(err)
		}
		err := models.WriteBatchAtomically(ctx, env.Store,
			[]any{insert, "batch.first", "1", now},
			[]any{insert, "batch.second", "2", now},
			[]any{insert, "batch.taken", "again", now})
		if err == nil {
			t.Fatal("a batch with a duplicate key succeeded")
		}
		var n int64
		if err := env.DB.DB.Table("app_settings").Where("key LIKE ?", "batch.%").Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("%d rows after the failed batch, want only the one written before it", n)
		}
		if err := models.WriteBatchAtomically(ctx, env.Store,
			[]any{insert, "batch.first", "1", now},
			[]any{insert, "batch.second", "2", now}); err != nil {
			t.Fatal(err)
		}
		if err := env.DB.DB.Table("app_settings").Where("key LIKE ?", "batch.%").Count(&n).Error; err != nil || n != 3 {
			t.Fatalf("%d rows after a good batch (%v), want 3", n, err)
		}
	})
}
