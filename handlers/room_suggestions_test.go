package handlers_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/templates"
)

// suggestionsAttr reads the data-suggested-fields of a room page's documents.
var suggestionsAttr = regexp.MustCompile(`data-suggested-fields="([^"]*)"`)

// pageSuggestions returns the suggested fields the room page offers on its first document.
func (tr *tagRoom) pageSuggestions(t *testing.T) []templates.SuggestionView {
	t.Helper()
	page := tr.b.get(tr.path).status(http.StatusOK).Body.String()
	m := suggestionsAttr.FindStringSubmatch(page)
	if m == nil {
		return nil
	}
	var out []templates.SuggestionView
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &out); err != nil {
		t.Fatalf("data-suggestions: %v", err)
	}
	return out
}

// decide posts to the room's suggestions route as the editor does (JSON, CSRF header).
func (tr *tagRoom) decide(raw, csrf string) *response {
	req := httptest.NewRequest(http.MethodPost, tr.path+"/suggestions", strings.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", csrf)
	return tr.b.do(req)
}

// The room page hands the editor its documents' suggested fields
// (data-suggested-fields, with the URL that dismisses them); a dismissal (204) is
// gone from the next page, a restore brings it back; a request without the
// room's CSRF token, or naming no suggestion, changes nothing; a room whose
// tags cannot be edited offers none.
func TestTheRoomPageOffersSuggestedFields(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		var doc pdftest.CorpusDoc
		for _, d := range pdftest.Corpus() {
			if d.Name == "boxes-right" {
				doc = d
			}
		}
		var up uploadedDoc
		s.do(uploadReq(tenant.Token, "boxes.pdf", doc.PDF, "")).status(http.StatusCreated).json(&up)
		r := s.createRoom(tenant.Token, roomBody(tenant, up))
		b := s.browser()
		path := b.open(r.URL)
		page := b.get(path).status(http.StatusOK).Body.String()
		tr := &tagRoom{s: s, b: b, token: tenant.Token, room: r, path: path, csrf: csrf(t, page)}
		if !strings.Contains(page, `data-suggestions-url="`+path+`/suggestions"`) {
			t.Fatal("the viewer does not carry the suggestions URL")
		}
		all := tr.pageSuggestions(t)
		if len(all) != 3 {
			t.Fatalf("%d suggestions on the page, want the corpus file's 3", len(all))
		}
		for _, sv := range all {
			if sv.Key == "" || sv.Label == "" || sv.Text == "" || sv.Width <= 0 || sv.Page != 1 {
				t.Fatalf("suggestion %+v", sv)
			}
		}
		entry := func(sv templates.SuggestionView) string {
			e, _ := json.Marshal(map[string]any{"documentPosition": 0, "page": sv.Page, "key": sv.Key})
			return string(e)
		}

		tr.decide(`{"dismiss": [`+entry(all[1])+`]}`, "wrong").status(http.StatusForbidden)
		tr.decide(`{"dismiss": [`+entry(all[1])+`, {"documentPosition": 0, "page": 1, "key": "nope"}]}`, tr.csrf).status(http.StatusNotFound)
		tr.decide(`{"dismiss": []}`, tr.csrf).status(http.StatusUnprocessableEntity)
		tr.decide(`{"dismiss": [{"page": 1}]}`, tr.csrf).status(http.StatusBadRequest)
		if n := len(tr.pageSuggestions(t)); n != 3 {
			t.Fatalf("refused requests changed the offer: %d", n)
		}

		tr.decide(`{"dismiss": [`+entry(all[1])+`]}`, tr.csrf).status(http.StatusNoContent)
		left := tr.pageSuggestions(t)
		if len(left) != 2 || left[0].Key != all[0].Key || left[1].Key != all[2].Key {
			t.Fatalf("after a dismissal: %+v", left)
		}
		tr.decide(`{"restore": [`+entry(all[1])+`]}`, tr.csrf).status(http.StatusNoContent)
		if n := len(tr.pageSuggestions(t)); n != 3 {
			t.Fatalf("after a restore: %d offered", n)
		}

		// documents.edit off: no suggestions, and the route refuses.
		body := roomBody(tenant, up)
		body["config"] = obj{"documents": obj{"edit": false}}
		r2 := s.createRoom(tenant.Token, body)
		b2 := s.browser()
		path2 := b2.open(r2.URL)
		page2 := b2.get(path2).status(http.StatusOK).Body.String()
		if strings.Contains(page2, "data-suggested-fields") {
			t.Fatal("a room without documents.edit offers suggestions")
		}
		tr2 := &tagRoom{s: s, b: b2, token: tenant.Token, room: r2, path: path2, csrf: csrf(t, page2)}
		tr2.decide(`{"dismiss": [`+entry(all[1])+`]}`, tr2.csrf).status(http.StatusForbidden)
	})
}
