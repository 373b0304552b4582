package models_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestAuthenticateAPIToken(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		tenant := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatalf("valid token refused: %v", err)
		}
		if p.Organization.ID != tenant.Org.ID || p.Token.ID != tenant.TokenID {
			t.Fatalf("principal = org %d token %d, want org %d token %d", p.Organization.ID, p.Token.ID, tenant.Org.ID, tenant.TokenID)
		}
		if p.Token.LastUsedAt == nil || !p.Token.LastUsedAt.Equal(env.Clock.Now()) {
			t.Fatalf("last use not recorded: %v", p.Token.LastUsedAt)
		}

		refused := func(name, token, wantDetail string) {
			t.Helper()
			_, err := env.Store.AuthenticateAPIToken(ctx, token)
			var ae *models.AuthError
			if !errors.As(err, &ae) || !errors.Is(err, models.ErrUnauthorized) {
				t.Fatalf("%s: err = %v, want *AuthError", name, err)
			}
			if ae.Message.ID != wantDetail {
				t.Fatalf("%s: message %v, want %s", name, ae.Message, wantDetail)
			}
		}
		// Same selector, wrong verifier.
		tampered := tenant.Token[:len(tenant.Token)-1] + flip(tenant.Token[len(tenant.Token)-1])
		refused("tampered", tampered, "error.token_unknown")
		refused("garbage", "not-a-token", "error.token_unknown")
		refused("unknown selector", "mrt_000000000000000000000000_"+strings.Repeat("0", 64), "error.token_unknown")

		if err := env.Store.RevokeAPIToken(ctx, tenant.TokenID); err != nil {
			t.Fatal(err)
		}
		refused("revoked", tenant.Token, "error.token_revoked")

		other := env.NewTenant(t, "Off")
		if err := env.Store.SetOrganizationAPIEnabled(ctx, other.Org.ID, false); err != nil {
			t.Fatal(err)
		}
		refused("api disabled", other.Token, "error.api_disabled")
	})
}

func TestTokenLastUsedIsWrittenAtMostOncePerMinute(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		tenant := env.NewTenant(t, "Acme")
		first := env.Clock.Now()
		if _, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token); err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(10 * time.Second)
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Token.LastUsedAt.Equal(first) {
			t.Fatalf("last use rewritten within a minute: %v", p.Token.LastUsedAt)
		}
		env.Clock.Advance(2 * time.Minute)
		if p, err = env.Store.AuthenticateAPIToken(ctx, tenant.Token); err != nil {
			t.Fatal(err)
		}
		if !p.Token.LastUsedAt.Equal(env.Clock.Now()) {
			t.Fatalf("last use = %v, want %v", p.Token.LastUsedAt, env.Clock.Now())
		}
	})
}

func TestRevokeUnknownToken(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		if err := env.Store.RevokeAPIToken(t.Context(), 999); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})
}

func flip(c byte) string {
	if c == '0' {
		return "1"
	}
	return "0"
}
