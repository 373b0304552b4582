package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// Every error of a refused participant dialog marks its own field (the
// whole-transaction check of a personal password answers with a pointer into
// #/participants/N, which must still land on the password field), and the
// address the form posts to answers a GET (a reload) with the room, not 405.
func TestRoomParticipantErrorsMarkTheirFields(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		b := s.browser()
		path := b.open(r.URL)
		token := csrf(t, b.get(path).Body.String())

		res := b.post(path+"/participants", url.Values{
			"csrf": {token}, "firstName": {"Casey"}, "middleName": {"Q"}, "lastName": {"Witness"},
			"email": {"casey@example.com"}, "authenticationType": {models.AuthPersonalPassword},
		}).status(http.StatusUnprocessableEntity)
		html := res.Body.String()
		for _, want := range []string{
			`id="participant-add-personalPassword"`,
			`aria-invalid="true"`,
			`aria-describedby="participant-add-personalPassword-error"`,
			`<span class="field__error" id="participant-add-personalPassword-error">Enter a password`,
			`<a href="#participant-add-personalPassword">Password</a>: Enter a password`,
		} {
			if !strings.Contains(html, want) {
				t.Errorf("refused dialog lacks %s", want)
			}
		}
		if strings.Count(html, `aria-invalid="true"`) != 1 {
			t.Errorf("want exactly the password marked, got %d marked fields", strings.Count(html, `aria-invalid="true"`))
		}

		for _, p := range []string{path + "/participants", path + "/participants/p_123"} {
			got := b.get(p).status(http.StatusSeeOther)
			if loc := got.Header().Get("Location"); loc != path {
				t.Errorf("GET %s: Location %q, want %q", p, loc, path)
			}
		}
		// Without this browser's session the fallback tells nothing.
		s.browser().get(path + "/participants").status(http.StatusForbidden)
	})
}
