package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestAdminSessionsEndEverywhere(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s := env.Store
		other := env.AnotherInstance(t)
		tenant := env.NewTenant(t, "Acme")
		ada, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "ada@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"})
		if err != nil {
			t.Fatal(err)
		}
		limits := models.AdminSessionLimits{Idle: 30 * time.Minute, MaxAge: 12 * time.Hour}
		open := func(store *models.Store, id string) error {
			t.Helper()
			u, err := store.AdminSessionUser(ctx, id, limits)
			if err == nil && u.ID != ada.ID {
				t.Fatalf("session of user %d", u.ID)
			}
			return err
		}
		start := func() string {
			t.Helper()
			id, err := s.StartAdminSession(ctx, ada.ID, "192.0.2.1")
			if err != nil || len(id) < 40 {
				t.Fatalf("start: %q %v", id, err)
			}
			return id
		}

		// Signing out on one instance ends the session on the other.
		a := start()
		if err := open(other, a); err != nil {
			t.Fatalf("open on another instance: %v", err)
		}
		if err := s.EndAdminSession(ctx, a); err != nil {
			t.Fatal(err)
		}
		for _, store := range []*models.Store{s, other} {
			if err := open(store, a); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("ended session: %v", err)
			}
		}
		// Only a hash of the id is stored.
		var stored []models.AdminSession
		if err := env.DB.DB.Find(&stored).Error; err != nil || len(stored) != 1 || stored[0].IDHash == a || stored[0].EndedAt == nil {
			t.Fatalf("stored = %+v, %v", stored, err)
		}
		if err := open(s, "made-up"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("unknown session: %v", err)
		}

		// "Sign out everywhere" ends every open session of the user, not others'.
		b, c := start(), start()
		bob, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "bob@example.com", FirstName: "Bob", LastName: "Admin", Admin: true, Password: "correct horse"})
		if err != nil {
			t.Fatal(err)
		}
		bobs, err := s.StartAdminSession(ctx, bob.ID, "192.0.2.2")
		if err != nil {
			t.Fatal(err)
		}
		if n, err := other.EndAdminSessionsOf(ctx, ada.ID); err != nil || n != 2 {
			t.Fatalf("ended %d, %v", n, err)
		}
		for _, id := range []string{b, c} {
			if err := open(s, id); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("after sign out everywhere: %v", err)
			}
		}
		if _, err := s.AdminSessionUser(ctx, bobs, limits); err != nil {
			t.Fatalf("another admin's session: %v", err)
		}

		// Disabling a user ends their sessions.
		d := start()
		if err := other.DisableUser(ctx, tenant.Org.ID, ada.ID); err != nil {
			t.Fatal(err)
		}
		var open2 int64
		if err := env.DB.DB.Model(&models.AdminSession{}).Where("user_id = ? AND ended_at IS NULL", ada.ID).Count(&open2).Error; err != nil || open2 != 0 {
			t.Fatalf("open sessions of a disabled user: %d %v", open2, err)
		}
		if err := open(s, d); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("disabled user's session: %v", err)
		}

		// A user whose admin flag is removed is refused (ErrForbidden), the session kept.
		if err := env.DB.DB.Model(&models.User{}).Where("id = ?", bob.ID).Update("is_admin", false).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := s.AdminSessionUser(ctx, bobs, limits); !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("no longer an admin: %v", err)
		}
	})
}

func TestAdminSessionTimeoutsAreEnforcedServerSide(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s := env.Store
		tenant := env.NewTenant(t, "Acme")
		ada, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "ada@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"})
		if err != nil {
			t.Fatal(err)
		}
		limits := models.AdminSessionLimits{Idle: 30 * time.Minute, MaxAge: 2 * time.Hour}
		lastSeen := func() time.Time { // of the newest session
			t.Helper()
			var rec models.AdminSession
			if err := env.DB.DB.Where("user_id = ?", ada.ID).Order("created_at DESC").Take(&rec).Error; err != nil {
				t.Fatal(err)
			}
			return rec.LastSeenAt
		}

		id, err := s.StartAdminSession(ctx, ada.ID, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		started := lastSeen()
		// Requests within a minute do not write; the next one does.
		env.Clock.Advance(40 * time.Second)
		if _, err := s.AdminSessionUser(ctx, id, limits); err != nil {
			t.Fatal(err)
		}
		if !lastSeen().Equal(started) {
			t.Fatal("last seen written twice within a minute")
		}
		env.Clock.Advance(30 * time.Second)
		if _, err := s.AdminSessionUser(ctx, id, limits); err != nil {
			t.Fatal(err)
		}
		if got := lastSeen(); !got.Equal(started.Add(70 * time.Second)) {
			t.Fatalf("last seen = %v, want %v", got, started.Add(70*time.Second))
		}
		// Active every 25 minutes: alive until the maximum age.
		for env.Clock.Now().Add(25 * time.Minute).Before(started.Add(limits.MaxAge)) {
			env.Clock.Advance(25 * time.Minute)
			if _, err := s.AdminSessionUser(ctx, id, limits); err != nil {
				t.Fatalf("at %v: %v", env.Clock.Now().Sub(started), err)
			}
		}
		env.Clock.Advance(25 * time.Minute)
		if _, err := s.AdminSessionUser(ctx, id, limits); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("past the maximum age: %v", err)
		}
		// Idle past the timeout: ended (and stays ended when the limits change).
		id, err = s.StartAdminSession(ctx, ada.ID, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(limits.Idle)
		if _, err := s.AdminSessionUser(ctx, id, limits); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("idle: %v", err)
		}
		if _, err := s.AdminSessionUser(ctx, id, models.AdminSessionLimits{Idle: time.Hour, MaxAge: time.Hour}); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("an idle session came back: %v", err)
		}

		// Purging deletes what can no longer be used, and nothing else.
		live, err := s.StartAdminSession(ctx, ada.ID, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Sweep(ctx, models.Retention{AdminSessions: time.Second}); err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := env.DB.DB.Model(&models.AdminSession{}).Count(&n).Error; err != nil || n != 1 {
			t.Fatalf("%d sessions left, %v", n, err)
		}
		if _, err := s.AdminSessionUser(ctx, live, limits); err != nil {
			t.Fatalf("purge ended a live session: %v", err)
		}
	})
}
