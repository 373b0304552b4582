package handlers_test

import (
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// copyOf is another browser holding the same cookies (a stolen or copied cookie).
func (b *browser) copyOf(s *server) *browser {
	c := s.browser()
	c.cookies = maps.Clone(b.cookies)
	return c
}

func TestRoomCSRFTokensArePerRoom(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		a := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		b := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		participant := func(token, email string) url.Values {
			return url.Values{"csrf": {token}, "firstName": {"Ann"}, "lastName": {"Lee"}, "email": {email},
				"authenticationType": {"none"}, "twoFactorContact": {"email"}}
		}

		// An attacker opens a room of their own and learns its token; the
		// session cookie is then planted in the victim's browser, which
		// opens the victim's room in it.
		attacker := s.browser()
		pathA := attacker.open(a.URL)
		tokenA := csrf(t, attacker.get(pathA).status(http.StatusOK).Body.String())
		victim := attacker.copyOf(s)
		pathB := victim.open(b.URL)
		tokenB := csrf(t, victim.get(pathB).status(http.StatusOK).Body.String())
		if tokenA == tokenB || tokenA == "" {
			t.Fatalf("room tokens %q and %q", tokenA, tokenB)
		}
		// Room A's token is refused for room B, by form field and by header.
		victim.post(pathB+"/participants", participant(tokenA, "evil@example.com")).status(http.StatusForbidden)
		req := httptestRequest(http.MethodPost, pathB+"/participants", participant("", "evil@example.com"))
		req.Header.Set("X-CSRF-Token", tokenA)
		victim.do(req).status(http.StatusForbidden)
		// Each room works with its own token, room A still after room B was opened.
		victim.post(pathB+"/participants", participant(tokenB, "bea@example.com")).status(http.StatusSeeOther)
		victim.post(pathA+"/participants", participant(tokenA, "ann@example.com")).status(http.StatusSeeOther)
		if again := csrf(t, victim.get(pathA).status(http.StatusOK).Body.String()); again != tokenA {
			t.Fatal("room A's token changed when room B was opened")
		}
		// The checklist fragment carries the room's token too.
		if html := victim.get(pathB + "/checklist").status(http.StatusOK).Body.String(); !containsToken(html, tokenB) || containsToken(html, tokenA) {
			t.Fatal("room B's checklist does not carry room B's token")
		}
	})
}

func containsToken(html, token string) bool {
	return token != "" && strings.Contains(html, `value="`+token+`"`)
}
