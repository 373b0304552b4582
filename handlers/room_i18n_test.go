package handlers_test

import (
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/web/i18n"
)

var (
	scriptElement     = regexp.MustCompile(`(?s)<script\b.*?</script>`)
	htmlTag           = regexp.MustCompile(`(?s)<[^>]*>`)
	wordyAttr         = regexp.MustCompile(`\b(?:aria-label|title|placeholder|alt|data-confirm|data-confirm-note|data-confirm-action|data-success)="([^"]*)"`)
	roomPlaceholderRE = regexp.MustCompile(`\{[a-zA-Z][a-zA-Z0-9_]*\}`)
)

// visibleWords is what a page says to people: its text (no script) and the
// attributes read out or shown (aria-label, title, placeholder, …).
func visibleWords(page string) string {
	var b strings.Builder
	for _, m := range wordyAttr.FindAllStringSubmatch(page, -1) {
		b.WriteString(html.UnescapeString(m[1]) + "\n")
	}
	b.WriteString(html.UnescapeString(htmlTag.ReplaceAllString(scriptElement.ReplaceAllString(page, ""), "\n")))
	return b.String()
}

// englishLeft lists the English room. and viewer. messages (or, for a
// message with placeholders, its fixed parts) longer than 3 characters that
// words, a page in lang shows although lang says them otherwise.
func englishLeft(t *testing.T, words, lang string) []string {
	t.Helper()
	all, err := i18n.Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	en, other := all["en"], all[lang]
	var left []string
	for _, id := range en.IDs() {
		if !strings.HasPrefix(id, "room.") && !strings.HasPrefix(id, "viewer.") {
			continue
		}
		var ens, theirs []string
		for _, m := range []struct {
			msg i18n.Message
			out *[]string
		}{{en[id], &ens}, {other[id], &theirs}} {
			if m.msg.Plural == nil {
				*m.out = append(*m.out, m.msg.Text)
			}
			for _, s := range m.msg.Plural {
				*m.out = append(*m.out, s)
			}
		}
		joined := strings.Join(theirs, "\n")
		for _, s := range ens {
			for _, part := range roomPlaceholderRE.Split(s, -1) {
				part = strings.TrimSpace(part)
				if len(part) <= 3 || strings.Contains(joined, part) {
					continue
				}
				re := regexp.MustCompile(`(^|\W)` + regexp.QuoteMeta(part) + `($|\W)`)
				if re.MatchString(words) {
					left = append(left, id+": "+part)
				}
			}
		}
	}
	return left
}

// The room in Spanish says none of its words in English: every room. and
// viewer. message of the page comes from the Spanish catalog, and the
// palette names the tag types in Spanish.
func TestRoomPageInSpanish(t *testing.T) {
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
		for _, left := range englishLeft(t, visibleWords(page), "es") {
			t.Errorf("the Spanish room still says %q", left)
		}
		// The checklist, fetched by the dialog, too.
		list := b.get("/rooms/" + r.ID + "/checklist?lang=es").status(http.StatusOK).Body.String()
		for _, left := range englishLeft(t, visibleWords(list), "es") {
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
