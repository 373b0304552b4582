package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

func withRateLimits(l handlers.RateLimits) serverOption {
	return func(d *handlers.Deps) { d.Config.RateLimits = l }
}

// countingStore counts token lookups and rate-limit statements.
type countingStore struct {
	handlers.Store
	lookups, takes atomic.Int64
}

func (s *countingStore) AuthenticateAPIToken(ctx context.Context, token string) (*models.Principal, error) {
	s.lookups.Add(1)
	return s.Store.AuthenticateAPIToken(ctx, token)
}

func (s *countingStore) TakeRateTokens(ctx context.Context, buckets ...models.RateBucket) (models.RateDecision, error) {
	s.takes.Add(1)
	return s.Store.TakeRateTokens(ctx, buckets...)
}

func withCounting(cs **countingStore) serverOption {
	return withStore(func(st handlers.Store) handlers.Store {
		*cs = &countingStore{Store: st}
		return *cs
	})
}

// from sets the client address of req.
func from(addr string, req *http.Request) *http.Request {
	req.RemoteAddr = addr
	return req
}

// rateHeaders asserts the RateLimit-* headers of a response.
func rateHeaders(t *testing.T, r *response, limit, remaining, reset string) {
	t.Helper()
	got := [3]string{r.Header().Get("RateLimit-Limit"), r.Header().Get("RateLimit-Remaining"), r.Header().Get("RateLimit-Reset")}
	if got != [3]string{limit, remaining, reset} {
		t.Fatalf("RateLimit-Limit/Remaining/Reset = %q, want %q", got, [3]string{limit, remaining, reset})
	}
}

// limited asserts a 429 problem of code rate_limited with all its headers.
func limited(t *testing.T, r *response, retryAfter, limit, reset string) handlers.Problem {
	t.Helper()
	p := r.problem(http.StatusTooManyRequests)
	if p.Type != "/problems/too-many-requests" || p.Detail == "" || len(p.Errors) != 1 {
		t.Fatalf("429 problem: %+v", p)
	}
	hasError(t, p, "", "rate_limited")
	if got := r.Header().Get("Retry-After"); got != retryAfter {
		t.Fatalf("Retry-After = %q, want %q", got, retryAfter)
	}
	rateHeaders(t, r, limit, "0", reset)
	return p
}

func TestAPITokenOverItsBurstGets429AndOtherOrganizationsDoNot(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withRateLimits(handlers.RateLimits{API: models.RateLimit{PerSecond: 2, Burst: 3}}))
		acme, globex := env.NewTenant(t, "Acme"), env.NewTenant(t, "Globex")
		list := func(token string) *response {
			return s.do(api(http.MethodGet, "/api/v1/transactions", token, nil))
		}
		// Successful calls carry the headers too: 3 at once, 2 a second.
		rateHeaders(t, list(acme.Token).status(http.StatusOK), "3", "2", "1")
		rateHeaders(t, list(acme.Token).status(http.StatusOK), "3", "1", "1")
		rateHeaders(t, list(acme.Token).status(http.StatusOK), "3", "0", "2")
		// Over the burst: 429 on every route (s.do checks each against the OpenAPI document).
		p := limited(t, list(acme.Token), "1", "3", "2")
		if !strings.Contains(p.Detail, "rate limit") {
			t.Errorf("detail: %q", p.Detail)
		}
		limited(t, s.do(jsonReq(http.MethodPost, "/api/v1/transactions", acme.Token, obj{})), "1", "3", "2")
		limited(t, s.do(uploadReq(acme.Token, "a.pdf", pdftest.ThreePages(t), "")), "1", "3", "2")

		// Another organization's token is not slowed at all.
		for range 3 {
			list(globex.Token).status(http.StatusOK)
		}
		// Half a second later the first token has one request again.
		env.Clock.Advance(500 * time.Millisecond)
		list(acme.Token).status(http.StatusOK)
		limited(t, list(acme.Token), "1", "3", "2")
	})
}

func TestRefusedTokensAreLimitedPerAddressWithoutSlowingOthers(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		var cs *countingStore
		s := newServer(t, env, withCounting(&cs), withRateLimits(handlers.RateLimits{Anon: models.RateLimit{PerSecond: 1, Burst: 5}}))
		acme := env.NewTenant(t, "Acme")
		const attacker, client = "198.51.100.7:40000", "203.0.113.9:50000"
		guess := func(addr string) *response {
			return s.do(from(addr, api(http.MethodGet, "/api/v1/transactions", "mrt_guessed.token", nil)))
		}
		for range 5 {
			guess(attacker).problem(http.StatusUnauthorized)
		}
		limited(t, guess(attacker), "1", "5", "5")
		// From now on this instance refuses the address before any token
		// lookup and without a database statement.
		lookups, takes := cs.lookups.Load(), cs.takes.Load()
		for range 20 {
			start := time.Now()
			limited(t, guess(attacker), "1", "5", "5")
			if time.Since(start) > time.Second {
				t.Fatal("a refusal waited instead of answering")
			}
		}
		if cs.lookups.Load() != lookups || cs.takes.Load() != takes {
			t.Fatalf("refusals of a refused address still cost %d lookups and %d statements", cs.lookups.Load()-lookups, cs.takes.Load()-takes)
		}

		// A good token from another address: answered at once, one statement.
		takes = cs.takes.Load()
		start := time.Now()
		rateHeaders(t, s.do(from(client, api(http.MethodGet, "/api/v1/transactions", acme.Token, nil))).status(http.StatusOK), "500", "499", "1")
		if elapsed := time.Since(start); elapsed > time.Second {
			t.Fatalf("the good request took %v", elapsed)
		}
		if n := cs.takes.Load() - takes; n != 1 {
			t.Fatalf("a good API request made %d rate-limit statements, want 1", n)
		}
		// A wrong token from that other address counts against its own address only.
		guess(client).problem(http.StatusUnauthorized)

		// IPv6 addresses count per /64.
		for range 5 {
			guess("[2001:db8:1:2::1]:443").problem(http.StatusUnauthorized)
		}
		limited(t, guess("[2001:db8:1:2:ffff::9]:443"), "1", "5", "5")
		guess("[2001:db8:1:3::1]:443").problem(http.StatusUnauthorized)
	})
}

func TestRoomSessionsAndRoomLinksAreLimited(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withRateLimits(handlers.RateLimits{
			Room: models.RateLimit{PerSecond: 1, Burst: 4},
			Anon: models.RateLimit{PerSecond: 1, Burst: 3},
		}))
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil) // link open: address; page: session (1 of 4)
		signer := tr.participantIDs(t)[0]
		for range 3 {
			tr.add(t, tagForm(signer))
		}
		// htmx (the editor): a problem body the editor shows next to the tag.
		res := tr.send(http.MethodPost, tr.path+"/tags", tagForm(signer))
		p := limited(t, res, "1", "4", "4")
		if !strings.Contains(p.Detail, "faster than this Markup Room") {
			t.Errorf("detail: %q", p.Detail)
		}
		// A page load: the error page, in HTML, with the same headers.
		page := tr.b.get(tr.path)
		if page.Code != http.StatusTooManyRequests || !strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") ||
			page.Header().Get("Retry-After") != "1" || !strings.Contains(page.Body.String(), "faster than this Markup Room") {
			t.Fatalf("page: %d %q Retry-After %q\n%s", page.Code, page.Header().Get("Content-Type"), page.Header().Get("Retry-After"), truncate(page.Body.String()))
		}

		// Another browser on the same room and address has its own session bucket.
		other := s.browser()
		path := other.open(tr.room.URL)
		other.get(path).status(http.StatusOK)

		// Link opens count per address: 3 opens used (two above, one here), the fourth is refused.
		third := s.browser()
		third.open(tr.room.URL)
		link := third.get(strings.TrimPrefix(tr.room.URL, testBaseURL))
		if link.Code != http.StatusTooManyRequests || link.Header().Get("Retry-After") != "1" || !strings.Contains(link.Body.String(), "from your address") {
			t.Fatalf("fourth link open: %d\n%s", link.Code, truncate(link.Body.String()))
		}
		// Guessed links too, even from a fresh browser.
		s.browser().get("/markup-room/mrr_guessed").status(http.StatusTooManyRequests)

		// A second later the session has a token again.
		env.Clock.Advance(time.Second)
		tr.add(t, tagForm(signer))
	})
}

func TestUploadsAreCountedPerMinuteApart(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withRateLimits(handlers.RateLimits{UploadsPerMinute: 2}))
		tenant := env.NewTenant(t, "Acme")
		pdf := pdftest.ThreePages(t)
		s.do(uploadReq(tenant.Token, "a.pdf", pdf, "")).status(http.StatusCreated)
		alias := uploadReq(tenant.Token, "b.pdf", pdf, "")
		alias.URL.Path = "/api/v1/document/upload"
		s.do(alias).status(http.StatusCreated)
		// The third upload within the minute is refused, through either route;
		// the token's other calls go on.
		p := limited(t, s.do(uploadReq(tenant.Token, "c.pdf", pdf, "")), "30", "2", "60")
		if !strings.Contains(p.Detail, "uploads") {
			t.Errorf("detail: %q", p.Detail)
		}
		s.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)).status(http.StatusOK)

		// The room's upload counts per room session. (Opening the room takes one API upload: 30 s on.)
		env.Clock.Advance(30 * time.Second)
		tr := openTagRoom(t, s, tenant, nil)
		tr.upload(tr.csrf, "d.pdf", pdf, false).status(http.StatusSeeOther)
		tr.upload(tr.csrf, "e.pdf", pdf, false).status(http.StatusSeeOther)
		p = limited(t, tr.upload(tr.csrf, "f.pdf", pdf, true), "30", "2", "60")
		if !strings.Contains(p.Detail, "uploads") {
			t.Errorf("detail: %q", p.Detail)
		}
		tr.b.get(tr.path).status(http.StatusOK)
		env.Clock.Advance(30 * time.Second)
		tr.upload(tr.csrf, "g.pdf", pdf, false).status(http.StatusSeeOther)
	})
}

func TestSignInPostsAreLimitedPerAddress(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withRateLimits(handlers.RateLimits{Anon: models.RateLimit{PerSecond: 0.1, Burst: 2}}))
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		b := s.browser()
		token := csrf(t, b.get("/admin/login").status(http.StatusOK).Body.String())
		form := url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"wrong"}}
		b.post("/admin/login", form).status(http.StatusUnauthorized)
		b.post("/admin/login", form).status(http.StatusUnauthorized)
		res := b.post("/admin/login", form)
		if res.Code != http.StatusTooManyRequests || res.Header().Get("Retry-After") != "10" || !strings.Contains(res.Body.String(), "from your address") {
			t.Fatalf("third sign-in: %d Retry-After %q\n%s", res.Code, res.Header().Get("Retry-After"), truncate(res.Body.String()))
		}
		// The page itself is not limited.
		b.get("/admin/login").status(http.StatusOK)
	})
}

func TestRateLimitsOffLetsEverythingThrough(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tiny := models.RateLimit{PerSecond: 1, Burst: 1}
		var cs *countingStore
		s := newServer(t, env, withCounting(&cs), withRateLimits(handlers.RateLimits{Off: true, API: tiny, Room: tiny, Anon: tiny, UploadsPerMinute: 1}))
		tenant := env.NewTenant(t, "Acme")
		for range 5 {
			res := s.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)).status(http.StatusOK)
			if res.Header().Get("RateLimit-Limit") != "" {
				t.Fatal("RateLimit-Limit sent with limits off")
			}
			s.do(api(http.MethodGet, "/api/v1/transactions", "mrt_bad", nil)).status(http.StatusUnauthorized)
			s.do(uploadReq(tenant.Token, "a.pdf", pdftest.ThreePages(t), "")).status(http.StatusCreated)
		}
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		for range 5 {
			tr.add(t, tagForm(signer))
			tr.b.open(tr.room.URL)
		}
		if n := cs.takes.Load(); n != 0 {
			t.Fatalf("%d rate-limit statements with limits off", n)
		}
	})
}

func TestRateLimitsAreSharedByServerInstances(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		limits := withRateLimits(handlers.RateLimits{API: models.RateLimit{PerSecond: 1, Burst: 4}})
		first := newServer(t, env, limits)
		other := env.AnotherInstance(t)
		second := newServer(t, env, limits, withStore(func(handlers.Store) handlers.Store { return other }))
		tenant := env.NewTenant(t, "Acme")
		for i := range 4 {
			srv := []*server{first, second}[i%2]
			srv.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)).status(http.StatusOK)
		}
		limited(t, second.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)), "1", "4", "4")
		limited(t, first.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)), "1", "4", "4")
	})
}

// TestOpenAPIDocumentsTooManyRequestsEverywhere fails when an /api/v1
// operation does not document its 429 and the headers that come with it.
func TestOpenAPIDocumentsTooManyRequestsEverywhere(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	for path, item := range c.doc.Paths.Map() {
		for method, op := range item.Operations() {
			r := op.Responses.Value("429")
			if r == nil || r.Value == nil {
				t.Errorf("%s %s documents no 429", method, path)
				continue
			}
			for _, h := range []string{"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
				if hv := r.Value.Headers[h]; hv == nil || hv.Value == nil || !hv.Value.Required {
					t.Errorf("%s %s: 429 does not require header %s", method, path, h)
				}
			}
		}
	}
}

// A store whose rate table errors still limits: requests past the burst
// are refused with 429 (the process's own buckets stand in).
func TestRateLimitsHoldWhenTheRateTableFails(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withRateLimits(handlers.RateLimits{API: models.RateLimit{PerSecond: 2, Burst: 3}}))
		acme := env.NewTenant(t, "Acme")
		if err := env.DB.DB.Exec("DROP TABLE rate_limits").Error; err != nil {
			t.Fatal(err)
		}
		list := func() *response { return s.do(api(http.MethodGet, "/api/v1/transactions", acme.Token, nil)) }
		rateHeaders(t, list().status(http.StatusOK), "3", "2", "1")
		list().status(http.StatusOK)
		list().status(http.StatusOK)
		limited(t, list(), "1", "3", "2")
		limited(t, s.do(uploadReq(acme.Token, "a.pdf", pdftest.ThreePages(t), "")), "1", "3", "2")
	})
}
