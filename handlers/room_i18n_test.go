package handlers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/web/i18n/i18ntest"
)

// The room in Spanish says none of its words in English: every room. and
// viewer. message of the page comes from the Spanish catalog, and the
// palette names the tag types in Spanish.
func TestRoomPageInSpanish(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		b := s.browser()
		b.open(r.URL)
		page := b.get("/rooms/" + r.ID + "?lang=es").status(http.StatusOK).Body.String()
		if !strings.Contains(page, `<html lang="es"`) {
			t.Fatal("the page is not in Spanish")
		}
		for _, left := range i18ntest.EnglishLeft(t, i18ntest.Words(page), "es", "room.", "viewer.") {
			t.Errorf("the Spanish room still says %q", left)
		}
		// The checklist, fetched by the dialog, too.
		list := b.get("/rooms/" + r.ID + "/checklist?lang=es").status(http.StatusOK).Body.String()
		for _, left := range i18ntest.EnglishLeft(t, i18ntest.Words(list), "es", "room.", "viewer.") {
			t.Errorf("the Spanish checklist still says %q", left)
		}
		// The palette and the editor's tag types name the types in Spanish.
		if !regexp.MustCompile(`data-tag-type="SIGNATURETEMPLATE"[^>]*>(?:<svg.*?</svg>)?Firma</button>`).MatchString(page) {
			t.Error(`the Spanish palette does not offer "Firma"`)
		}
		if !strings.Contains(page, `&#34;label&#34;:&#34;Firma&#34;`) && !strings.Contains(page, `"label":"Firma"`) {
			t.Error(`data-tag-types does not name the signature "Firma"`)
		}
	})
}

// The room in English keeps its words (the Accept-Language of a browser
// that asks for none of ours falls back to English).
func TestRoomPageInEnglishByDefault(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		b := s.browser()
		b.open(r.URL)
		page := b.get("/rooms/" + r.ID).status(http.StatusOK).Body.String()
		for _, want := range []string{"Create e-signature session", "3 pages · <span", ">0 tags</span>", "Signature</button>", "Keyboard shortcuts", "prepared for Sam Sender"} {
			if !strings.Contains(page, want) {
				t.Errorf("the English room lacks %q", want)
			}
		}
	})
}
