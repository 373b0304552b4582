package models_test

import (
	"context"
	"slices"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// An audit cursor reads back only in the form the service issued.
func TestAuditCursor(t *testing.T) {
	t.Parallel()
	for _, id := range []int64{1, 42, 1 << 40} {
		if got, ok := models.ParseAuditCursor(models.EncodeAuditCursor(id)); !ok || got != id {
			t.Errorf("cursor of %d reads back as %d, %v", id, got, ok)
		}
	}
	for _, bad := range []string{"", "42", "YXVkaXQ6MA", "YXVkaXQ6MDQy", "YXVkaXQ6NDI=", "dHg6NDI", models.EncodeAuditCursor(42) + "A"} {
		if _, ok := models.ParseAuditCursor(bad); ok {
			t.Errorf("cursor %q accepted", bad)
		}
	}
}

// The actions the console suggests: the distinct actions of the newest
// events, each with its prefix, sorted.
func TestRecentAuditActions(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		for _, a := range []string{"participant.renamed", "participant.added", "participant.renamed", "room.tag_created", "misc"} {
			if err := env.Store.RecordAudit(context.Background(), models.AuditEntry{OrganizationID: tenant.Org.ID, Action: a}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := env.Store.RecentAuditActions(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"misc", "participant.", "participant.added", "participant.renamed", "room.", "room.tag_created"} {
			if !slices.Contains(got, want) {
				t.Errorf("%v lacks %q", got, want)
			}
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Errorf("not sorted, or repeated: %v", got)
		}
	})
}
