package handlers_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// "Preview as…" (issue 40, docs/review.md): a room with documents and
// participants renders [data-preview] with the hashed URLs of the preview's
// own script and stylesheet, which the room's script loads on the first
// click; a room without participants has nothing to preview and no button.
func TestTheRoomPageOffersThePreviewWithItsOwnBundle(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		page := tr.b.get(tr.path).status(http.StatusOK).Body.String()
		button := regexp.MustCompile(`data-preview="/static/js/preview\.[0-9a-f]{10}\.js" data-preview-css="/static/css/preview\.[0-9a-f]{10}\.css"`)
		if !button.MatchString(page) {
			t.Fatalf("the room page lacks the preview button with hashed URLs")
		}
		body := roomBody(tenant, s.upload(tenant.Token))
		body["participants"] = arr{}
		r := s.createRoom(tenant.Token, body)
		b := s.browser()
		empty := b.get(b.open(r.URL)).status(http.StatusOK).Body.String()
		if regexp.MustCompile(`data-preview=`).MatchString(empty) {
			t.Errorf("a room without participants offers a preview")
		}
	})
}
