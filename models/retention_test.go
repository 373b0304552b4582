package models_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"gocloud.dev/blob/fileblob"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

func TestSweepDeletesOnlyWhatRetentionNoLongerKeeps(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s, db := env.Store, env.DB.DB
		tenant := env.NewTenant(t, "Acme")
		now := env.Clock.Now()
		day := 24 * time.Hour

		// Outbox: finished messages older than 30 days go; anything still to
		// be sent, and recent finished ones, stay.
		messages := map[string]struct {
			status models.MessageStatus
			age    time.Duration
			kept   bool
		}{
			"old-sent": {models.MessageSent, 31 * day, false}, "old-dead": {models.MessageDead, 40 * day, false},
			"old-sent-2": {models.MessageSent, 60 * day, false}, "recent-sent": {models.MessageSent, 29 * day, true},
			"old-pending": {models.MessagePending, 45 * day, true}, "old-held": {models.MessageHeld, 45 * day, true},
		}
		for id, m := range messages {
			at := now.Add(-m.age)
			row := models.OutboxMessage{ID: id, OrganizationID: tenant.Org.ID, Kind: "webhook", Event: "transaction.created",
				Recipient: "https://hooks.example.invalid/x", Payload: models.RawJSON(`{}`), Status: m.status,
				NextAttemptAt: at, CreatedAt: at, UpdatedAt: at}
			if err := db.Create(&row).Error; err != nil {
				t.Fatal(err)
			}
		}
		// Sign-in attempts: older than the lockout window go.
		for i, age := range []time.Duration{models.LoginWindow + time.Minute, 2 * models.LoginWindow, time.Minute} {
			if err := db.Create(&models.LoginAttempt{EmailKey: fmt.Sprint("k", i), ClientAddr: "192.0.2.1", CreatedAt: now.Add(-age)}).Error; err != nil {
				t.Fatal(err)
			}
		}
		// Idempotency keys: one claimed now (expires in 24 h) stays.
		if _, err := s.ClaimIdempotencyKey(ctx, tenant.Org.ID, "POST /x", "fresh", "h"); err != nil {
			t.Fatal(err)
		}

		// Batches of one row: every table takes several statements.
		rep, err := s.Sweep(ctx, models.Retention{BatchSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		if want := (models.SweepReport{Ran: true, Messages: 3, LoginAttempts: 2}); rep != want {
			t.Fatalf("report = %+v, want %+v", rep, want)
		}
		var left []string
		if err := db.Model(&models.OutboxMessage{}).Pluck("id", &left).Error; err != nil {
			t.Fatal(err)
		}
		slices.Sort(left)
		if want := []string{"old-held", "old-pending", "recent-sent"}; !slices.Equal(left, want) {
			t.Fatalf("outbox left = %v, want %v", left, want)
		}
		var attempts int64
		if err := db.Model(&models.LoginAttempt{}).Count(&attempts).Error; err != nil || attempts != 1 {
			t.Fatalf("login attempts left = %d, %v", attempts, err)
		}

		// Another instance within the lease skips; once it has passed, the
		// sweep runs again and finds the key that has expired meanwhile.
		other := env.AnotherInstance(t)
		if rep, err := other.Sweep(ctx, models.Retention{}); err != nil || rep.Ran {
			t.Fatalf("second sweep within the lease: %+v, %v", rep, err)
		}
		env.Clock.Advance(25 * time.Hour)
		rep, err = other.Sweep(ctx, models.Retention{})
		if err != nil || !rep.Ran || rep.IdempotencyKeys != 1 {
			t.Fatalf("sweep after the lease: %+v, %v", rep, err)
		}
	})
}

func TestSweepEndsConsoleSessionsPastTheirAge(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s := env.Store
		tenant := env.NewTenant(t, "Acme")
		ada, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "ada@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.StartAdminSession(ctx, ada.ID, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(2 * time.Hour)
		fresh, err := s.StartAdminSession(ctx, ada.ID, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		rep, err := s.Sweep(ctx, models.Retention{AdminSessions: time.Hour})
		if err != nil || rep.AdminSessions != 1 {
			t.Fatalf("sweep: %+v, %v", rep, err)
		}
		if _, err := s.AdminSessionUser(ctx, fresh, models.AdminSessionLimits{Idle: time.Hour, MaxAge: time.Hour}); err != nil {
			t.Fatalf("the fresh session was swept too: %v", err)
		}
	})
}

// A PDF written to the bucket whose row never committed (the process stopped
// in between) is gone after the sweep once it is older than OrphanBlobs; a
// stored document's object and a young orphan stay.
func TestSweepDeletesOrphanedBlobs(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "Agreement")
		orphan := fmt.Sprintf("orgs/%d/documents/never-committed.pdf", tenant.Org.ID)
		if err := env.Bucket.WriteAll(ctx, orphan, []byte("%PDF-1.7"), nil); err != nil {
			t.Fatal(err)
		}
		// The objects were written at the real time; the store's clock moves
		// past it so that they are old enough.
		env.Clock.Advance(time.Until(env.Clock.Now()).Abs() + 2*time.Hour)
		young := fmt.Sprintf("orgs/%d/documents/in-flight.pdf", tenant.Org.ID)
		rep, err := env.Store.Sweep(ctx, models.Retention{OrphanBlobs: time.Hour, BatchSize: 1})
		if err != nil || rep.OrphanBlobs != 1 {
			t.Fatalf("sweep: %+v, %v", rep, err)
		}
		for key, want := range map[string]bool{doc.ObjectKey: true, orphan: false} {
			if ok, err := env.Bucket.Exists(ctx, key); err != nil || ok != want {
				t.Errorf("%s exists = %v (%v), want %v", key, ok, err, want)
			}
		}
		// An object younger than OrphanBlobs (an upload whose row is about to
		// commit) is never touched.
		if err := env.Bucket.WriteAll(ctx, young, []byte("%PDF-1.7"), nil); err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(time.Hour) // past the lease
		if _, err := env.Store.Sweep(ctx, models.Retention{OrphanBlobs: 365 * 24 * time.Hour}); err != nil {
			t.Fatal(err)
		}
		if ok, _ := env.Bucket.Exists(ctx, young); !ok {
			t.Error("a young object was swept")
		}
	})
}

// A bucket write that fails leaves no document row behind.
func TestAFailedBucketWriteLeavesNoRow(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		dir := t.TempDir()
		bucket, err := fileblob.OpenBucket(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = bucket.Close() })
		// The bucket's directory becomes a file: every write fails, as a
		// full disk or a refused object store would.
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		broken := models.NewStore(env.DB, bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir()})
		pdf := pdftest.ThreePages(t)
		staged, err := broken.StageUpload(ctx, bytes.NewReader(pdf), int64(len(pdf))+1, "a.pdf")
		if err != nil {
			t.Fatal(err)
		}
		defer staged.Close()
		if _, err := broken.SaveDocument(ctx, staged, models.NewDocument{OrganizationID: tenant.Org.ID}); err == nil {
			t.Fatal("saved although the bucket refuses writes")
		}
		var rows int64
		if err := env.DB.DB.Model(&models.Document{}).Count(&rows).Error; err != nil || rows != 0 {
			t.Fatalf("%d document rows after a failed write (%v)", rows, err)
		}
	})
}

// A store told to keep Idempotency-Key records an hour lets the sweep delete
// them after that hour, not after the default 24.
func TestIdempotencyKeysLastWhatTheStoreIsTold(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		s := models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir(), IdempotencyTTL: time.Hour})
		if _, err := s.ClaimIdempotencyKey(ctx, tenant.Org.ID, "POST /x", "short", "h"); err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(59 * time.Minute)
		if rep, err := s.Sweep(ctx, models.Retention{Lease: time.Second}); err != nil || !rep.Ran || rep.IdempotencyKeys != 0 {
			t.Fatalf("sweep within the hour: %+v, %v", rep, err)
		}
		env.Clock.Advance(2 * time.Minute)
		if rep, err := s.Sweep(ctx, models.Retention{Lease: time.Second}); err != nil || !rep.Ran || rep.IdempotencyKeys != 1 {
			t.Fatalf("sweep after the hour: %+v, %v", rep, err)
		}
	})
}
