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
	page := `<p>` + i18n.English().T("review.finding.no_documents") + `</p>` +
		`<button aria-label="` + i18n.English().T("review.finding.participant_signs_nothing", "participant", "Pat") + `">x</button>` +
		`<p>` + l.T("review.finding.no_participants") + `</p><code>esign_pending</code>`
	left := EnglishLeft(t, Words(page), "es", "review.")
	for _, want := range []string{"review.finding.no_documents: The transaction has no document.", "review.finding.participant_signs_nothing: has nothing to sign: add a signature or initials for them."} {
		if !slices.Contains(left, want) {
			t.Errorf("missed %q in %q", want, left)
		}
	}
	if slices.ContainsFunc(left, func(s string) bool { return s == "review.finding.no_participants: The transaction has no participant." }) {
		t.Errorf("the Spanish sentence was taken for English: %q", left)
	}
	if got := EnglishLeft(t, Words(`<p>`+l.T("review.finding.no_documents")+`</p>`), "es", "review."); len(got) != 0 {
		t.Errorf("a Spanish page has English left: %q", got)
	}
}
