package models_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// sealPasses runs sealer passes until they have sealed want events in all
// (a pass leaves the events of transactions newer than the oldest one
// running in the cluster — another test's — for the next) and returns how
// many they sealed; no pass may find the lock busy.
func sealPasses(t *testing.T, s *models.Store, want int64) int64 {
	t.Helper()
	var n int64
	for deadline := time.Now().Add(30 * time.Second); n < want && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		rep, err := s.SealAudit(context.Background())
		if err != nil || rep.Busy {
			t.Fatalf("seal: %+v %v", rep, err)
		}
		n += rep.Sealed
	}
	return n
}

// A change writes its events unsealed and locks no chain head; the sealer
// chains them (seq from 1, each linked to the previous hash), moves the
// head, and a second pass finds nothing to do.
func TestSealerChainsEventsAfterTheirCommit(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s, db := env.Store, env.DB.DB
		a, b := env.NewTenant(t, "Acme"), env.NewTenant(t, "Beta")
		clearAudit(t, env)
		recordAudit(t, s, a.Org.ID, 3)
		recordAudit(t, s, b.Org.ID, 2)
		var heads int64
		db.Table("audit_chains").Count(&heads)
		var unsealed []models.AuditEvent
		db.Order("id").Find(&unsealed)
		if heads != 0 || len(unsealed) != 5 {
			t.Fatalf("written: %d heads, %d events", heads, len(unsealed))
		}
		for _, e := range unsealed {
			if e.Sealed() || e.Seq != 0 || e.Hash != "" || e.PrevHash != "" {
				t.Fatalf("sealed with its change: %+v", e)
			}
		}
		if n := sealPasses(t, s, 5); n != 5 || s.UnsealedAuditEvents() != 0 {
			t.Fatalf("sealed %d, %d left", n, s.UnsealedAuditEvents())
		}
		var sealed []models.AuditEvent
		db.Where("organization_id = ?", a.Org.ID).Order("seq").Find(&sealed)
		prev := "0000000000000000000000000000000000000000000000000000000000000000"
		for i, e := range sealed {
			if !e.Sealed() || e.Seq != int64(i+1) || e.PrevHash != prev || e.ComputeHash() != e.Hash {
				t.Fatalf("event %d: %+v", i, e)
			}
			prev = e.Hash
		}
		if rep := mustVerify(t, s, nil); rep.Broken != nil || rep.Events != 5 || rep.Chains != 2 || rep.Unsealed != 0 {
			t.Fatalf("verify: %+v %v", rep, rep.Broken)
		}
		if rep, err := s.SealAudit(context.Background()); err != nil || rep.Sealed != 0 {
			t.Fatalf("second pass: %+v %v", rep, err)
		}
		// Later events continue the chain.
		recordAudit(t, s, a.Org.ID, 2)
		sealAll(t, s)
		if rep := mustVerify(t, s, &a.Org.ID); rep.Broken != nil || rep.Events != 5 {
			t.Fatalf("continued chain: %+v %v", rep, rep.Broken)
		}
	})
}

// A change that began first and commits after later ones (on PostgreSQL:
// SQLite has one writer at a time, so its changes commit in the order they
// begin): while it runs, the later changes' events wait (their xids are
// newer than the oldest running transaction), and once it commits its event
// is sealed first, not skipped.
func TestSealerNeverSkipsALateCommit(t *testing.T) {
	t.Parallel()
	for _, d := range modelstest.Dialects() {
		if d != models.DialectPostgres {
			continue
		}
		t.Run(string(d), func(t *testing.T) {
			env := modelstest.New(t, d)
			s := env.Store
			a := env.NewTenant(t, "Acme")
			clearAudit(t, env)
			ctx := context.Background()
			inserted, release := make(chan struct{}), make(chan struct{})
			done := make(chan error, 1)
			go func() {
				done <- models.RecordAuditHeld(ctx, s, models.AuditEntry{OrganizationID: a.Org.ID, Action: "transaction.replaced", Summary: "late"}, inserted, release)
			}()
			<-inserted
			recordAudit(t, s, a.Org.ID, 3) // begin after, commit before
			rep, err := s.SealAudit(ctx)
			if err != nil || rep.Sealed != 0 || rep.Unsealed != 3 {
				close(release)
				t.Fatalf("sealed past a running transaction: %+v %v", rep, err)
			}
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			sealAll(t, s)
			var events []models.AuditEvent
			env.DB.DB.Where("organization_id = ?", a.Org.ID).Order("seq").Find(&events)
			if len(events) != 4 || events[0].Summary != "late" || events[0].Seq != 1 {
				t.Fatalf("late commit: %+v", events)
			}
			if rep := mustVerify(t, s, nil); rep.Broken != nil || rep.Events != 4 || rep.Unsealed != 0 {
				t.Fatalf("verify: %+v %v", rep, rep.Broken)
			}
		})
	}
}

// Two instances write and seal at once: each event is sealed once (the
// chain verifies, its seqs run 1…n); on PostgreSQL a pass that finds the
// advisory lock taken does nothing and says so.
func TestSealersOnTwoInstancesNeverDoubleSeal(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		one, two := env.Store, env.AnotherInstance(t)
		a, b := env.NewTenant(t, "Acme"), env.NewTenant(t, "Beta")
		clearAudit(t, env)
		ctx, stop := context.WithCancel(context.Background())
		var sealers, writers sync.WaitGroup
		for _, st := range []*models.Store{one, two} {
			sealers.Add(1)
			go func() {
				defer sealers.Done()
				for ctx.Err() == nil {
					if _, err := st.SealAudit(ctx); err != nil && ctx.Err() == nil {
						t.Errorf("seal: %v", err)
						return
					}
				}
			}()
			for _, org := range []int64{a.Org.ID, b.Org.ID} {
				writers.Add(1)
				go func() { defer writers.Done(); recordAudit(t, st, org, 15) }()
			}
		}
		writers.Wait()
		stop()
		sealers.Wait()
		sealAll(t, one)
		if rep := mustVerify(t, two, nil); rep.Broken != nil || rep.Events != 60 || rep.Chains != 2 || rep.Unsealed != 0 {
			t.Fatalf("two sealers: %+v %v", rep, rep.Broken)
		}
		if env.DB.Dialect != models.DialectPostgres {
			return
		}
		recordAudit(t, one, a.Org.ID, 1)
		err := env.DB.DB.Transaction(func(tx *gorm.DB) error {
			var took bool
			if err := tx.Raw("SELECT pg_try_advisory_xact_lock(?, hashtext(current_schema()))", models.AuditSealerLockClass).Row().Scan(&took); err != nil || !took {
				t.Fatalf("take the sealer's lock: %v %v", took, err)
			}
			rep, err := two.SealAudit(context.Background())
			if err != nil || !rep.Busy || rep.Sealed != 0 || rep.Unsealed != 1 {
				t.Fatalf("pass while another instance seals: %+v %v", rep, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := sealPasses(t, two, 1); n != 1 {
			t.Fatalf("passes after sealed %d", n)
		}
	})
}

// SealAuditBacklog returns once what was unsealed when it began is sealed,
// and gives up with ctx.
func TestSealAuditBacklogWaitsForTheBacklog(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := env.Store
		a := env.NewTenant(t, "Acme")
		clearAudit(t, env)
		recordAudit(t, s, a.Org.ID, 4)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.SealAuditBacklog(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := s.CountUnsealedAudit(ctx, nil); err != nil || n != 0 {
			t.Fatalf("left unsealed: %d %v", n, err)
		}
	})
}
