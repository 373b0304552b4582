package handlers_test

import (
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/passwordhash"
)

// The room's forms state the server's own limits (models), not copies: an
// e-mail of 254 characters, a title of 255, a tag's font size up to 200.
func TestRoomFormsStateTheServersLimits(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		html := tr.b.get(tr.path).status(http.StatusOK).Body.String()
		for _, c := range []struct {
			input *regexp.Regexp
			attr  string
			want  int
		}{
			{regexp.MustCompile(`<input[^>]*name="email"[^>]*>`), "maxlength", models.MaxEmailLength},
			{regexp.MustCompile(`<input[^>]*name="firstName"[^>]*>`), "maxlength", models.MaxNameLength},
			{regexp.MustCompile(`<input[^>]*name="title"[^>]*>`), "maxlength", models.MaxTitleLength},
			{regexp.MustCompile(`<input[^>]*name="stateFormat"[^>]*>`), "maxlength", models.MaxStateFormatLength},
			{regexp.MustCompile(`<input[^>]*name="personalPassword"[^>]*>`), "maxlength", passwordhash.MaxPasswordLength},
			{regexp.MustCompile(`<input[^>]*name="fontSize"[^>]*>`), "max", models.MaxTagFontSize},
		} {
			tag := c.input.FindString(html)
			if tag == "" {
				t.Fatalf("no input matching %s", c.input)
			}
			want := c.attr + `="` + strconv.Itoa(c.want) + `"`
			if !regexp.MustCompile(`\s` + regexp.QuoteMeta(want)).MatchString(tag) {
				t.Errorf("%s lacks %s", tag, want)
			}
		}
	})
}
