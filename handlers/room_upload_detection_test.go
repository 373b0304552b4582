package handlers_test

import (
	"encoding/json"
	"html"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/templates"
)

// signedTag is a tag as the API lists it, its signer named by the
// participant's place in the transaction (ids differ from room to room).
type signedTag struct {
	Type                 string
	X, Y, Width, Height  float64
	Page, Signer         int
	Required             any
	DateFormat, FontSize any
	CustomData           string
}

// signedTags reads the tags of the transaction's document at pos.
func signedTags(t *testing.T, s *server, token, txID string, pos int) []signedTag {
	t.Helper()
	var tx struct {
		Participants []struct {
			ID string `json:"id"`
		} `json:"participants"`
		Documents []struct {
			Tags []map[string]any `json:"tags"`
		} `json:"documents"`
	}
	s.do(api(http.MethodGet, "/api/v1/transactions/"+txID, token, nil)).status(http.StatusOK).json(&tx)
	out := []signedTag{}
	for _, tag := range tx.Documents[pos].Tags {
		signer := -1
		for i, p := range tx.Participants {
			if p.ID == tag["signerId"] {
				signer = i
			}
		}
		cd, _ := json.Marshal(tag["customData"])
		out = append(out, signedTag{
			Type: tag["type"].(string), X: tag["x"].(float64), Y: tag["y"].(float64), Width: tag["width"].(float64), Height: tag["height"].(float64),
			Page: int(tag["page"].(float64)), Signer: signer, Required: tag["required"], DateFormat: tag["dateFormat"], FontSize: tag["fontSize"], CustomData: string(cd),
		})
	}
	return out
}

// suggestionsOnPage reads the data-suggested-fields of every document of a room page, in order.
func suggestionsOnPage(t *testing.T, page string) [][]templates.SuggestionView {
	t.Helper()
	var out [][]templates.SuggestionView
	for _, m := range suggestionsAttr.FindAllStringSubmatch(page, -1) {
		var list []templates.SuggestionView
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &list); err != nil {
			t.Fatalf("data-suggested-fields: %v", err)
		}
		out = append(out, list)
	}
	return out
}

// textTagsAttr finds each document's data-text-tags on a room page.
var textTagsAttr = regexp.MustCompile(`data-text-tags="([^"]*)"`)

// textTagsOnPage reads every data-text-tags list of a room page, in document order.
func textTagsOnPage(t *testing.T, page string) [][]templates.TextTagBox {
	t.Helper()
	var out [][]templates.TextTagBox
	for _, m := range textTagsAttr.FindAllStringSubmatch(page, -1) {
		var list []templates.TextTagBox
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &list); err != nil {
			t.Fatalf("data-text-tags: %v", err)
		}
		out = append(out, list)
	}
	return out
}

// apiDetection is the API's answer of GET /api/v1/documents/{id}/detected-tags.
type apiDetection struct {
	Tags     []detect.DetectedTag `json:"tags"`
	Problems []struct {
		Page               int
		Text, Code, Detail string
	} `json:"problems"`
}

// A PDF uploaded into the room reads as it does through the API and a new
// room: its text tags and form fields placed (signer n: the n-th
// participant), its suggested fields offered, and the text tags it could
// not read listed in the room's answer with their page and text; the
// answer's HX-Trigger names the placed tags (the editor's one undo step).
// With config.documents.detectTags false nothing is placed.
func TestARoomUploadPlacesTagsAsTheAPIDoes(t *testing.T) {
	t.Parallel()
	corpus := map[string][]byte{}
	for _, d := range pdftest.Corpus() {
		corpus[d.Name] = d.PDF
	}
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		for _, name := range []string{"mixed-three-pages", "text-tags-malformed"} {
			t.Run(name, func(t *testing.T) {
				file := corpus[name]
				// Through the API: upload, then a room made with it.
				var up uploadedDoc
				s.do(uploadReq(tenant.Token, name+".pdf", file, "")).status(http.StatusCreated).json(&up)
				var found apiDetection
				s.do(api(http.MethodGet, "/api/v1/documents/"+up.ID+"/detected-tags", tenant.Token, nil)).status(http.StatusOK).json(&found)
				viaAPI := s.createRoom(tenant.Token, roomBody(tenant, up))
				want := signedTags(t, s, tenant.Token, viaAPI.TransactionID, 0)
				apiRoom := s.browser()
				wantSuggestions := suggestionsOnPage(t, apiRoom.get(apiRoom.open(viaAPI.URL)).status(http.StatusOK).Body.String())
				if len(want) == 0 {
					t.Fatal("the corpus file places no tag through the API")
				}

				// In the room: a room with another document and the same two participants.
				tr := openTagRoom(t, s, tenant, nil)
				res := tr.upload(tr.csrf, name+".pdf", file, true).status(http.StatusOK)
				if got := signedTags(t, s, tenant.Token, tr.room.TransactionID, 1); !reflect.DeepEqual(got, want) {
					t.Fatalf("placed in the room:\n got %+v\nwant %+v", got, want)
				}
				var trigger struct {
					Placed struct {
						DocumentID string   `json:"documentId"`
						Position   int      `json:"position"`
						Title      string   `json:"title"`
						TagIDs     []string `json:"tagIds"`
						Problems   int      `json:"problems"`
					} `json:"markuproom:tags-placed"`
				}
				if err := json.Unmarshal([]byte(res.Header().Get("HX-Trigger")), &trigger); err != nil {
					t.Fatalf("HX-Trigger %q: %v", res.Header().Get("HX-Trigger"), err)
				}
				p := trigger.Placed
				if p.Position != 1 || p.Title != "Addendum" || len(p.TagIDs) != len(want) || p.Problems != len(found.Problems) || p.DocumentID == "" {
					t.Fatalf("HX-Trigger: %+v", p)
				}
				body := res.Body.String()
				for _, id := range p.TagIDs {
					if !strings.Contains(body, `data-tag-id="`+id+`"`) {
						t.Fatalf("the room's answer does not draw the placed tag %s", id)
					}
				}
				// The pages go to the new document, and know where it prints its text tags (covered under their tags).
				if !strings.Contains(body, `data-uploaded-document="`+p.DocumentID+`"`) {
					t.Fatal("the room's answer does not name the uploaded document for the viewer")
				}
				var boxes []templates.TextTagBox
				for _, d := range found.Tags {
					if d.Source == detect.SourceTextTag {
						boxes = append(boxes, templates.TextTagBox{Page: d.Page, X: d.X, Y: d.Y, Width: d.Width, Height: d.Height})
					}
				}
				if lists := textTagsOnPage(t, body); len(boxes) > 0 && (len(lists) == 0 || !reflect.DeepEqual(lists[len(lists)-1], boxes)) {
					t.Fatalf("data-text-tags in the room: %+v, want %+v last", lists, boxes)
				} else if len(boxes) == 0 && len(lists) > 0 {
					t.Fatalf("data-text-tags %+v for a document without text tags", lists)
				}
				// Its suggested fields are offered as in the API's room.
				got := suggestionsOnPage(t, body)
				var gotDoc []templates.SuggestionView
				if len(got) > 0 && len(wantSuggestions) > 0 {
					gotDoc = got[len(got)-1]
				}
				if len(wantSuggestions) > 0 && !reflect.DeepEqual(gotDoc, wantSuggestions[0]) {
					t.Fatalf("suggested fields in the room: %+v, want %+v", got, wantSuggestions)
				}
				// Its problems are shown, each with its page and the tag as written.
				if n := strings.Count(body, "data-upload-problem "); n != len(found.Problems) {
					t.Fatalf("%d problems shown, the API lists %d", n, len(found.Problems))
				}
				for _, pr := range found.Problems {
					if !strings.Contains(body, html.EscapeString(pr.Text)) || !strings.Contains(body, html.EscapeString(pr.Detail)) {
						t.Fatalf("problem %+v not shown", pr)
					}
				}
				if len(found.Problems) > 0 && !strings.Contains(body, "could not be read") {
					t.Fatal("the room does not say that text tags could not be read")
				}
			})
		}

		// detectTags off: nothing placed, no step to undo, the problems still said.
		off := openTagRoom(t, s, tenant, obj{"documents": obj{"detectTags": false}})
		res := off.upload(off.csrf, "malformed.pdf", corpus["text-tags-malformed"], true).status(http.StatusOK)
		if got := signedTags(t, s, tenant.Token, off.room.TransactionID, 1); len(got) != 0 || res.Header().Get("HX-Trigger") != "" {
			t.Fatalf("detectTags off placed %d tags (HX-Trigger %q)", len(got), res.Header().Get("HX-Trigger"))
		}
		// A plain form post is sent back to the room, with the tags placed all the same.
		tr := openTagRoom(t, s, tenant, nil)
		tr.upload(tr.csrf, "mixed.pdf", corpus["mixed-three-pages"], false).status(http.StatusSeeOther)
		if got := signedTags(t, s, tenant.Token, tr.room.TransactionID, 1); len(got) == 0 {
			t.Fatal("a plain form upload placed no tag")
		}
	})
}
