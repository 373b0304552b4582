package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/templates"
)

// The checklist warns, without blocking, about a document with no tags
// (a link to each) and about suggested fields neither accepted nor dismissed
// (a link to the list); a dismissed one and one a tag covers no longer
// count, and the session is created with the warnings still there.
func TestTheChecklistWarnsWithoutBlocking(t *testing.T) {
	t.Parallel()
	var boxes []byte
	for _, d := range pdftest.Corpus() {
		if d.Name == "boxes-right" {
			boxes = d.PDF
		}
	}
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		ids := tr.participantIDs(t)
		checklist := func() string {
			return tr.b.get(tr.path + "/checklist").status(http.StatusOK).Body.String()
		}
		// item is the dialog's items of a check's id or a finding's code, all of them.
		item := func(html, id string) string {
			var out string
			for _, attr := range []string{`data-check="`, `data-finding="`} {
				for rest := html; strings.Contains(rest, attr+id+`"`); {
					i := strings.Index(rest, attr+id+`"`)
					end := strings.Index(rest[i:], "</li>")
					out += rest[i : i+end]
					rest = rest[i+end:]
				}
			}
			return out
		}
		untaggedCode := review.CodeDocumentUntagged
		tr.add(t, tagForm(ids[0]))
		tr.add(t, tagForm(ids[1], "x", "300"))
		dismiss := func(pos int, list []templates.SuggestionView) {
			var entries []string
			for _, sv := range list {
				e, _ := json.Marshal(map[string]any{"documentPosition": pos, "page": sv.Page, "key": sv.Key})
				entries = append(entries, string(e))
			}
			tr.decide(`{"dismiss": [`+strings.Join(entries, ",")+`]}`, tr.csrf).status(http.StatusNoContent)
		}
		// The first document's blanks are suggested fields too (two of the 12 covered by the tags just placed).
		html := checklist()
		first := tr.pageSuggestions(t)
		if len(first) != 12 || !strings.Contains(item(html, models.CheckSuggestionsDecided), "10 suggested fields not accepted or dismissed.") {
			t.Fatalf("%d suggestions offered; the checklist: %s", len(first), html)
		}
		dismiss(0, first)
		html = checklist()
		if !strings.Contains(html, "Everything is ready") || item(html, untaggedCode) != "" || item(html, models.CheckSuggestionsDecided) != "" {
			t.Fatalf("a complete room warns: %s", html)
		}

		// A second document without tags (the same blanks: 12 suggested fields), and a third with 3.
		tr.upload(tr.csrf, "addendum.pdf", pdftest.ThreePages(t), false).status(http.StatusSeeOther)
		tr.upload(tr.csrf, "boxes.pdf", boxes, false).status(http.StatusSeeOther)
		html = checklist()
		untagged := item(html, untaggedCode)
		if strings.Count(untagged, "data-warning") != 2 ||
			strings.Count(untagged, "has no tags") != 2 || !strings.Contains(untagged, `href="#doc-1-page-1"`) || !strings.Contains(untagged, `href="#doc-2-page-1"`) {
			t.Fatalf("the untagged documents' warning: %s", untagged)
		}
		undecided := item(html, models.CheckSuggestionsDecided)
		if !strings.Contains(undecided, "15 suggested fields not accepted or dismissed.") || !strings.Contains(undecided, `href="#room-suggestions"`) {
			t.Fatalf("the suggestions' warning: %s", undecided)
		}
		if !strings.Contains(html, "Ready, but check 3 warnings below") || strings.Contains(html, "Everything is ready") ||
			strings.Contains(html, "checklist__item--todo") || strings.Contains(html[strings.Index(html, `data-control="confirm-create-session"`)-80:], "disabled") ||
			!strings.Contains(html, `data-confirm="Create the session with 3 warnings?"`) {
			t.Fatalf("warnings block or are not announced: %s", html)
		}

		// Dismiss the second document's 12 and one of the third's; cover another with a tag: one left undecided.
		// Tag the untagged document.
		docs := suggestionsOnPage(t, tr.b.get(tr.path).status(http.StatusOK).Body.String()) // the first document offers none now
		if len(docs) != 2 {
			t.Fatalf("%d documents offer suggestions", len(docs))
		}
		all := docs[1]
		dismiss(1, docs[0])
		dismiss(2, all[:1])
		c := all[1]
		num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
		tr.add(t, tagForm(ids[0], "documentPosition", "2", "page", "1", "type", c.Type, "x", num(c.X), "y", num(c.Y), "width", num(c.Width), "height", num(c.Height)))
		tr.add(t, tagForm(ids[0], "documentPosition", "1"))
		html = checklist()
		if got := item(html, models.CheckSuggestionsDecided); !strings.Contains(got, "1 suggested field not accepted or dismissed.") {
			t.Fatalf("after a dismissal and an acceptance: %s", got)
		}
		if item(html, untaggedCode) != "" {
			t.Fatalf("every document has tags now: %s", html)
		}

		// The warning does not block: the session is created.
		tr.b.post(tr.path+"/complete", url.Values{"csrf": {tr.csrf}}).status(http.StatusSeeOther)
		var room struct {
			Status string `json:"status"`
		}
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+tr.room.ID, tr.token, nil)).status(http.StatusOK).json(&room)
		if room.Status != "completed" {
			t.Fatalf("room %s after completing with a warning", room.Status)
		}
	})
}
