package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
)

// browser keeps the cookies of one browser across requests.
type browser struct {
	s       *server
	cookies map[string]*http.Cookie
	// remoteAddr, when set, is the client address of every request.
	remoteAddr string
}

func (s *server) browser() *browser { return &browser{s: s, cookies: map[string]*http.Cookie{}} }

func (b *browser) do(req *http.Request) *response {
	for _, c := range b.cookies {
		req.AddCookie(c)
	}
	req.Header.Set("Accept", "text/html")
	if b.remoteAddr != "" {
		req.RemoteAddr = b.remoteAddr
	}
	res := b.s.do(req)
	for _, c := range res.Result().Cookies() {
		b.cookies[c.Name] = c
	}
	return res
}

func (b *browser) get(path string) *response {
	return b.do(httptest.NewRequest(http.MethodGet, path, nil))
}

func (b *browser) post(path string, form url.Values) *response {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// open follows a room URL and returns the room page's path.
func (b *browser) open(roomURL string) string {
	b.s.t.Helper()
	res := b.get(strings.TrimPrefix(roomURL, testBaseURL)).status(http.StatusSeeOther)
	loc := res.Header().Get("Location")
	if !strings.HasPrefix(loc, "/rooms/") || strings.Contains(loc, "mrr_") {
		b.s.t.Fatalf("redirect to %q", loc)
	}
	return loc
}

// csrf reads the CSRF token from a room page.
func csrf(t *testing.T, html string) string {
	t.Helper()
	const marker = `<meta name="csrf-token" content="`
	i := strings.Index(html, marker)
	if i < 0 {
		t.Fatal("room page has no csrf-token meta")
	}
	rest := html[i+len(marker):]
	return rest[:strings.IndexByte(rest, '"')]
}

func TestRoomLinkBindsTheBrowserSession(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		other := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))

		b := s.browser()
		res := b.get(strings.TrimPrefix(r.URL, testBaseURL)).status(http.StatusSeeOther)
		cookie := b.cookies["markuproom_room"]
		if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure {
			t.Fatalf("session cookie = %+v", cookie)
		}
		if res.Header().Get("Referrer-Policy") != "no-referrer" {
			t.Fatal("capability URL response lacks Referrer-Policy: no-referrer")
		}
		page := b.get("/rooms/" + r.ID).status(http.StatusOK)
		html := page.Body.String()
		for _, want := range []string{"Pat Buyer", "Robin Seller", "contract", "3 pages", "Sam Sender"} {
			if !strings.Contains(html, want) {
				t.Errorf("room page lacks %q", want)
			}
		}
		h := page.Header()
		if h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
			t.Fatalf("security headers: %v", h)
		}
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Fatalf("CSP = %q", csp)
		}
		if strings.Contains(html, "<script>") || strings.Contains(html, " style=") {
			t.Fatal("room page has inline script or style")
		}

		// Another browser, without the cookie, is refused; so is this one for a room it never opened.
		s.browser().get("/rooms/" + r.ID).status(http.StatusForbidden)
		b.get("/rooms/" + other.ID).status(http.StatusForbidden)
		// Opening the second link adds it to the same session.
		b.open(other.URL)
		b.get("/rooms/" + other.ID).status(http.StatusOK)
		b.get("/rooms/" + r.ID).status(http.StatusOK)
	})
}

func TestRoomLinkErrors(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		b := s.browser()
		for _, bad := range []string{"/markup-room/nonsense", "/markup-room/" + strings.TrimPrefix(r.URL, testBaseURL+"/markup-room/") + "x"} {
			res := b.get(bad).status(http.StatusNotFound)
			if !strings.HasPrefix(res.Header().Get("Content-Type"), "text/html") || strings.Contains(res.Body.String(), "goroutine") {
				t.Fatalf("%s: not a friendly HTML page", bad)
			}
		}
		path := b.open(r.URL)
		env.Clock.Advance(24*time.Hour + time.Minute)
		res := b.get(strings.TrimPrefix(r.URL, testBaseURL)).status(http.StatusGone)
		if !strings.Contains(res.Body.String(), "expired") {
			t.Fatalf("410 page does not say the link expired: %s", truncate(res.Body.String()))
		}
		// The binding ends with the room: the browser that opened it is told it expired.
		if res := b.get(path).status(http.StatusGone); !strings.Contains(res.Body.String(), "expired") {
			t.Fatal("the room page does not say the link expired")
		}
	})
}

func TestSecureCookieBehindHTTPS(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env, func(d *handlers.Deps) { d.Config.BaseURL = "https://markup.example" })
	tenant := env.NewTenant(t, "Acme")
	r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
	b := s.browser()
	b.get(strings.TrimPrefix(r.URL, "https://markup.example")).status(http.StatusSeeOther)
	if c := b.cookies["markuproom_room"]; c == nil || !c.Secure {
		t.Fatalf("cookie behind https is not Secure: %+v", c)
	}
}

// flagControls names, for each configuration flag, a marker of its control in the room page.
func flagControls() map[string]string {
	return map[string]string{
		"idv.kba":                         `data-control="kba"`,
		"idv.credentialAnalysis":          `data-control="credential-analysis"`,
		"authentication.personalPassword": `<option value="personal-password"`,
		"authentication.twoFactor":        `<option value="two-factor-authentication"`,
		"documents.rename":                `data-control="document-rename"`,
		"documents.edit":                  `data-control="tag-palette"`,
		"documents.advancedEdit":          `data-control="page-actions"`,
		"participants.add":                `data-control="participant-add"`,
		"participants.edit":               `data-control="participant-edit"`,
		"participants.remove":             `data-control="participant-remove"`,
	}
}

func TestEachFlagShowsOrHidesItsControl(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		for flag, marker := range flagControls() {
			group, key, _ := strings.Cut(flag, ".")
			for _, on := range []bool{true, false} {
				body := roomBody(tenant, d)
				body["config"] = obj{group: obj{key: on}}
				r := s.createRoom(tenant.Token, body)
				b := s.browser()
				html := b.get(b.open(r.URL)).status(http.StatusOK).Body.String()
				if got := strings.Contains(html, marker); got != on {
					t.Errorf("config.%s=%v: control %s shown=%v", flag, on, marker, got)
				}
			}
		}
		// The "Add Participant" button text and the dropdown entries follow their flags too.
		body := roomBody(tenant, d)
		body["config"] = obj{"participants": obj{"add": false, "edit": false, "remove": false}}
		b := s.browser()
		html := b.get(b.open(s.createRoom(tenant.Token, body).URL)).Body.String()
		for _, word := range []string{"Add Participant", ">Edit<", ">Remove<"} {
			if strings.Contains(html, word) {
				t.Errorf("%q shown with its flag off", word)
			}
		}
	})
}

func TestRoomEndpointsRefuseWhatTheConfigTurnsOff(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		participant := url.Values{"firstName": {"Ann"}, "lastName": {"Lee"}, "email": {"ann@example.com"},
			"authenticationType": {"none"}, "twoFactorContact": {"email"}}
		with := func(extra map[string]string) url.Values {
			v := url.Values{}
			for k, vs := range participant {
				v[k] = vs
			}
			for k, x := range extra {
				v.Set(k, x)
			}
			return v
		}
		cases := []struct {
			flag string
			act  func(b *browser, roomPath, firstParticipant string, token string) *response
		}{
			{"participants.add", func(b *browser, p, _ string, tok string) *response {
				return b.post(p+"/participants", with(map[string]string{"csrf": tok}))
			}},
			{"participants.edit", func(b *browser, p, pid string, tok string) *response {
				return b.post(p+"/participants/"+pid, with(map[string]string{"csrf": tok}))
			}},
			{"participants.remove", func(b *browser, p, pid string, tok string) *response {
				return b.post(p+"/participants/"+pid+"/remove", url.Values{"csrf": {tok}})
			}},
			{"documents.rename", func(b *browser, p, _ string, tok string) *response {
				return b.post(p+"/documents/0/title", url.Values{"csrf": {tok}, "title": {"New"}})
			}},
			{"idv.kba", func(b *browser, p, _ string, tok string) *response {
				return b.post(p+"/participants", with(map[string]string{"csrf": tok, "kbaRequired": "on"}))
			}},
			{"idv.credentialAnalysis", func(b *browser, p, _ string, tok string) *response {
				return b.post(p+"/participants", with(map[string]string{"csrf": tok, "credAnalysisRequired": "on"}))
			}},
			{"authentication.personalPassword", func(b *browser, p, _ string, tok string) *response {
				return b.post(p+"/participants", with(map[string]string{"csrf": tok, "authenticationType": "personal-password", "personalPassword": "pw-123456"}))
			}},
			{"authentication.twoFactor", func(b *browser, p, _ string, tok string) *response {
				return b.post(p+"/participants", with(map[string]string{"csrf": tok, "authenticationType": "two-factor-authentication", "twoFactorContact": "email"}))
			}},
		}
		for _, tc := range cases {
			t.Run(tc.flag, func(t *testing.T) {
				group, key, _ := strings.Cut(tc.flag, ".")
				for _, on := range []bool{false, true} {
					body := roomBody(tenant, d)
					body["config"] = obj{group: obj{key: on}}
					r := s.createRoom(tenant.Token, body)
					b := s.browser()
					path := b.open(r.URL)
					html := b.get(path).Body.String()
					tx, err := env.Store.GetTransaction(t.Context(), tenant.Org.ID, r.TransactionID)
					if err != nil {
						t.Fatal(err)
					}
					res := tc.act(b, path, url.PathEscape(tx.Participants[0].ParticipantID), csrf(t, html))
					if !on && res.Code != http.StatusForbidden {
						t.Fatalf("config.%s=false: status %d, want 403", tc.flag, res.Code)
					}
					if on && res.Code != http.StatusSeeOther {
						t.Fatalf("config.%s=true: status %d, want 303; body %s", tc.flag, res.Code, truncate(res.Body.String()))
					}
				}
			})
		}
	})
}
