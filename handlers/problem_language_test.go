package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/web/i18n"
)

func speaker(t *testing.T, tag string) *i18n.Localizer {
	t.Helper()
	l, ok := i18n.Lookup(tag)
	if !ok {
		t.Fatalf("no language %s", tag)
	}
	return i18n.New(l)
}

func fieldError(t *testing.T, p handlers.Problem, pointer, code string) string {
	t.Helper()
	for _, f := range p.Errors {
		if f.Pointer == pointer && f.Code == code {
			return f.Detail
		}
	}
	t.Fatalf("no %s at %s in %+v", code, pointer, p.Errors)
	return ""
}

// TestProblemsInThePersonsLanguage (docs/i18n.md, "Problems and errors"):
// the room's refusals are told in the request's language, with the same
// type, status and codes; the API's stay English whatever it asks.
func TestProblemsInThePersonsLanguage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		es := speaker(t, "es")

		// The room's batch of tag edits (JSON, a script's request): a
		// problem whose title and field details are Spanish.
		batch := func(lang string) handlers.Problem {
			raw, _ := json.Marshal(obj{"create": arr{batchTag(signers[0], "documentPosition", 0, "x", 600)}, "update": arr{batchTag(signers[0], "id", "t_nope", "x", "left")}})
			req := httptest.NewRequest(http.MethodPost, tr.path+"/tags/batch", strings.NewReader(string(raw)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-CSRF-Token", tr.csrf)
			req.Header.Set("Accept-Language", lang)
			return tr.b.do(req).problem(http.StatusBadRequest)
		}
		p := batch("es-ES,es;q=0.9")
		if p.Type != "/problems/invalid-request" || p.Title != es.T("problem.title.invalid_request") || p.Title == "The request is not valid" {
			t.Fatalf("Spanish batch problem: %+v", p)
		}
		if got := fieldError(t, p, "#/update/0/x", "invalid_type"); got != `El campo "x" debe ser un número; se recibió string.` {
			t.Fatalf("Spanish field detail = %q", got)
		}
		if p.Detail != es.T("problem.summary.batch_invalid") {
			t.Fatalf("Spanish detail = %q", p.Detail)
		}
		if en := batch("en"); en.Title != "The request is not valid" || strings.Contains(en.Detail, "consulte") ||
			fieldError(t, en, "#/update/0/x", "invalid_type") != `The field "x" must be a number, got string.` {
			t.Fatalf("English batch problem changed: %+v", en)
		}
		req := httptest.NewRequest(http.MethodPost, tr.path+"/tags/batch", strings.NewReader(`{"create":[`+mustJSON(batchTag(signers[0], "documentPosition", 0, "x", 600))+`]}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", tr.csrf)
		req.Header.Set("Accept-Language", "es")
		p = tr.b.do(req).problem(http.StatusUnprocessableEntity)
		if got := fieldError(t, p, "#/create/0", "outside_page"); got != "La etiqueta (x 600, y 100, ancho 144, alto 36) no está dentro de la página 2 (0,0 a 612,792)." || p.Title != es.T("problem.title.unprocessable") {
			t.Fatalf("Spanish outside-page problem: %+v", p)
		}

		// The room's participant form: the field messages beside the
		// fields are Spanish.
		token := tr.csrf
		form := url.Values{"csrf": {token}, "firstName": {""}, "lastName": {"Lee"}, "email": {"not-an-email"}}
		preq := httptest.NewRequest(http.MethodPost, tr.path+"/participants", strings.NewReader(form.Encode()))
		preq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		preq.Header.Set("Accept-Language", "es")
		html := tr.b.do(preq).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(html, "no es una dirección de correo electrónico válida") || !strings.Contains(html, "not-an-email") ||
			!strings.Contains(html, "no puede estar en blanco") || strings.Contains(html, "not a valid e-mail") {
			t.Fatalf("Spanish participant form errors not shown: %s", truncate(html))
		}

		// The same kind of refusal through the API stays English.
		b := roomBody(tenant, s.upload(tenant.Token))
		at(b, "participants", 0).(obj)["email"] = "pat(at)example.com"
		areq := jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, b)
		areq.Header.Set("Accept-Language", "es")
		p = s.do(areq).problem(http.StatusBadRequest)
		if p.Title != "The request is not valid" || fieldError(t, p, "#/participants/0/email", "invalid_email") != `"pat(at)example.com" is not a valid e-mail address.` {
			t.Fatalf("API problem not English: %+v", p)
		}
	})
}

// TestErrorPageInArabic: the HTML 404 page in Arabic is right to left and
// Arabic, headline, explanation and button alike.
func TestErrorPageInArabic(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		ar := speaker(t, "ar")
		req := httptest.NewRequest(http.MethodGet, "/no/such/page", nil)
		req.Header.Set("Accept", "text/html")
		req.Header.Set("Accept-Language", "ar")
		html := s.do(req).status(http.StatusNotFound).Body.String()
		for _, want := range []string{`dir="rtl"`, `lang="ar"`, ar.T("problem.title.not_found"), ar.T("error.nothing_here"), ar.T("error.page.home"), ar.T("error.page.request_id_before")} {
			if !strings.Contains(html, want) {
				t.Errorf("Arabic 404 page lacks %q", want)
			}
		}
		for _, english := range []string{"The resource was not found", "There is nothing at this address.", "Go to the home page", "If you contact support"} {
			if strings.Contains(html, english) {
				t.Errorf("Arabic 404 page still says %q", english)
			}
		}
		// In English it is what it was.
		req = httptest.NewRequest(http.MethodGet, "/no/such/page", nil)
		req.Header.Set("Accept", "text/html")
		html = s.do(req).status(http.StatusNotFound).Body.String()
		for _, want := range []string{"The resource was not found", "There is nothing at this address.", "Go to the home page", "If you contact support, quote request id <code>"} {
			if !strings.Contains(html, want) {
				t.Errorf("English 404 page lacks %q", want)
			}
		}
	})
}
