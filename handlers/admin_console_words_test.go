package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/web/i18n/i18ntest"
)

// consolePart2Prefixes are the catalog areas of the console's organizations,
// templates, rooms, new room, outgoing messages and sign-in, and of the home
// page (docs/i18n.md).
var consolePart2Prefixes = []string{"admin.orgs.", "admin.org.", "admin.templates.", "admin.template.",
	"admin.rooms.", "admin.room_new.", "admin.outbox.", "admin.login.", "home."}

var (
	wordsShortIDRE  = regexp.MustCompile(`<span class="short-id">.*?</span>`)
	consoleOrgIDRE  = regexp.MustCompile(`data-org-id="(\d+)"`)
	consoleTplIDRE  = regexp.MustCompile(`data-template-id="([^"]+)"`)
	consoleRoomIDRE = regexp.MustCompile(`data-room-created="([^"]+)"`)
)

// pageWords are a page's words from its <main> on: the console's
// navigation and the short ids' copy buttons are other areas' words
// (admin.nav., admin.short_id.).
func pageWords(page string) string {
	if i := strings.Index(page, "<main"); i >= 0 {
		page = page[i:]
	}
	return dataWords.Replace(i18ntest.Words(wordsShortIDRE.ReplaceAllString(page, "")))
}

// TestConsolePagesSpeakTheLanguage renders the console's organizations,
// templates, rooms, new room, outgoing messages and sign-in pages, and the
// home page, with data, in French (Accept-Language) and Arabic (?lang=ar):
// none shows an English message of theirs.
func TestConsolePagesSpeakTheLanguage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		openTagRoom(t, s, tenant, nil)
		picked := s.upload(tenant.Token)
		tpl, _ := s.createTemplate(tenant.Token, templatePayload(picked))
		org := "/admin/organizations/" + itoa64(tenant.Org.ID)

		// Before signing in: the home page and the sign-in page.
		for _, lang := range []string{"fr", "ar"} {
			for _, path := range []string{"/", "/admin/login"} {
				b := s.browser()
				checkWords(t, b, path, lang)
			}
		}

		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		b.post(org+"/tokens", url.Values{"csrf": {token}, "name": {"CRM"}}).status(http.StatusCreated)
		b.post(org+"/webhooks", url.Values{"csrf": {token}, "url": {"https://hooks.acme.example/in"}, "events": {"transaction.updated"}}).status(http.StatusCreated)
		fields := [][2]string{{"csrf", token}, {"org", itoa64(tenant.Org.ID)}, {"sender", itoa64(tenant.Sender.ID)}, {"document", picked.ID},
			{"firstName", "Pat"}, {"lastName", "Buyer"}, {"email", "pat@example.com"}}
		loc := postNewRoom(b, fields, newRoomFile{"Addendum.pdf", pdftest.ThreePages(t)}).status(http.StatusSeeOther).Header().Get("Location")

		if !consoleOrgIDRE.MatchString(b.get("/admin/organizations").status(http.StatusOK).Body.String()) ||
			!consoleTplIDRE.MatchString(b.get("/admin/templates").status(http.StatusOK).Body.String()) {
			t.Fatal("the lists show no organization or no template")
		}
		paths := []string{"/admin/organizations", org, "/admin/templates", "/admin/templates/" + tpl["id"].(string),
			"/admin/rooms", "/admin/rooms/new", "/admin/rooms/new?org=" + itoa64(tenant.Org.ID), loc, "/admin/outbox", "/admin/outbox?status=dead"}
		for _, lang := range []string{"fr", "ar"} {
			for _, path := range paths {
				checkWords(t, b, path, lang)
			}
		}
		if page := b.get(loc + "?lang=ar").Body.String(); consoleRoomIDRE.FindString(page) == "" {
			t.Error("the created room's page is missing")
		}
		// A refused new room: its summary and its fields' own words.
		res := postNewRoomLang(b, [][2]string{{"csrf", token}, {"org", itoa64(tenant.Org.ID)}}, "de")
		if page := res.status(http.StatusUnprocessableEntity).Body.String(); !strings.Contains(page, "Der Markup Room wurde nicht erstellt") ||
			!strings.Contains(page, "Wählen Sie den Absender des Raums.") {
			t.Error("the refused form does not speak German")
		}
	})
}

// checkWords gets path in lang (French by Accept-Language, other languages
// by ?lang=, which the browser then keeps: the French pages come first) and
// fails on the English words it still shows.
func checkWords(t *testing.T, b *browser, path, lang string) {
	t.Helper()
	var res *response
	if lang == "fr" {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Language", "fr-FR,fr;q=0.9")
		res = b.do(req)
	} else {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		res = b.get(path + sep + "lang=" + lang)
	}
	page := res.status(http.StatusOK).Body.String()
	if !strings.Contains(page, `lang="`+lang+`"`) {
		t.Errorf("%s in %s: the page is not in %s", path, lang, lang)
	}
	for _, w := range i18ntest.EnglishLeft(t, pageWords(page), lang, consolePart2Prefixes...) {
		t.Errorf("%s in %s shows English: %s", path, lang, w)
	}
}

// postNewRoomLang posts the new-room form with the header that names the language.
func postNewRoomLang(b *browser, fields [][2]string, lang string) *response {
	form := url.Values{}
	for _, f := range fields {
		form.Add(f[0], f[1])
	}
	req := httptest.NewRequest(http.MethodPost, "/admin/rooms/new", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Markup-Lang", lang)
	return b.do(req)
}
