package models_test

import (
	"errors"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// The token check is remembered for a second (docs/decisions.md, "The token
// check is remembered for a second"): a revocation made by another instance
// is seen within that second, one made by this instance at once.
func TestTokenCheckIsRememberedForASecondAcrossInstances(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		other := env.AnotherInstance(t)
		tenant := env.NewTenant(t, "Acme")
		start := time.Now()
		if _, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token); err != nil {
			t.Fatal(err)
		}
		if err := other.RevokeAPIToken(ctx, tenant.TokenID); err != nil {
			t.Fatal(err)
		}
		// Remembered: this instance has not read the row again yet (unless the
		// machine was so slow that the second is already over).
		_, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if elapsed := time.Since(start); elapsed < 900*time.Millisecond && err != nil {
			t.Fatalf("a token checked %s ago was read again: %v", elapsed, err)
		}
		time.Sleep(time.Until(start.Add(1100 * time.Millisecond)))
		if _, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token); !errors.Is(err, models.ErrUnauthorized) {
			t.Fatalf("a token revoked by another instance is still accepted after a second: %v", err)
		}
	})
}

func TestTokenCheckForgetsAtOnceWhatThisInstanceChanges(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		accepted := func(token string) {
			t.Helper()
			if _, err := env.Store.AuthenticateAPIToken(ctx, token); err != nil {
				t.Fatal(err)
			}
		}
		refused := func(what, token string) {
			t.Helper()
			if _, err := env.Store.AuthenticateAPIToken(ctx, token); !errors.Is(err, models.ErrUnauthorized) {
				t.Fatalf("%s: still accepted (%v)", what, err)
			}
		}
		off := env.NewTenant(t, "Off")
		accepted(off.Token)
		if err := env.Store.SetOrganizationAPIEnabled(ctx, off.Org.ID, false); err != nil {
			t.Fatal(err)
		}
		refused("API access turned off", off.Token)
		if err := env.Store.SetOrganizationAPIEnabled(ctx, off.Org.ID, true); err != nil {
			t.Fatal(err)
		}
		accepted(off.Token)

		console := env.NewTenant(t, "Console")
		accepted(console.Token)
		if err := env.Store.RevokeOrganizationToken(ctx, console.Org.ID, console.TokenID); err != nil {
			t.Fatal(err)
		}
		refused("revoked from the console", console.Token)

		// Another organization's change leaves a token remembered, and a
		// remembered principal is a copy the caller may change.
		kept := env.NewTenant(t, "Kept")
		p, err := env.Store.AuthenticateAPIToken(ctx, kept.Token)
		if err != nil {
			t.Fatal(err)
		}
		p.Organization.Name, p.Token.Name = "changed", "changed"
		if err := env.Store.SetOrganizationAPIEnabled(ctx, off.Org.ID, false); err != nil {
			t.Fatal(err)
		}
		p, err = env.Store.AuthenticateAPIToken(ctx, kept.Token)
		if err != nil || p.Organization.Name != "Kept" || p.Token.ID != kept.TokenID || p.Token.Name == "changed" {
			t.Fatalf("principal %+v %+v, %v", p.Organization, p.Token, err)
		}
	})
}
