package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// The console's "Rotate secret" button shows the new secret once, behind
// sign-in and CSRF like every other console form.
func TestConsoleRotatesAWebhookSecret(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		ep, err := env.Store.CreateWebhook(t.Context(), tenant.Org.ID, models.WebhookPolicy{}, models.NewWebhook{URL: "https://hooks.acme.example/in", Events: []string{models.WebhookTransactionUpdated}})
		if err != nil {
			t.Fatal(err)
		}
		org := "/admin/organizations/" + itoa64(tenant.Org.ID)
		rotate := org + "/webhooks/" + ep.ID + "/rotate-secret"

		s.browser().post(rotate, url.Values{}).status(http.StatusUnauthorized) // not signed in
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		if page := b.get(org).status(http.StatusOK).Body.String(); !strings.Contains(page, `action="`+rotate+`"`) || strings.Contains(page, ep.Secret) {
			t.Fatal("the organization page has no Rotate secret form, or shows the secret")
		}
		b.post(rotate, url.Values{"csrf": {"forged"}}).status(http.StatusForbidden)

		res := b.post(rotate, url.Values{"csrf": {token}}).status(http.StatusOK)
		m := regexp.MustCompile(`data-new-webhook-secret>(whsec_[^<]+)<`).FindStringSubmatch(res.Body.String())
		if m == nil || m[1] == ep.Secret || res.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("rotation page: %v %v", m, res.Header())
		}
		got, err := env.Store.GetWebhook(t.Context(), tenant.Org.ID, ep.ID)
		if err != nil || got.Secret != m[1] || got.PreviousSecret != ep.Secret {
			t.Fatalf("stored: %+v %v", got, err)
		}
		if page := b.get(org).status(http.StatusOK).Body.String(); strings.Contains(page, m[1]) {
			t.Fatal("the new secret is shown again")
		}
		b.post(org+"/webhooks/nope/rotate-secret", url.Values{"csrf": {token}}).status(http.StatusNotFound)
	})
}
