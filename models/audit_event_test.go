package models_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// recordAudit writes n events of org by an API token.
func recordAudit(t *testing.T, s *models.Store, org int64, n int) {
	t.Helper()
	ctx := models.WithAuditActor(context.Background(), models.AuditActor{Kind: models.AuditActorAPIToken, ID: "7", Name: "Import job", Via: "api", Address: "192.0.2.7"})
	for i := 0; i < n; i++ {
		if err := s.RecordAudit(ctx, models.AuditEntry{OrganizationID: org, Action: "transaction.replaced",
			TargetType: "transaction", TargetID: "t1", TransactionID: "t1", Summary: "Replaced"}); err != nil {
			t.Fatalf("record: %v", err)
		}
	}
}

// clearAudit empties the trail the tenants' creation wrote (organization,
// user, token: events of their own), so a test counts only its own.
func clearAudit(t *testing.T, env *modelstest.Env) {
	t.Helper()
	for _, table := range []string{"audit_events", "audit_chains"} {
		if err := env.DB.DB.Exec("DELETE FROM " + table).Error; err != nil {
			t.Fatal(err)
		}
	}
}

// sealAll runs the sealer until every event recorded so far is sealed.
func sealAll(t *testing.T, s *models.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.SealAuditBacklog(ctx); err != nil {
		t.Fatalf("seal: %v", err)
	}
}

func mustVerify(t *testing.T, s *models.Store, org *int64) models.AuditReport {
	t.Helper()
	rep, err := s.VerifyAudit(context.Background(), org)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return rep
}

func TestAuditChainsVerifyAndNameTheFirstBrokenEvent(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s, db := env.Store, env.DB.DB
		a, b := env.NewTenant(t, "Acme"), env.NewTenant(t, "Beta")
		clearAudit(t, env)
		recordAudit(t, s, a.Org.ID, 5)
		recordAudit(t, s, b.Org.ID, 3)
		// Written with their changes, not sealed yet: counted, not walked.
		rep := mustVerify(t, s, nil)
		if rep.Broken != nil || rep.Events != 0 || rep.Unsealed != 8 {
			t.Fatalf("before sealing: %+v %v", rep, rep.Broken)
		}
		sealAll(t, s)
		rep = mustVerify(t, s, nil)
		if rep.Unsealed != 0 || rep.Broken != nil || rep.Events != 8 || rep.Chains != 2 {
			t.Fatalf("untouched trail: %+v %v", rep, rep.Broken)
		}
		var third models.AuditEvent
		if err := db.Where("organization_id = ? AND seq = 3", a.Org.ID).Take(&third).Error; err != nil {
			t.Fatal(err)
		}
		if third.ActorKind != "api_token" || third.ActorName != "Import job" || third.Via != "api" || third.ClientAddr != "192.0.2.7" {
			t.Fatalf("actor not recorded: %+v", third)
		}

		// An edited summary: the event's own hash no longer matches.
		db.Model(&models.AuditEvent{}).Where("id = ?", third.ID).Update("summary", "nothing happened")
		rep = mustVerify(t, s, nil)
		if rep.Broken == nil || rep.Broken.EventID != third.ID || !strings.Contains(rep.Broken.Reason, "content") {
			t.Fatalf("edited row: want event %d named, got %v", third.ID, rep.Broken)
		}
		// Another organization's chain still verifies alone.
		if rep := mustVerify(t, s, &b.Org.ID); rep.Broken != nil || rep.Events != 3 {
			t.Fatalf("other chain: %+v %v", rep, rep.Broken)
		}
		// Re-hashing the edit moves the break to the link of the next event.
		third.Summary = "nothing happened"
		db.Model(&models.AuditEvent{}).Where("id = ?", third.ID).Update("hash", third.ComputeHash())
		rep = mustVerify(t, s, &a.Org.ID)
		if rep.Broken == nil || rep.Broken.Seq != 4 || !strings.Contains(rep.Broken.Reason, "link") {
			t.Fatalf("re-hashed row: want #4's link named, got %v", rep.Broken)
		}
	})
}

func TestAuditVerifyFindsDeletedEvents(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s, db := env.Store, env.DB.DB
		a := env.NewTenant(t, "Acme")
		clearAudit(t, env)
		recordAudit(t, s, a.Org.ID, 4)
		sealAll(t, s)
		db.Where("organization_id = ? AND seq = 2", a.Org.ID).Delete(&models.AuditEvent{})
		if rep := mustVerify(t, s, nil); rep.Broken == nil || rep.Broken.Seq != 3 || !strings.Contains(rep.Broken.Reason, "missing") {
			t.Fatalf("deleted middle row: %v", rep.Broken)
		}
		b := env.NewTenant(t, "Beta")
		clearAudit(t, env)
		recordAudit(t, s, b.Org.ID, 3)
		sealAll(t, s)
		db.Where("organization_id = ? AND seq = 3", b.Org.ID).Delete(&models.AuditEvent{})
		if rep := mustVerify(t, s, &b.Org.ID); rep.Broken == nil || !strings.Contains(rep.Broken.Reason, "last events were deleted") {
			t.Fatalf("deleted last row: %v", rep.Broken)
		}
	})
}

func TestAuditEventsRollBackWithTheirChange(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s, db := env.Store, env.DB.DB
		a := env.NewTenant(t, "Acme")
		clearAudit(t, env)
		ctx := context.Background()
		e := models.AuditEntry{OrganizationID: a.Org.ID, Action: "participant.renamed"}
		if err := models.RecordAuditWith(ctx, s, e, errors.New("the change failed")); err == nil {
			t.Fatal("want the change's error")
		}
		var n int64
		db.Model(&models.AuditEvent{}).Count(&n)
		if n != 0 {
			t.Fatalf("a rolled-back change left %d audit events", n)
		}
		if err := models.RecordAuditWith(ctx, s, e, nil); err != nil {
			t.Fatal(err)
		}
		sealAll(t, s)
		db.Model(&models.AuditEvent{}).Count(&n)
		if rep := mustVerify(t, s, nil); n != 1 || rep.Broken != nil {
			t.Fatalf("committed change: %d events, %v", n, rep.Broken)
		}
		var ev models.AuditEvent
		db.Take(&ev)
		if ev.ActorKind != models.AuditActorOperator || ev.Seq != 1 {
			t.Fatalf("no actor in the context: %+v", ev)
		}
	})
}

func TestAuditAppendsConcurrentlyWithoutBreakingTheChain(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := env.Store
		a := env.NewTenant(t, "Acme")
		clearAudit(t, env)
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() { defer wg.Done(); recordAudit(t, s, a.Org.ID, 10) }()
		}
		wg.Wait()
		sealAll(t, s)
		if rep := mustVerify(t, s, nil); rep.Broken != nil || rep.Events != 40 {
			t.Fatalf("concurrent appends: %+v %v", rep, rep.Broken)
		}
	})
}

func TestAuditRetentionKeepsTheRestVerifiable(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s, db := env.Store, env.DB.DB
		a := env.NewTenant(t, "Acme")
		clearAudit(t, env)
		recordAudit(t, s, a.Org.ID, 5)
		env.Clock.Advance(100 * 24 * time.Hour)
		recordAudit(t, s, a.Org.ID, 2)
		sealAll(t, s)
		rep, err := s.Sweep(context.Background(), models.Retention{Audit: 90 * 24 * time.Hour, BatchSize: 2})
		if err != nil || rep.AuditEvents != 5 {
			t.Fatalf("sweep: %+v %v", rep, err)
		}
		if rep := mustVerify(t, s, nil); rep.Broken != nil || rep.Events != 2 {
			t.Fatalf("after retention: %+v %v", rep, rep.Broken)
		}
		recordAudit(t, s, a.Org.ID, 1)
		sealAll(t, s)
		var first models.AuditEvent
		db.Where("organization_id = ?", a.Org.ID).Order("seq").Take(&first)
		db.Model(&models.AuditEvent{}).Where("id = ?", first.ID).Update("action", "room.expired")
		if rep := mustVerify(t, s, nil); rep.Broken == nil || rep.Broken.EventID != first.ID {
			t.Fatalf("edited row after the checkpoint: %v", rep.Broken)
		}
	})
}

func TestListAuditEventsFiltersAndPages(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := env.Store
		a, b := env.NewTenant(t, "Acme"), env.NewTenant(t, "Beta")
		clearAudit(t, env)
		recordAudit(t, s, a.Org.ID, 5)
		recordAudit(t, s, b.Org.ID, 2)
		sealAll(t, s)
		ctx := context.Background()
		f := models.AuditFilter{OrganizationID: &a.Org.ID, Actor: "import", Action: "transaction."}
		var seen []int64
		for cursor := int64(0); ; {
			page, err := s.ListAuditEvents(ctx, f, models.AuditNewestFirst, cursor, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page.Events {
				seen = append(seen, e.Seq)
			}
			if cursor = page.Next; cursor == 0 {
				break
			}
		}
		if len(seen) != 5 || seen[0] != 5 || seen[4] != 1 {
			t.Fatalf("newest first over pages of 2: %v", seen)
		}
		page, err := s.ListAuditEvents(ctx, models.AuditFilter{OrganizationID: &b.Org.ID, Action: "participant."}, models.AuditOldestFirst, 0, 10)
		if err != nil || len(page.Events) != 0 {
			t.Fatalf("no participant events in Beta: %v %v", page, err)
		}
	})
}
