package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

func TestBearerTokenRefusals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		revoked := env.NewTenant(t, "Revoked")
		if err := env.Store.RevokeAPIToken(t.Context(), revoked.TokenID); err != nil {
			t.Fatal(err)
		}
		off := env.NewTenant(t, "Off")
		if err := env.Store.SetOrganizationAPIEnabled(t.Context(), off.Org.ID, false); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name, header, detail string
		}{
			{"missing", "", "Authorization"},
			{"malformed scheme", "Basic " + tenant.Token, "Bearer <token>"},
			{"malformed empty bearer", "Bearer ", "Bearer <token>"},
			{"unknown", "Bearer mrt_000000000000000000000000_" + strings.Repeat("ab", 32), "not recognized"},
			{"garbage", "Bearer hello", "not recognized"},
			{"revoked", "Bearer " + revoked.Token, "revoked"},
			{"api permission off", "Bearer " + off.Token, "not enabled"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				req := api(http.MethodGet, "/api/v1/documents/whatever", "", nil)
				if tc.header != "" {
					req.Header.Set("Authorization", tc.header)
				}
				res := s.do(req)
				p := res.problem(http.StatusUnauthorized)
				if !strings.HasPrefix(res.Header().Get("WWW-Authenticate"), "Bearer") {
					t.Fatalf("WWW-Authenticate = %q", res.Header().Get("WWW-Authenticate"))
				}
				if !strings.Contains(p.Detail, tc.detail) {
					t.Fatalf("detail %q does not mention %q", p.Detail, tc.detail)
				}
				if p.Type != "/problems/unauthorized" {
					t.Fatalf("type = %q", p.Type)
				}
			})
		}
		// The valid token passes authentication (and then finds no such document).
		s.do(api(http.MethodGet, "/api/v1/documents/whatever", tenant.Token, nil)).problem(http.StatusNotFound)
	})
}
