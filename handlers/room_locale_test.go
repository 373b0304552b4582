package handlers_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// Operation B's "locale" (docs/i18n.md): one of the product's languages,
// case-insensitively, stored in its canonical spelling and returned by GET;
// anything else is refused at #/locale (and a participant's at its own pointer).
func TestCreateRoomLocaleIsChecked(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		for _, bad := range []any{"pt", "EN-us", 123, ""} {
			body := roomBody(tenant, d)
			body["locale"] = bad
			p := s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)).problem(http.StatusBadRequest)
			if len(p.Errors) != 1 || p.Errors[0].Pointer != "#/locale" {
				t.Fatalf("locale %v: errors %+v", bad, p.Errors)
			}
		}
		body := roomBody(tenant, d)
		body["locale"] = "es"
		body["participants"].(arr)[1].(obj)["locale"] = "xx"
		p := s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)).problem(http.StatusBadRequest)
		hasError(t, p, "#/participants/1/locale", "invalid_enum")

		body["locale"] = "EN"
		body["participants"].(arr)[1].(obj)["locale"] = "De"
		r := s.createRoom(tenant.Token, body)
		var got map[string]any
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+r.ID, tenant.Token, nil)).status(http.StatusOK).json(&got)
		if got["locale"] != "en" {
			t.Fatalf("GET room locale = %v", got["locale"])
		}
		var tx struct {
			Participants []map[string]any `json:"participants"`
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+r.TransactionID, tenant.Token, nil)).status(http.StatusOK).json(&tx)
		if _, ok := tx.Participants[0]["locale"]; ok || tx.Participants[1]["locale"] != "de" {
			t.Fatalf("participants' locales: %v", tx.Participants)
		}
		plain := s.createRoom(tenant.Token, roomBody(tenant, d))
		var none map[string]any
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+plain.ID, tenant.Token, nil)).status(http.StatusOK).json(&none)
		if _, ok := none["locale"]; ok {
			t.Fatalf("a room without locale reports one: %v", none)
		}
	})
}

// A room speaks its locale, pages and fragments alike, until the visitor
// picks a language, which is remembered.
func TestRoomFollowsItsLocale(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		body := roomBody(tenant, s.upload(tenant.Token))
		body["locale"] = "es"
		r := s.createRoom(tenant.Token, body)
		b := s.browser()
		path := b.open(r.URL)
		page := b.get(path).status(http.StatusOK)
		if html := page.Body.String(); !strings.Contains(html, `<html lang="es" dir="ltr"`) || page.Header().Get("Content-Language") != "es" {
			t.Fatalf("room page: Content-Language %q, %s", page.Header().Get("Content-Language"), html[:min(300, len(html))])
		}
		if got := b.get(path + "/checklist").status(http.StatusOK).Header().Get("Content-Language"); got != "es" {
			t.Fatalf("a fragment speaks %q", got)
		}
		fr := b.get(path + "?lang=fr").status(http.StatusOK)
		if !strings.Contains(fr.Body.String(), `<html lang="fr"`) {
			t.Fatal("?lang=fr does not override the room's locale")
		}
		if got := b.get(path).status(http.StatusOK).Header().Get("Content-Language"); got != "fr" {
			t.Fatalf("the chosen language is not remembered: %q", got)
		}
	})
}

// Invitations speak the participant's locale, else the room's, fixed when
// queued; a caller's subject stays as given.
func TestInvitationsFollowLocales(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		body := roomBody(tenant, s.upload(tenant.Token))
		body["locale"] = "es"
		body["participants"].(arr)[0].(obj)["locale"] = "de"
		r := s.createRoom(tenant.Token, body)
		b := s.browser()
		path := b.open(r.URL)
		tr := &tagRoom{s: s, b: b, token: tenant.Token, room: r, path: path, csrf: csrf(t, b.get(path).status(http.StatusOK).Body.String())}
		ids := tr.participantIDs(t)
		tr.add(t, tagForm(ids[0]))
		tr.add(t, tagForm(ids[1], "x", "300"))
		b.post(path+"/complete", url.Values{"csrf": {tr.csrf}, "notify": {"email"}}).status(http.StatusSeeOther)

		var rows []models.OutboxMessage
		env.DB.DB.Where("event = ?", models.EventInvitation).Order("id").Find(&rows)
		if len(rows) != 2 {
			t.Fatalf("%d invitations", len(rows))
		}
		want := map[string]struct{ lang, subject, hello string }{
			"pat@example.com":   {"de", "Bitte prüfen und unterzeichnen Sie Ihre Dokumente", "Hallo Pat Buyer,"},
			"robin@example.com": {"es", "Revise y firme sus documentos", "Hola, Robin Seller:"},
		}
		for _, m := range rows {
			var inv models.Invitation
			if err := json.Unmarshal(m.Payload, &inv); err != nil {
				t.Fatal(err)
			}
			w := want[inv.To]
			// The default subject is queued as none and said in the invitation's language when written.
			if inv.Language != w.lang || inv.Subject != "" || m.Subject != "" || m.Language != w.lang {
				t.Fatalf("invitation to %s: language %q, subject %q (row %q, %q)", inv.To, inv.Language, inv.Subject, m.Subject, m.Language)
			}
			l, _ := i18n.Lookup(inv.Language)
			ctx := i18n.With(context.Background(), i18n.New(l))
			view := templates.InvitationView{Name: inv.Name, Subject: inv.Subject, Organization: inv.Organization, Documents: inv.Documents}
			if got := templates.InvitationSubject(ctx, view); got != w.subject {
				t.Fatalf("invitation to %s: subject %q, want %q", inv.To, got, w.subject)
			}
			text := templates.InvitationText(ctx, view)
			if !strings.HasPrefix(text, w.hello) {
				t.Fatalf("invitation to %s reads: %s", inv.To, text)
			}
		}
		// The console's outbox shows each default subject as its recipient reads it.
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		admin, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		outbox := admin.get("/admin/outbox").status(http.StatusOK).Body.String()
		for _, w := range want {
			if !strings.Contains(outbox, `lang="`+w.lang+`">`+html.EscapeString(w.subject)+"<") {
				t.Errorf("the outbox does not show the subject %q in %s: %s", w.subject, w.lang, outbox[strings.Index(outbox, "admin-outbox__recipient"):][:400])
			}
		}
	})
}

// The room's participant dialog chooses a participant's language: a wrong
// tag is the field's error, a right one is stored and shown selected.
func TestRoomParticipantDialogLocale(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		b := s.browser()
		path := b.open(r.URL)
		token := csrf(t, b.get(path).Body.String())
		form := url.Values{"csrf": {token}, "firstName": {"Ann"}, "lastName": {"Lee"}, "email": {"ann@example.com"}, "locale": {"pt"}}
		html := b.post(path+"/participants", form).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(html, `id="participant-add-locale-error"`) {
			t.Fatalf("no error on the language field: %s", truncate(html))
		}
		form.Set("locale", "fr")
		b.post(path+"/participants", form).status(http.StatusSeeOther)
		var tx struct {
			Participants []map[string]any `json:"participants"`
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+r.TransactionID, tenant.Token, nil)).status(http.StatusOK).json(&tx)
		if got := tx.Participants[len(tx.Participants)-1]["locale"]; got != "fr" {
			t.Fatalf("stored locale %v", got)
		}
		if page := b.get(path).Body.String(); !strings.Contains(page, `<option value="fr" lang="fr" selected>`) {
			t.Fatal("the edit dialog does not show the participant's language")
		}
	})
}
