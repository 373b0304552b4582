package handlers_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
)

// A room link, a token in the query and a problem's instance never carry
// the capability: the access log and the problem body say "[redacted]".
func TestAccessLogAndProblemInstanceRedactCapabilities(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		var logs modelstest.LogBuffer
		s := newServer(t, env, func(d *handlers.Deps) {
			d.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		})
		tenant := env.NewTenant(t, "Acme")
		room := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		link := strings.TrimPrefix(room.URL, testBaseURL)
		token := strings.TrimPrefix(link, "/markup-room/")

		// A good link (303 to the room) and a guessed one (a problem for htmx).
		s.do(httptest.NewRequest(http.MethodGet, link+"?token="+token+"&keep=1", nil))
		req := httptest.NewRequest(http.MethodGet, "/markup-room/mrr_guessed_"+strings.Repeat("0", 64), nil)
		req.Header.Set("HX-Request", "true")
		p := s.do(req).problem(http.StatusNotFound)
		if p.Instance != "/markup-room/[redacted]" {
			t.Errorf("instance = %q", p.Instance)
		}
		// An API problem keeps its ordinary path.
		if p := s.do(api(http.MethodGet, "/api/v1/markup-rooms/nope", tenant.Token, nil)).problem(http.StatusNotFound); p.Instance != "/api/v1/markup-rooms/nope" {
			t.Errorf("API instance = %q", p.Instance)
		}

		out := logs.String()
		for _, secret := range []string{token, "mrr_guessed", tenant.Token} {
			if strings.Contains(out, secret) {
				t.Errorf("the log carries %q:\n%s", secret, out)
			}
		}
		if !strings.Contains(out, `"path":"/markup-room/[redacted]?token=[redacted]&keep=1"`) {
			t.Errorf("no redacted access line for the room link:\n%s", out)
		}
	})
}
