package templates

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/web/i18n"
)

func invitationIn(t *testing.T, l i18n.Language, v InvitationView) (text, html string) {
	t.Helper()
	ctx := i18n.With(context.Background(), i18n.New(l))
	var b bytes.Buffer
	if err := InvitationEmail(v).Render(ctx, &b); err != nil {
		t.Fatal(err)
	}
	return InvitationText(ctx, v), b.String()
}

var testInvitation = InvitationView{
	Name: "Pat Buyer", Subject: "Sign", Organization: "Acme Realty", Documents: []string{"Lease.pdf", "Annex.pdf"},
	Message: "Thanks!", ReferenceID: "REF-7",
}

// The English e-mail says what it said before languages, word for word.
func TestInvitationEnglishUnchanged(t *testing.T) {
	text, html := invitationIn(t, i18n.Fallback(), testInvitation)
	want := "Hello Pat Buyer,\n\nAcme Realty asks you to review and sign these 2 documents:\n\n  - Lease.pdf\n  - Annex.pdf\n\nThanks!\n\n" +
		"You will receive the link to sign from the e-signature service.\n\nReference: REF-7\n\n-- \nSent by Markup Room on behalf of Acme Realty.\n"
	if text != want {
		t.Fatalf("text:\n%s", text)
	}
	for _, s := range []string{`<html lang="en" dir="ltr">`, "Hello Pat Buyer,", "<strong>Acme Realty</strong> asks you to review and sign these 2 documents:", "Reference: REF-7"} {
		if !strings.Contains(html, s) {
			t.Errorf("HTML lacks %q", s)
		}
	}
	one := testInvitation
	one.Documents = one.Documents[:1]
	if text, _ := invitationIn(t, i18n.Fallback(), one); !strings.Contains(text, "asks you to review and sign this document:") {
		t.Fatalf("one document: %s", text)
	}
}

// In German the words are German; in Arabic the page is right to left.
func TestInvitationTranslated(t *testing.T) {
	de, _ := i18n.Lookup("de")
	text, html := invitationIn(t, de, testInvitation)
	if !strings.HasPrefix(text, "Hallo Pat Buyer,") || !strings.Contains(text, "Acme Realty bittet Sie, diese 2 Dokumente") || !strings.Contains(html, `<html lang="de" dir="ltr">`) {
		t.Fatalf("German e-mail:\n%s", text)
	}
	ar, _ := i18n.Lookup("ar")
	if _, html := invitationIn(t, ar, testInvitation); !strings.Contains(html, `<html lang="ar" dir="rtl">`) {
		t.Fatal("Arabic e-mail is not right to left")
	}
}

var (
	tagPattern     = regexp.MustCompile(`(?s)<head>.*</head>|<[^>]*>`)
	bracketPattern = regexp.MustCompile(`⟦[^⟧]*⟧`)
)

// In the pseudo-language nothing of the e-mail is outside ⟦ ⟧ but the data
// it was given: every word went through the catalog.
func TestInvitationPseudoHasNoStrayText(t *testing.T) {
	text, html := invitationIn(t, i18n.Pseudo, testInvitation)
	data := []string{"Pat Buyer", "Acme Realty", "Lease.pdf", "Annex.pdf", "Thanks!", "REF-7", "2", "-- ", "-"}
	check := func(kind, s string) {
		s = bracketPattern.ReplaceAllString(s, " ")
		for _, d := range data {
			s = strings.ReplaceAll(s, d, " ")
		}
		if rest := strings.TrimSpace(strings.Join(strings.Fields(s), " ")); rest != "" {
			t.Errorf("%s has text outside the catalog: %q", kind, rest)
		}
	}
	check("text", text)
	// The HTML body: its tags dropped; the organization sits in <strong>
	// inside a bracketed sentence.
	check("HTML", tagPattern.ReplaceAllString(strings.NewReplacer("<strong>", "", "</strong>", "").Replace(html), " "))
}
