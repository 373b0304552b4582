package handlers

import (
	"testing"

	"github.com/markuproom/markuproom/web/i18n"
)

// The stored actor labels read as before in English, and their words (not
// their names) change with the language (docs/i18n.md).
func TestActorWords(t *testing.T) {
	es, ok := i18n.Lookup("es")
	if !ok {
		t.Fatal("no es")
	}
	l := i18n.New(es)
	for _, c := range []struct{ label, en, es string }{
		{"API token 1 (Demo token) for Sam Sender (Markup Room)", "API token 1 (Demo token) for Sam Sender (Markup Room)", "Token de API 1 (Demo token) para Sam Sender (Markup Room)"},
		{"API token 3 (CRM (prod))", "API token 3 (CRM (prod))", "Token de API 3 (CRM (prod))"},
		{"Admin ada@example.com (console) for Sam Sender (Markup Room)", "Admin ada@example.com (console) for Sam Sender (Markup Room)", "Administrador ada@example.com (consola) para Sam Sender (Markup Room)"},
		{"Operator (markuproom room create) for Sam Sender (Markup Room)", "Operator (markuproom room create) for Sam Sender (Markup Room)", "Operador (markuproom room create) para Sam Sender (Markup Room)"},
		{"Sam Sender · Markup Room", "Sam Sender · Markup Room", "Sam Sender · Markup Room"},
		{"Someone for Sam Sender (Markup Room)", "Someone for Sam Sender (Markup Room)", "Someone for Sam Sender (Markup Room)"},
	} {
		if who, from := actorWords(i18n.English(), c.label); who != c.en || from != "" {
			t.Errorf("en %q: %q, %q", c.label, who, from)
		}
		if who, _ := actorWords(l, c.label); who != c.es {
			t.Errorf("es %q: %q, want %q", c.label, who, c.es)
		}
	}
	room := "Sam Sender · Markup Room · session d833b79a · 127.0.0.1"
	if who, from := actorWords(i18n.English(), room); who != "Sam Sender · Markup Room" || from != "session d833b79a · 127.0.0.1" {
		t.Errorf("en room: %q, %q", who, from)
	}
	if _, from := actorWords(l, room); from != "sesión d833b79a · 127.0.0.1" {
		t.Errorf("es room: %q", from)
	}
	if got := auditActorName(i18n.English(), room); got != room {
		t.Errorf("auditActorName en = %q", got)
	}
	if got := auditTarget(i18n.English(), "user", "2"); got != "user 2" {
		t.Errorf("auditTarget en = %q", got)
	}
	if got := auditTarget(l, "user", "2"); got != "usuario 2" {
		t.Errorf("auditTarget es = %q", got)
	}
	if got := auditTarget(l, "gadget", ""); got != "gadget" {
		t.Errorf("auditTarget of an unknown type = %q", got)
	}
	if got := activityKind(l, "failed login"); got != "inicio de sesión fallido" {
		t.Errorf("activityKind es = %q", got)
	}
}
