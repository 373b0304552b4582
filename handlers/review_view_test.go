package handlers

import (
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/web/i18n"
)

// Every finding code is worded in every language from its catalog entry,
// with its specifics kept: the names, the document's title, the pages.
func TestEveryFindingIsWordedInEveryLanguage(t *testing.T) {
	t.Parallel()
	tx := &models.Transaction{
		Documents: []models.TransactionDocument{{Title: "Lease"}},
		Participants: []models.Participant{{ParticipantID: "p1", FirstName: "Pat", LastName: "Buyer"},
			{ParticipantID: "p2", FirstName: "Sam", LastName: "Seller"}},
	}
	for _, lang := range i18n.Languages {
		l := i18n.New(lang)
		for _, code := range review.Codes() {
			f := review.Finding{Code: code, Participant: "p1", Other: "p2", Document: 0, Pages: []int{4, 5, 6, 9}}
			got := findingWords(l, tx, f)
			id := findingID(code)
			if got == id || strings.ContainsAny(got, "{}") {
				t.Errorf("%s %s: %q", lang.Tag, code, got)
				continue
			}
			en := i18n.English().T(id)
			for arg, want := range map[string]string{"{participant}": "Pat Buyer", "{other}": "Sam Seller", "{document}": "Lease", "{pages}": l.Number(4)} {
				if strings.Contains(en, arg) && !strings.Contains(got, want) {
					t.Errorf("%s %s: %q lost %s (%q)", lang.Tag, code, got, arg, want)
				}
			}
		}
	}
	if got := i18n.English().Say(i18n.Ranges{1, 2, 3, 5, 7, 8}); got != "1–3, 5, 7–8" {
		t.Errorf("page ranges %q", got)
	}
}

// The room's "Add initials to pages 3–5" keeps its range left to right in
// Arabic too (issue 40: it read "5–3"): the range is an isolated
// left-to-right run in every language.
func TestCopyToPagesFixKeepsItsRangeLeftToRight(t *testing.T) {
	t.Parallel()
	tx := &models.Transaction{Documents: []models.TransactionDocument{{Title: "Lease"}}}
	f := review.Finding{Code: review.CodeInitialsMissing, Document: 0, Pages: []int{3, 4, 5},
		Fix: &review.Fix{Kind: review.FixCopyToPages, Tag: "t1", Pages: []int{3, 4, 5}}}
	for _, lang := range i18n.Languages {
		l := i18n.New(lang)
		fix, ok := findingFix(tx, f)
		want := "\u2066" + l.Number(3) + "–" + l.Number(5) + "\u2069"
		if got := l.Say(fix.Label); !ok || !strings.Contains(got, want) {
			t.Errorf("%s: %q does not hold %q", lang.Tag, got, want)
		}
	}
	if fix, _ := findingFix(tx, f); i18n.English().Say(fix.Label) != "Add initials to pages \u20663–5\u2069" {
		t.Errorf("English: %q", i18n.English().Say(fix.Label))
	}
}
