package admin

import (
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/markuproom/markuproom/web/i18n"
)

func renderIn(t *testing.T, tag string, c templ.Component) string {
	t.Helper()
	lang, ok := i18n.Lookup(tag)
	if !ok {
		t.Fatalf("no language %s", tag)
	}
	var b strings.Builder
	if err := c.Render(i18n.With(context.Background(), i18n.New(lang)), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A history entry's or a template version's actor is stored as data and
// worded in the reader's language when the page is made; names, ids and
// addresses stay as they are, and a row of no known shape shows its label.
func TestActorsAreWordedInTheReadersLanguage(t *testing.T) {
	for _, c := range []struct {
		actor  ActorView
		en, es string
	}{
		{ActorView{Kind: "api_token", ID: "3", Name: "CRM (prod)"}, "API token 3 (CRM (prod))", "Token de API 3 (CRM (prod))"},
		{ActorView{Kind: "api_token", ID: "1", Name: "Demo token", For: "Sam Sender"},
			"API token 1 (Demo token) for Sam Sender (Markup Room)", "Token de API 1 (Demo token) para Sam Sender (Markup Room)"},
		{ActorView{Kind: "admin", Name: "ada@example.com", For: "Sam Sender"},
			"Admin ada@example.com (console) for Sam Sender (Markup Room)", "Administrador ada@example.com (consola) para Sam Sender (Markup Room)"},
		{ActorView{Kind: "operator", For: "Sam Sender"},
			"Operator (markuproom room create) for Sam Sender (Markup Room)", "Operador (markuproom room create) para Sam Sender (Markup Room)"},
		{ActorView{Kind: "room", Name: "Sam Sender", Session: "d833b79a"}, "Sam Sender · Markup Room", "Sam Sender · Markup Room"},
		{ActorView{Kind: "room", ID: "r_1"}, "Markup Room r_1", "Markup Room r_1"},
		{ActorView{Label: "Imported (v1)"}, "Imported (v1)", "Imported (v1)"},
	} {
		if got := renderIn(t, "en", actorWho(c.actor)); got != templ.EscapeString(c.en) {
			t.Errorf("en: %q, want %q", got, c.en)
		}
		if got := renderIn(t, "es", actorWho(c.actor)); got != templ.EscapeString(c.es) {
			t.Errorf("es: %q, want %q", got, c.es)
		}
	}
	for _, c := range []struct {
		actor  ActorView
		en, es string
	}{
		{ActorView{Kind: "room", Session: "d833b79a", Address: "127.0.0.1"}, "session d833b79a · 127.0.0.1", "sesión d833b79a · 127.0.0.1"},
		{ActorView{Kind: "room", Address: "::1"}, "::1", "::1"},
	} {
		if got := renderIn(t, "en", actorFrom(c.actor)); got != c.en {
			t.Errorf("from en: %q, want %q", got, c.en)
		}
		if got := renderIn(t, "es", actorFrom(c.actor)); got != c.es {
			t.Errorf("from es: %q, want %q", got, c.es)
		}
	}
}
