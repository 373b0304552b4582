package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestAdminSignInAndLockouts(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s := env.Store
		tenant := env.NewTenant(t, "Acme")
		admin, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "Ada@Example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "plain@example.com", FirstName: "Pl", LastName: "Ain", Password: "correct horse"}); err != nil {
			t.Fatal(err)
		}

		u, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "10.0.0.1")
		if err != nil || u.ID != admin.ID {
			t.Fatalf("sign-in: %v %v", u, err)
		}
		// Unknown, wrong, not an admin: one answer.
		for _, c := range [][2]string{{"nobody@example.com", "x"}, {"ada@example.com", "wrong"}, {"plain@example.com", "correct horse"}} {
			if _, err := s.AdminSignIn(ctx, c[0], c[1], "10.0.0.2"); !errors.Is(err, models.ErrBadCredentials) {
				t.Fatalf("%v: %v", c, err)
			}
		}
		// Five failures from one address lock the account for that address
		// only, even for the right password; the right password from another
		// address gets in (slowed down, never locked out), and the address
		// may still try other accounts.
		for i := 0; i < 4; i++ {
			if _, err := s.AdminSignIn(ctx, "ada@example.com", "wrong", "10.0.0.3"); !errors.Is(err, models.ErrBadCredentials) {
				t.Fatal(err)
			}
		}
		if _, err := s.AdminSignIn(ctx, "ADA@example.com", "wrong", "10.0.0.3"); !errors.Is(err, models.ErrBadCredentials) {
			t.Fatal(err)
		}
		var locked *models.LockedOutError
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "10.0.0.3"); !errors.As(err, &locked) || locked.RetryAfter <= 0 || locked.RetryAfter > models.LoginWindow {
			t.Fatalf("locked account and address: %v", err)
		}
		if u, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "10.9.9.9"); err != nil || u.ID != admin.ID {
			t.Fatalf("the right password from another address: %v %v", u, err)
		}
		if _, err := s.AdminSignIn(ctx, "plain@example.com", "correct horse", "10.0.0.3"); !errors.Is(err, models.ErrBadCredentials) {
			t.Fatalf("another account from the locked address: %v", err)
		}
		env.Clock.Advance(models.LoginWindow + time.Second)
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "10.0.0.3"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
		// Twenty failures from one address lock that address for every account.
		for i := 0; i < models.LoginFailuresPerAddress; i++ {
			_, _ = s.AdminSignIn(ctx, "guess"+string(rune('a'+i))+"@example.com", "x", "10.6.6.6")
		}
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "10.6.6.6"); !errors.As(err, &locked) {
			t.Fatalf("locked address: %v", err)
		}
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "10.0.0.1"); err != nil {
			t.Fatalf("another address: %v", err)
		}
		// A disabled admin gets the same answer as a wrong password.
		if err := env.DB.DB.Model(&models.User{}).Where("id = ?", admin.ID).Update("disabled_at", s.Now()).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "10.0.0.1"); !errors.Is(err, models.ErrBadCredentials) {
			t.Fatalf("disabled: %v", err)
		}
		if _, err := s.ActiveAdmin(ctx, admin.ID); !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("a disabled admin is still active: %v", err)
		}

		log, err := s.ListActivity(ctx, 200, 0)
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, a := range log {
			counts[a.Action] += a.Repeats
		}
		if counts[models.ActivityLogin] != 4 || counts[models.ActivityLockout] != 2 || counts[models.ActivityFailedLogin] != 30 {
			t.Fatalf("activity = %v", counts)
		}
		if log[0].Action != models.ActivityFailedLogin || log[0].ClientAddr != "10.0.0.1" {
			t.Fatalf("newest entry = %+v", log[0])
		}
	})
}
