package handlers_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// embedRoom creates a room framed by origin, after the organization allowed it.
func embedRoom(t *testing.T, s *server, env *modelstest.Env, tenant *modelstest.Tenant, origin string) roomResp {
	t.Helper()
	if _, err := env.Store.SetOrganizationEmbedOrigins(context.Background(), tenant.Org.ID, []string{origin}); err != nil {
		t.Fatal(err)
	}
	body := roomBody(tenant, s.upload(tenant.Token))
	body["embed"] = obj{"origin": origin}
	return s.createRoom(tenant.Token, body)
}

// Operation B's embed.origin: refused with its pointer when malformed or
// not allowed, returned by GET when stored.
func TestCreateRoomEmbedOriginIsChecked(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		body := roomBody(tenant, d)
		body["embed"] = obj{"origin": "https://app.example.com"}
		p := s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/embed/origin", "embed_origin_not_allowed")
		body["embed"] = obj{"origin": "http://app.example.com"}
		p = s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)).problem(http.StatusBadRequest)
		hasError(t, p, "#/embed/origin", "insecure_origin")
		body["embed"] = obj{}
		p = s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)).problem(http.StatusBadRequest)
		hasError(t, p, "#/embed/origin", "required")

		r := embedRoom(t, s, env, tenant, "https://App.Example.com:443")
		var got struct {
			Embed *struct{ Origin string } `json:"embed"`
		}
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+r.ID, tenant.Token, nil)).status(http.StatusOK).json(&got)
		if got.Embed == nil || got.Embed.Origin != "https://app.example.com" {
			t.Fatalf("GET room embed = %+v", got.Embed)
		}
		plain := s.createRoom(tenant.Token, roomBody(tenant, d))
		var none map[string]any
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+plain.ID, tenant.Token, nil)).status(http.StatusOK).json(&none)
		if _, ok := none["embed"]; ok {
			t.Fatalf("a room without embed reports one: %v", none)
		}
	})
}

// An embedded room's pages may be framed by its origin only; every other
// room keeps frame-ancestors 'none' and X-Frame-Options DENY.
func TestEmbeddedRoomFrameHeaders(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		plain := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		framed := embedRoom(t, s, env, tenant, "http://localhost:5173")

		b := s.browser()
		page := b.get(b.open(plain.URL)).status(http.StatusOK)
		if csp := page.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || page.Header().Get("X-Frame-Options") != "DENY" {
			t.Fatalf("plain room: CSP %q, XFO %q", csp, page.Header().Get("X-Frame-Options"))
		}
		e := s.browser()
		link := e.get(strings.TrimPrefix(framed.URL, testBaseURL)).status(http.StatusSeeOther)
		loc := link.Header().Get("Location")
		if !strings.HasPrefix(loc, "/rooms/"+framed.ID+"?room_session=") {
			t.Fatalf("embedded room link redirects to %q", loc)
		}
		if e.cookies["markuproom_room"] != nil {
			t.Error("an embedded room's link sets a cookie a frame would be refused")
		}
		// The frame may get no cookie: a browser without any follows the address alone.
		page = s.browser().get(loc).status(http.StatusOK)
		csp := page.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors http://localhost:5173;") || strings.Contains(csp, "'none';  form") || page.Header().Get("X-Frame-Options") != "" {
			t.Fatalf("embedded room: CSP %q, XFO %q", csp, page.Header().Get("X-Frame-Options"))
		}
		body := page.Body.String()
		for _, want := range []string{`<body class="app app--embedded"`, `data-embed-origin="http://localhost:5173"`, `data-transaction-id="` + framed.TransactionID + `"`, `<meta name="room-session" content="`} {
			if !strings.Contains(body, want) {
				t.Errorf("embedded room page lacks %s", want)
			}
		}
		if strings.Contains(b.get("/rooms/"+plain.ID).Body.String(), "room-session") {
			t.Error("a plain room's page carries its session")
		}
	})
}

// The session an embedded room's page carries works as the cookie does, by
// header or (for what the browser loads itself) query, and CSRF still
// holds: a request with the session but without the room's token is
// refused, and so is a change with the session in its address only.
func TestEmbeddedRoomSessionTravelsWithThePage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := embedRoom(t, s, env, tenant, "https://app.example.com")
		loc := s.browser().get(strings.TrimPrefix(r.URL, testBaseURL)).status(http.StatusSeeOther).Header().Get("Location")
		u, _ := url.Parse(loc)
		session := u.Query().Get("room_session")
		pageHTML := s.browser().get(loc).status(http.StatusOK).Body.String()
		token := csrf(t, pageHTML)
		if !strings.Contains(pageHTML, "?room_session="+url.QueryEscape(session)) {
			t.Error("the room's PDF addresses do not carry the session")
		}

		participant := url.Values{"firstName": {"Ann"}, "lastName": {"Lee"}, "email": {"ann@example.com"},
			"authenticationType": {"none"}, "twoFactorContact": {"email"}}
		send := func(withToken bool) *response {
			req := httptestRequest(http.MethodPost, "/rooms/"+r.ID+"/participants", participant)
			req.Header.Set("X-Room-Session", session)
			if withToken {
				req.Header.Set("X-CSRF-Token", token)
			}
			return s.do(req)
		}
		send(false).status(http.StatusForbidden)
		send(true).status(http.StatusSeeOther)
		// A change with the session in its address only (the page's scripts send it as the header): not the room's.
		inAddress := httptestRequest(http.MethodPost, "/rooms/"+r.ID+"/participants?room_session="+url.QueryEscape(session), participant)
		inAddress.Header.Set("X-CSRF-Token", token)
		s.do(inAddress).status(http.StatusForbidden)
		// No session at all: this browser never opened the room.
		s.browser().get("/rooms/" + r.ID).status(http.StatusForbidden)
		// A forged session is no session.
		req := httptestRequest(http.MethodGet, "/rooms/"+r.ID, nil)
		req.Header.Set("X-Room-Session", strings.ToUpper(session))
		s.do(req).status(http.StatusForbidden)

		// The checklist's completion form carries the session too, and its
		// answer (completed) sends the page back with it and the event.
		checklist := html.UnescapeString(s.browser().get("/rooms/" + r.ID + "/checklist?room_session=" + url.QueryEscape(session)).status(http.StatusOK).Body.String())
		if !strings.Contains(checklist, "/rooms/"+r.ID+"/complete?room_session=") {
			t.Fatal("the completion form does not carry the session")
		}
	})
}

// An embedded room's requests carry no language cookie: a page whose
// visitor chose a language (?lang=) says it (meta markup-lang, the htmx
// headers, the addresses the browser loads itself), its requests send it as
// X-Markup-Lang and are answered in it; a page without a choice says none.
func TestEmbeddedRoomCarriesItsChosenLanguage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := embedRoom(t, s, env, tenant, "https://app.example.com")
		loc := s.browser().get(strings.TrimPrefix(r.URL, testBaseURL)).status(http.StatusSeeOther).Header().Get("Location")
		u, _ := url.Parse(loc)
		session := u.Query().Get("room_session")

		plain := s.browser().get(loc).status(http.StatusOK).Body.String()
		if strings.Contains(plain, "markup-lang") || strings.Contains(plain, "X-Markup-Lang") {
			t.Error("a page whose visitor chose no language names one")
		}
		if !strings.Contains(plain, `class="room-header`) || !strings.Contains(html.UnescapeString(plain[strings.Index(plain, `class="app-toolbar room-header"`):]), "data-language-menu") {
			t.Error("the embedded room's header has no language menu")
		}
		page := html.UnescapeString(s.browser().get(loc + "&lang=es").status(http.StatusOK).Body.String())
		for _, want := range []string{`<html lang="es" dir="ltr">`, `<meta name="markup-lang" content="es">`, `"X-Markup-Lang":"es"`} {
			if !strings.Contains(page, want) {
				t.Errorf("the Spanish embedded page lacks %s", want)
			}
		}
		// An htmx request with the header answers in Spanish.
		req := httptestRequest(http.MethodGet, "/rooms/"+r.ID+"/checklist", nil)
		req.Header.Set("X-Room-Session", session)
		req.Header.Set("X-Markup-Lang", "es")
		req.Header.Set("HX-Request", "true")
		res := s.do(req).status(http.StatusOK)
		checklist := html.UnescapeString(res.Body.String())
		if res.Header().Get("Content-Language") != "es" || !strings.Contains(checklist, "Impide la sesión") {
			t.Fatalf("the checklist is not Spanish: %s", truncate(checklist))
		}
		// The completion form (a page the browser loads itself) keeps the language.
		if !strings.Contains(checklist, "/complete?lang=es&room_session=") {
			t.Error("the completion form does not carry the chosen language")
		}
		// A host that opens the link with ?lang= gets the room in that language.
		loc = s.browser().get(strings.TrimPrefix(r.URL, testBaseURL) + "?lang=ar").status(http.StatusSeeOther).Header().Get("Location")
		if u, _ := url.Parse(loc); u.Query().Get("lang") != "ar" || u.Query().Get("room_session") == "" {
			t.Fatalf("the link opened with ?lang=ar goes to %s", loc)
		}
		if page := s.browser().get(loc).status(http.StatusOK).Body.String(); !strings.Contains(page, `<html lang="ar" dir="rtl">`) || !strings.Contains(page, `<meta name="markup-lang" content="ar">`) {
			t.Error("the room opened with ?lang=ar is not Arabic")
		}
	})
}

// The console's Embedding form stores the list, shows each refusal, and
// audits the change; the operator command does the same.
func TestConsoleEmbedOriginsForm(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		orgURL := "/admin/organizations/" + itoa64(acme.Org.ID)
		if page := b.get(orgURL).status(http.StatusOK).Body.String(); !strings.Contains(page, "data-embed-origins-form") {
			t.Fatal("the organization page has no embedding form")
		}
		b.post(orgURL+"/embed-origins", url.Values{"origins": {"https://a.example"}}).status(http.StatusForbidden)
		page := b.post(orgURL+"/embed-origins", url.Values{"csrf": {token}, "origins": {"https://a.example\nhttp://b.example\nhttps://c.example/x"}}).
			status(http.StatusUnprocessableEntity).Body.String()
		if strings.Count(page, `class="field__error" role="alert"`) != 2 || !strings.Contains(page, "http://b.example") {
			t.Fatal("the refused list does not show one message per bad origin")
		}
		loc := b.post(orgURL+"/embed-origins", url.Values{"csrf": {token}, "origins": {"https://A.example:443, http://localhost:8080"}}).
			status(http.StatusSeeOther).Header().Get("Location")
		loc, _, _ = strings.Cut(loc, "#") // a browser keeps the fragment to itself
		page = b.get(loc).status(http.StatusOK).Body.String()
		if !strings.Contains(page, "https://a.example\nhttp://localhost:8080</textarea>") || !strings.Contains(page, "Embedding origins saved.") {
			t.Fatal("the saved list is not shown")
		}
		events, err := env.Store.ListAuditEvents(context.Background(), models.AuditFilter{OrganizationID: &acme.Org.ID, Action: "organization.embed_origins_changed"}, models.AuditOldestFirst, 0, 10)
		if err != nil || len(events.Events) != 1 || events.Events[0].ActorName != "ada@example.com" || events.Events[0].Via != "console" ||
			events.Events[0].Summary != "Embedding origins (none) → https://a.example, http://localhost:8080" {
			t.Fatalf("audit events %+v, %v", events, err)
		}
	})
}
