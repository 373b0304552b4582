package models_test

import (
	"slices"
	"sync"
	"testing"

	"gorm.io/gorm/schema"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// TestModelsMatchMigrations fails when a GORM model field has no column after
// migration, or a migrated table has no model, on every dialect.
func TestModelsMatchMigrations(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		db := env.DB.DB
		migrator := db.Migrator()
		tables, err := migrator.GetTables()
		if err != nil {
			t.Fatal(err)
		}
		modelTables := map[string]bool{}
		for _, entity := range models.Entities() {
			s, err := schema.Parse(entity, &sync.Map{}, db.NamingStrategy)
			if err != nil {
				t.Fatalf("parse %T: %v", entity, err)
			}
			modelTables[s.Table] = true
			if !slices.Contains(tables, s.Table) {
				t.Errorf("%T: table %q does not exist after migration", entity, s.Table)
				continue
			}
			cols, err := migrator.ColumnTypes(entity)
			if err != nil {
				t.Fatalf("columns of %s: %v", s.Table, err)
			}
			have := map[string]bool{}
			for _, c := range cols {
				have[c.Name()] = true
			}
			for _, f := range s.Fields {
				if f.DBName != "" && !have[f.DBName] {
					t.Errorf("%T.%s: column %s.%s does not exist after migration", entity, f.Name, s.Table, f.DBName)
				}
			}
			fields := map[string]bool{}
			for _, f := range s.Fields {
				fields[f.DBName] = true
			}
			for _, c := range cols {
				nullable, _ := c.Nullable()
				_, hasDefault := c.DefaultValue()
				if !fields[c.Name()] && !nullable && !hasDefault {
					t.Errorf("%s.%s is NOT NULL without default but %T has no field for it", s.Table, c.Name(), entity)
				}
			}
		}
		for _, table := range tables {
			if table == "goose_db_version" || table == "sqlite_sequence" {
				continue
			}
			if !modelTables[table] {
				t.Errorf("table %q has no model in models.Entities()", table)
			}
		}
	})
}

func TestMigrateIsIdempotentAndCheckSchemaSeesPending(t *testing.T) {
	t.Parallel()
	for _, d := range modelstest.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			ctx := t.Context()
			db := modelstest.OpenDatabase(t, d)
			if err := db.CheckSchema(ctx); err == nil {
				t.Fatal("CheckSchema on an empty database: want ErrSchemaBehind")
			}
			applied, err := db.Migrate(ctx)
			if err != nil || len(applied) == 0 {
				t.Fatalf("first Migrate: applied %v, err %v", applied, err)
			}
			again, err := db.Migrate(ctx)
			if err != nil || len(again) != 0 {
				t.Fatalf("second Migrate: applied %v, err %v; want nothing", again, err)
			}
			if err := db.CheckSchema(ctx); err != nil {
				t.Fatalf("CheckSchema after Migrate: %v", err)
			}
		})
	}
}

// TestBulkInsertColumnsCoverTheModels fails when a child table's hand-written
// insert column list misses a field of its model.
func TestBulkInsertColumnsCoverTheModels(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	for table, cols := range models.BulkInsertColumns() {
		var entity any
		for _, e := range models.Entities() {
			s, _ := schema.Parse(e, &sync.Map{}, env.DB.DB.NamingStrategy)
			if s.Table == table {
				entity = e
				if len(s.DBNames) != len(cols) {
					t.Errorf("%s: insert lists %d columns, the model has %d (%v)", table, len(cols), len(s.DBNames), s.DBNames)
				}
				for _, c := range s.DBNames {
					if !slices.Contains(cols, c) {
						t.Errorf("%s: insert misses column %s", table, c)
					}
				}
			}
		}
		if entity == nil {
			t.Errorf("no model for table %s", table)
		}
	}
}
