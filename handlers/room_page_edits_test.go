package handlers_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
)

// roomDoc reads the room transaction's first document through the API.
type roomDoc struct {
	ID       string           `json:"id"`
	GCSRefID string           `json:"gcsRefId"`
	Pages    int              `json:"pages"`
	Tags     []map[string]any `json:"tags"`
}

func (tr *tagRoom) doc(t *testing.T) roomDoc {
	t.Helper()
	var tx struct {
		Documents []roomDoc `json:"documents"`
	}
	tr.s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
	return tx.Documents[0]
}

// contentPages counts the pages of the PDF the API serves for a document.
func contentPages(t *testing.T, tr *tagRoom, docID string) int {
	t.Helper()
	return pageCount(t, tr.s.do(api(http.MethodGet, "/api/v1/documents/"+docID+"/content", tr.token, nil)).status(http.StatusOK).Body.Bytes())
}

// pageCount counts the pages of a PDF.
func pageCount(t *testing.T, body []byte) int {
	t.Helper()
	info, err := pdf.Inspect(context.Background(), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return len(info.Pages)
}

func pageOf(tags []map[string]any, x float64) int {
	for _, tg := range tags {
		if tg["x"] == x {
			return int(tg["page"].(float64))
		}
	}
	return -1
}

func TestPageEditsMoveTagsWithTheirPages(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		// One tag per page, told apart by x.
		for page := 1; page <= 3; page++ {
			tr.add(t, tagForm(signer, "page", strconv.Itoa(page), "x", strconv.Itoa(10*page)))
		}
		original := tr.doc(t)

		// Delete page 2 (an htmx request: the room page comes back).
		res := tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", nil).status(http.StatusOK)
		if !strings.Contains(res.Body.String(), `data-viewer`) || !slices.Contains(varyFields(res.Header()), "Hx-Request") {
			t.Fatal("an htmx page edit does not answer with the room")
		}
		d := tr.doc(t)
		if d.Pages != 2 || d.ID == original.ID || d.GCSRefID == original.GCSRefID || len(d.Tags) != 2 {
			t.Fatalf("after deleting page 2: %+v (was %s)", d, original.ID)
		}
		if pageOf(d.Tags, 10) != 1 || pageOf(d.Tags, 20) != -1 || pageOf(d.Tags, 30) != 2 {
			t.Fatalf("tags after the delete: %v", d.Tags)
		}
		if n := contentPages(t, tr, d.ID); n != 2 {
			t.Fatalf("the new version has %d pages", n)
		}
		if n := contentPages(t, tr, original.ID); n != 3 {
			t.Fatalf("the uploaded original changed: %d pages", n)
		}
		// The new version's detected tags were found when it was written (issue 20): stored, and those of its own bytes.
		var stored *string
		if err := env.DB.DB.Table("documents").Select("detection").Where("id = ?", d.ID).Row().Scan(&stored); err != nil || stored == nil {
			t.Fatalf("the new version has no stored detection (%v)", err)
		}
		newContent := s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID+"/content", tr.token, nil)).status(http.StatusOK).Body.Bytes()
		wantFound, err := detect.Detect(context.Background(), pdf.DefaultLimits(), newContent)
		if err != nil {
			t.Fatal(err)
		}
		var found detect.Detection
		s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID+"/detected-tags", tr.token, nil)).status(http.StatusOK).json(&found)
		if !reflect.DeepEqual(found.Tags, wantFound.Tags) || !reflect.DeepEqual(found.Problems, wantFound.Problems) {
			t.Fatalf("detected tags of the new version: %+v, want %+v", found, wantFound)
		}
		xfdf := s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID+"/documents/"+d.ID+"/xfdf", tr.token, nil)).status(http.StatusOK).Body.String()
		if strings.Count(xfdf, `page="1"`) != 1 || strings.Count(xfdf, `page="0"`) != 1 {
			t.Fatalf("XFDF does not follow the pages: %s", xfdf)
		}
		// The room's own content route serves the new version too.
		if got := tr.b.get(tr.path + "/pdf/" + d.ID).status(http.StatusOK).Body.Bytes(); !bytes.Equal(got, s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID+"/content", tr.token, nil)).Body.Bytes()) {
			t.Fatal("the room serves another version than the API")
		}
		// The replaced version stays readable to the room (a viewer may still be
		// loading it), unchanged; another organization's room cannot read it.
		if n := pageCount(t, tr.b.get(tr.path+"/pdf/"+original.ID).status(http.StatusOK).Body.Bytes()); n != 3 {
			t.Fatalf("the room serves the replaced version with %d pages", n)
		}
		// Another organization's room cannot serve this document, and this browser cannot use that room.
		other := openTagRoom(t, s, env.NewTenant(t, "Other"), nil)
		other.b.get(other.path + "/pdf/" + d.ID).status(http.StatusNotFound)
		other.b.get(other.path + "/pdf/" + original.ID).status(http.StatusNotFound)
		tr.b.get(other.path + "/pdf/" + other.doc(t).ID).status(http.StatusForbidden)
		other.b.get(other.path + "/pdf/" + other.doc(t).ID).status(http.StatusOK)

		// Move page 2 to the front (a plain form post: back to the room).
		form := url.Values{"csrf": {tr.csrf}, "to": {"1"}}
		tr.b.post(tr.path+"/documents/0/pages/2/move", form).status(http.StatusSeeOther)
		d = tr.doc(t)
		if pageOf(d.Tags, 30) != 1 || pageOf(d.Tags, 10) != 2 || d.Pages != 2 {
			t.Fatalf("tags after the move: %v", d.Tags)
		}

		// Down to one page; the last one cannot go.
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", nil).status(http.StatusOK)
		p := tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/delete", nil).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/page", "last_page")
		if d = tr.doc(t); d.Pages != 1 || len(d.Tags) != 1 {
			t.Fatalf("after refusing the last page: %+v", d)
		}

		// Bad requests.
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/7/delete", nil).status(http.StatusNotFound)
		tr.send(http.MethodPost, tr.path+"/documents/3/pages/1/delete", nil).status(http.StatusNotFound)
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/move", url.Values{"to": {"x"}}).status(http.StatusBadRequest)

		_, kinds := history(t, env, tenant.Org.ID, tr.room.TransactionID)
		if got := strings.Join(kinds[len(kinds)-3:], ","); got != models.EventPageDeleted+","+models.EventPageMoved+","+models.EventPageDeleted {
			t.Fatalf("history ends with %s", got)
		}
	})
}

func TestPageEditsNeedAdvancedEdit(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, obj{"documents": obj{"advancedEdit": false}})
		html := tr.b.get(tr.path).Body.String()
		for _, gone := range []string{`data-control="page-actions"`, `data-control="thumbnail-context-menu"`, "/pages/"} {
			if strings.Contains(html, gone) {
				t.Errorf("advancedEdit=false still renders %s", gone)
			}
		}
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/delete", nil).status(http.StatusForbidden)
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/move", url.Values{"to": {"2"}}).status(http.StatusForbidden)
		if d := tr.doc(t); d.Pages != 3 {
			t.Fatalf("a refused edit changed the document: %+v", d)
		}
	})
}
