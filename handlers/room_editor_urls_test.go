package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// The room page renders every URL the editor sends a change to (the browser
// composes no path: docs/frontend.md): each tag's save URL, the batch URL,
// each document's restore and remove URLs, each page's move and delete URLs
// and each participant's remove URL; a tag's answer carries its own; a room
// without page edits renders none of the page-edit URLs.
func TestTheRoomPageRendersTheEditorsURLs(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		res := tr.send(http.MethodPost, tr.path+"/tags", tagForm(signer)).status(http.StatusCreated)
		id := tagIDPattern.FindStringSubmatch(res.Body.String())[1]
		saveURL := `data-save-url="` + tr.path + "/tags/" + url.PathEscape(id) + `"`
		if !strings.Contains(res.Body.String(), saveURL) {
			t.Fatalf("the tag's answer lacks %s: %s", saveURL, res.Body.String())
		}
		page := tr.b.get(tr.path).status(http.StatusOK).Body.String()
		for _, want := range []string{
			saveURL,
			`data-tag-batch-url="` + tr.path + `/tags/batch"`,
			`data-restore-url="` + tr.path + `/documents/0/restore"`,
			`data-remove-url="` + tr.path + `/documents/0/remove"`,
			`data-delete-url="` + tr.path + `/documents/0/pages/2/delete"`,
			`data-move-url="` + tr.path + `/documents/0/pages/2/move"`,
			`data-remove-url="` + tr.path + "/participants/" + url.PathEscape(signer) + `/remove"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("the room page lacks %s", want)
			}
		}

		plain := openTagRoom(t, s, tenant, obj{"documents": obj{"advancedEdit": false}})
		page = plain.b.get(plain.path).status(http.StatusOK).Body.String()
		for _, gone := range []string{"data-restore-url", "data-delete-url", `/documents/0/remove"`} {
			if strings.Contains(page, gone) {
				t.Errorf("advancedEdit=false still renders %s", gone)
			}
		}
	})
}
