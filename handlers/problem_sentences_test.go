package handlers

import (
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// TestAnUnmetSessionCheckIsWordedInTheReadersLanguage: the refusal of a
// session whose transaction fails validation lists what fails as messages
// (models.Sentences), not as English made in the models. The API's English
// is what it always was; a Spanish room reads it all in Spanish.
func TestAnUnmetSessionCheckIsWordedInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	var p models.Problems
	p.Add("#/valid", "checklist_unmet", "problem.room.checklist_unmet", "problems", models.Sentences{
		models.Msg("problem.doc.page_out_of_range", "pages", 3, "page", 5),
		models.Msg("problem.room.not_checked"),
	})
	err := p.Err(models.KindUnprocessable, "problem.summary.session_not_ready")

	en := problemIn(i18n.English(), err)
	const want = "The transaction passes validation: The document has 3 pages; page 5 does not exist. The transaction could not be checked; try again."
	if len(en.Errors) != 1 || en.Errors[0].Detail != want || en.Errors[0].Code != "checklist_unmet" {
		t.Fatalf("English: %+v", en.Errors)
	}
	for _, lang := range i18n.Languages[1:] {
		got := problemIn(i18n.New(lang), err).Errors[0].Detail
		if strings.Contains(got, "passes validation") || strings.Contains(got, "does not exist") || !strings.Contains(got, "5") || !strings.Contains(got, "3") {
			t.Errorf("%s: %q", lang.Tag, got)
		}
	}
}
