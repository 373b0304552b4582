package models_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/passwordhash"
)

func TestLoginDelay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		failures int
		want     time.Duration
	}{
		{0, 0}, {1, 0}, {4, 0},
		{5, 250 * time.Millisecond},
		{6, 500 * time.Millisecond},
		{7, time.Second},
		{8, 2 * time.Second},
		{11, 16 * time.Second},
		{12, 30 * time.Second}, // 32 s, capped
		{13, 30 * time.Second},
		{64, 30 * time.Second},
		{1 << 30, 30 * time.Second},
	} {
		if got := models.LoginDelay(c.failures); got != c.want {
			t.Errorf("LoginDelay(%d) = %v, want %v", c.failures, got, c.want)
		}
	}
}

func TestSignInSlowsDownAcrossAddressesButNeverLocksOut(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s := env.Store
		tenant := env.NewTenant(t, "Acme")
		if _, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "ada@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"}); err != nil {
			t.Fatal(err)
		}
		// Four failures from each of four addresses: no address is locked, but
		// from the fifth failure of the account on every attempt waits longer.
		var want []time.Duration
		for i := 0; i < 16; i++ {
			if d := models.LoginDelay(i); d > 0 {
				want = append(want, d)
			}
			addr := fmt.Sprintf("198.51.100.%d", i/4)
			if _, err := s.AdminSignIn(ctx, "ada@example.com", "wrong", addr); !errors.Is(err, models.ErrBadCredentials) {
				t.Fatalf("attempt %d from %s: %v", i, addr, err)
			}
		}
		// The right password from a new address: waits (the cap), then gets in.
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "203.0.113.9"); err != nil {
			t.Fatalf("the right password from a new address: %v", err)
		}
		want = append(want, models.LoginDelayMax)
		if got := env.Sleeps.Waits(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("waits = %v, want %v", got, want)
		}
		if want[0] != 250*time.Millisecond || want[len(want)-1] != 30*time.Second {
			t.Fatalf("delays run from %v to %v", want[0], want[len(want)-1])
		}
		// Another account is not slowed down.
		_, _ = s.AdminSignIn(ctx, "bob@example.com", "wrong", "198.51.100.0")
		if n := len(env.Sleeps.Waits()); n != len(want) {
			t.Fatalf("another account waited: %v", env.Sleeps.Waits()[len(want):])
		}
		// A request that ends during the wait checks no password and records nothing.
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.AdminSignIn(cancelled, "ada@example.com", "correct horse", "203.0.113.10"); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled during the wait: %v", err)
		}
		// After the window the account is fast again.
		env.Clock.Advance(models.LoginWindow + time.Second)
		before := len(env.Sleeps.Waits())
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "198.51.100.0"); err != nil {
			t.Fatal(err)
		}
		if len(env.Sleeps.Waits()) != before {
			t.Fatal("waited after the window")
		}
	})
}

func TestRepeatedSignInRefusalsAreOneActivityRow(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s := env.Store
		tenant := env.NewTenant(t, "Acme")
		if _, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "ada@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"}); err != nil {
			t.Fatal(err)
		}
		// 60 attempts from one address: 5 refused passwords, then 55 refusals
		// of the locked account, spread over ten minutes.
		for i := 0; i < 60; i++ {
			_, _ = s.AdminSignIn(ctx, "ada@example.com", "wrong", "10.1.1.1")
			env.Clock.Advance(10 * time.Second)
		}
		// Another address gets rows of its own.
		_, _ = s.AdminSignIn(ctx, "ada@example.com", "wrong", "10.2.2.2")
		log, err := s.ListActivity(ctx, 200, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range log {
			got = append(got, fmt.Sprintf("%s %s ×%d", a.Action, a.ClientAddr, a.Repeats))
		}
		want := []string{"failed login 10.2.2.2 ×1", "lockout 10.1.1.1 ×55", "failed login 10.1.1.1 ×5"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Fatalf("activity = %q, want %q", got, want)
		}
		if log[1].LastAt == nil || !log[1].LastAt.After(log[1].CreatedAt) || log[0].LastAt != nil {
			t.Fatalf("last times: %+v / %+v", log[1], log[0])
		}
		// Past the window of the first row, a new row starts.
		env.Clock.Advance(models.LoginWindow)
		for i := 0; i < 7; i++ {
			_, _ = s.AdminSignIn(ctx, "ada@example.com", "wrong", "10.1.1.1")
		}
		if log, err = s.ListActivity(ctx, 200, 0); err != nil {
			t.Fatal(err)
		}
		if len(log) != 5 || log[0].Action != models.ActivityLockout || log[0].Repeats != 2 || log[1].Action != models.ActivityFailedLogin || log[1].Repeats != 5 {
			t.Fatalf("after the window: %d rows, newest %+v, %+v", len(log), log[0], log[1])
		}
	})
}

// countingVerifier wraps the real password check and records the hashes it checked.
type countingVerifier struct {
	mu     sync.Mutex
	hashes []string
}

func (v *countingVerifier) verify(hash, password string) bool {
	v.mu.Lock()
	v.hashes = append(v.hashes, hash)
	v.mu.Unlock()
	return passwordhash.Verify(hash, password)
}

func (v *countingVerifier) take() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := v.hashes
	v.hashes = nil
	return out
}

func TestEverySignInRefusalRunsThePasswordHash(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		v := &countingVerifier{}
		s := models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir(), Sleep: env.Sleeps.Sleep, VerifyPassword: v.verify})
		tenant := env.NewTenant(t, "Acme")
		users := map[string]models.NewUser{
			"with a password":    {Email: "ada@example.com", Admin: true, Password: "correct horse"},
			"without a password": {Email: "nopass@example.com", Admin: true},
			"disabled":           {Email: "gone@example.com", Admin: true, Password: "correct horse"},
			"not an admin":       {Email: "plain@example.com", Password: "correct horse"},
		}
		var realHash string
		for name, nu := range users {
			nu.OrganizationID, nu.FirstName, nu.LastName = tenant.Org.ID, "A", name
			u, err := s.CreateUser(ctx, nu)
			if err != nil {
				t.Fatal(err)
			}
			if name == "with a password" {
				realHash = u.PasswordHash
			}
			if name == "disabled" {
				if err := s.DisableUser(ctx, tenant.Org.ID, u.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		// The argon2id parameters of every hash checked must be a real hash's.
		params := realHash[:strings.LastIndex(realHash[:strings.LastIndex(realHash, "$")], "$")]
		for i, c := range []struct{ name, email, password string }{
			{"wrong password", "ada@example.com", "wrong"},
			{"admin without a password", "nopass@example.com", ""},
			{"admin without a password, any password", "nopass@example.com", "anything"},
			{"unknown e-mail", "nobody@example.com", "correct horse"},
			{"disabled admin", "gone@example.com", "correct horse"},
			{"not an admin", "plain@example.com", "correct horse"},
		} {
			// A fresh address each time: no lockout, and the hash is the only work that differs.
			_, err := s.AdminSignIn(ctx, c.email, c.password, fmt.Sprintf("192.0.2.%d", 10+i))
			if !errors.Is(err, models.ErrBadCredentials) {
				t.Fatalf("%s: %v", c.name, err)
			}
			hashes := v.take()
			if len(hashes) != 1 || !strings.HasPrefix(hashes[0], params+"$") {
				t.Errorf("%s: hashes checked = %q, want one with %s", c.name, hashes, params)
			}
		}
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "192.0.2.50"); err != nil {
			t.Fatal(err)
		}
		if hashes := v.take(); len(hashes) != 1 || hashes[0] != realHash {
			t.Fatalf("the right password checked %q", hashes)
		}
	})
}
