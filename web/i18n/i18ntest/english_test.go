package i18ntest

import (
	"slices"
	"testing"

	"github.com/markuproom/markuproom/web/i18n"
)

// An English message left on a Spanish page is found, by its pieces around
// placeholders, in the text and in the attributes people read; the Spanish
// words, codes and data are not English left.
func TestEnglishLeftFindsTheCatalogsEnglish(t *testing.T) {
	es, _ := i18n.Lookup("es")
	l := i18n.New(es)
	page := `<p>` + i18n.English().T("room.checklist.documents.problem") + `</p>` +
		`<button aria-label="` + i18n.English().T("room.checklist.everyone_tags.problem", "name", "Pat") + `">x</button>` +
		`<p>` + l.T("room.checklist.participants.problem") + `</p><code>esign_pending</code>`
	left := EnglishLeft(t, Words(page), "es", "room.")
	for _, want := range []string{"room.checklist.documents.problem: Add a document to the room.", "room.checklist.everyone_tags.problem: has no tag yet."} {
		if !slices.Contains(left, want) {
			t.Errorf("missed %q in %q", want, left)
		}
	}
	if slices.ContainsFunc(left, func(s string) bool { return s == "room.checklist.participants.problem: Add the people who will sign." }) {
		t.Errorf("the Spanish sentence was taken for English: %q", left)
	}
	if got := EnglishLeft(t, Words(`<p>`+l.T("room.checklist.documents.problem")+`</p>`), "es", "room."); len(got) != 0 {
		t.Errorf("a Spanish page has English left: %q", got)
	}
}
