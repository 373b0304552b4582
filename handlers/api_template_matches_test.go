package handlers_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// testForm is a one-page form: paragraphs of running text, then labels with
// their values drawn apart on the next line, as a form filler draws them.
type testForm struct {
	paragraphs []string
	labels     []string
}

// pdf writes the form filled in with values (one per label).
func (f testForm) pdf(values ...string) []byte {
	var texts []pdftest.PlacedText
	y := 740.0
	for _, p := range f.paragraphs {
		texts = append(texts, pdftest.PlacedText{X: 72, Y: y, Size: 10, Text: p})
		y -= 16
	}
	for i, l := range f.labels {
		texts = append(texts, pdftest.PlacedText{X: 72, Y: y, Size: 10, Text: l})
		texts = append(texts, pdftest.PlacedText{X: 90, Y: y - 12, Size: 10, Text: values[i]})
		y -= 30
	}
	return pdftest.TextPDF([]pdftest.TextPage{{Width: 612, Height: 792, Texts: texts}})
}

var (
	rentalForm = testForm{
		paragraphs: []string{
			"RESIDENTIAL RENTAL APPLICATION",
			"Each adult who will live in the unit completes a separate application.",
			"The landlord may verify the income, rental history and references given below,",
			"and a fee paid with this application is not refunded once the screening starts.",
		},
		labels: []string{"Applicant name:", "Current address:", "Monthly income:", "Previous landlord:", "Move in date:"},
	}
	vehicleForm = testForm{
		paragraphs: []string{
			"BILL OF SALE FOR A MOTOR VEHICLE",
			"The seller transfers the vehicle described below to the buyer as is, without warranty,",
			"and states that the odometer reading is accurate to the best of their knowledge,",
			"and that no lien or claim of any other party is held against the title.",
		},
		labels: []string{"Vehicle make and model:", "Identification number:", "Odometer reading:", "Sale price:", "Date of sale:"},
	}
)

// uploadMatches uploads content for token and returns the answer's
// templateMatches (failing when the answer has none, not even []).
func (s *server) uploadMatches(token string, content []byte) (string, []obj) {
	s.t.Helper()
	var out struct {
		ID              string `json:"id"`
		TemplateMatches *[]obj `json:"templateMatches"`
	}
	s.do(uploadReq(token, "form.pdf", content, "")).status(http.StatusCreated).json(&out)
	if out.TemplateMatches == nil {
		s.t.Fatalf("the upload's answer has no templateMatches")
	}
	return out.ID, *out.TemplateMatches
}

// The upload's answer and GET …/template-matches list the organization's
// templates whose document the upload resembles: the same form filled in
// otherwise, not a different form of the same size, not another
// organization's, not an archived template.
func TestTemplateMatchesOfAnUpload(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")

		blankID, matches := s.uploadMatches(acme.Token, rentalForm.pdf("__________", "__________", "__________", "__________", "__________"))
		if len(matches) != 0 {
			t.Fatalf("no templates yet, matches %v", matches)
		}
		tmpl, _ := s.createTemplate(acme.Token, obj{"name": "Rental application", "documents": arr{obj{"document": blankID}},
			"roles": arr{obj{"name": "Applicant"}}, "tags": arr{}})
		id := tmpl["id"].(string)

		filledID, matches := s.uploadMatches(acme.Token,
			rentalForm.pdf("Jonathan A. Whitfield", "1428 Elm Street, Springfield, IL 62704", "$6,250", "Margaret Olsen", "March 3, 2026"))
		if len(matches) != 1 || matches[0]["templateId"] != id || matches[0]["name"] != "Rental application" ||
			matches[0]["version"] != float64(1) || matches[0]["document"] != float64(0) || matches[0]["score"].(float64) < 0.9 {
			t.Fatalf("the same form filled in: matches %v", matches)
		}
		var listed struct{ Items []obj }
		s.do(api(http.MethodGet, "/api/v1/documents/"+filledID+"/template-matches", acme.Token, nil)).status(http.StatusOK).json(&listed)
		if !reflect.DeepEqual(listed.Items, matches) {
			t.Fatalf("GET lists %v, the upload's answer %v", listed.Items, matches)
		}

		if _, matches := s.uploadMatches(acme.Token,
			vehicleForm.pdf("Ford Focus SE", "1FADP3F2XJL123456", "48,120 miles", "$9,800", "June 15, 2026")); len(matches) != 0 {
			t.Fatalf("a different form of the same size: matches %v", matches)
		}
		// Another organization: its own upload of the form matches none of
		// Acme's templates, and Acme's document is not found.
		if _, matches := s.uploadMatches(other.Token, rentalForm.pdf("Li Wei", "77 Birch Lane", "$4,100", "Grant Holdings LLC", "July 1, 2026")); len(matches) != 0 {
			t.Fatalf("another organization's upload: matches %v", matches)
		}
		s.do(api(http.MethodGet, "/api/v1/documents/"+filledID+"/template-matches", other.Token, nil)).status(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/documents/no-such-document/template-matches", acme.Token, nil)).status(http.StatusNotFound)

		// Archived: listed nowhere.
		s.do(api(http.MethodDelete, "/api/v1/templates/"+id, acme.Token, nil)).status(http.StatusNoContent)
		if _, matches := s.uploadMatches(acme.Token, rentalForm.pdf("Li Wei", "77 Birch Lane", "$4,100", "Grant Holdings LLC", "July 1, 2026")); len(matches) != 0 {
			t.Fatalf("after the archive, the upload: matches %v", matches)
		}
		s.do(api(http.MethodGet, "/api/v1/documents/"+filledID+"/template-matches", acme.Token, nil)).status(http.StatusOK).json(&listed)
		if len(listed.Items) != 0 {
			t.Fatalf("after the archive, GET: %v", listed.Items)
		}
	})
}
