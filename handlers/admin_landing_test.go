package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// Signing in lands on the console page the browser asked for before it was
// sent to the sign-in page (issue 40, item 3), once; the sign-in page's own
// address stays /admin/login; a page asked for by another browser, or none,
// lands on the transactions; an address named in the sign-in's own URL or
// form is never followed (no open redirect).
func TestSigningInLandsOnThePageAskedFor(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		signIn := func(b *browser) string {
			t.Helper()
			token := csrf(t, b.get("/admin/login").status(http.StatusOK).Body.String())
			res := b.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"correct horse"}}).status(http.StatusSeeOther)
			return res.Header().Get("Location")
		}

		b := s.browser()
		for _, asked := range []string{"/admin", "/admin/audit?action=room.created&limit=5"} {
			res := b.get(asked).status(http.StatusSeeOther)
			if loc := res.Header().Get("Location"); loc != "/admin/login" {
				t.Fatalf("%s sent a signed-out browser to %q", asked, loc)
			}
		}
		if got := signIn(b); got != "/admin/audit?action=room.created&limit=5" {
			t.Errorf("signed in to %q, want the last page asked for", got)
		}
		// Once: the next sign-in of this browser (after signing out) goes to the transactions.
		out := csrf(t, b.get("/admin/transactions").status(http.StatusOK).Body.String())
		b.post("/admin/logout", url.Values{"csrf": {out}}).status(http.StatusSeeOther)
		if got := signIn(b); got != "/admin/transactions" {
			t.Errorf("a second sign-in went to %q, want /admin/transactions", got)
		}
		// Another browser asked for nothing.
		if got := signIn(s.browser()); got != "/admin/transactions" {
			t.Errorf("a fresh browser signed in to %q", got)
		}
		// No open redirect: an address named in the sign-in's URL or form is
		// not followed, only a console page the browser itself asked for.
		evil := s.browser()
		token := csrf(t, evil.get("/admin/login?next=https://evil.example/admin").status(http.StatusOK).Body.String())
		res := evil.post("/admin/login?next=//evil.example/admin", url.Values{"csrf": {token}, "email": {"ada@example.com"},
			"password": {"correct horse"}, "next": {"https://evil.example/admin"}}).status(http.StatusSeeOther)
		if got := res.Header().Get("Location"); got != "/admin/transactions" {
			t.Errorf("a sign-in naming another site went to %q", got)
		}
	})
}
