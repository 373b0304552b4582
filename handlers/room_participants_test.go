package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

func TestRoomParticipantEditingAndRules(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		body := roomBody(tenant, d)
		body["config"] = obj{"idv": obj{"kba": false, "credentialAnalysis": false}, "authentication": obj{"personalPassword": false, "twoFactor": false}}
		r := s.createRoom(tenant.Token, body)
		b := s.browser()
		path := b.open(r.URL)
		token := csrf(t, b.get(path).Body.String())

		// Without the CSRF token a change is refused.
		b.post(path+"/participants", url.Values{"firstName": {"X"}}).status(http.StatusForbidden)
		// A participant with errors comes back with the dialog open and every field's message.
		res := b.post(path+"/participants", url.Values{"csrf": {token}, "firstName": {""}, "lastName": {"Lee"}, "email": {"not-an-email"}}).status(http.StatusUnprocessableEntity)
		html := res.Body.String()
		if !strings.Contains(html, "data-open-on-load") || !strings.Contains(html, "not a valid e-mail") || !strings.Contains(html, `value="not-an-email"`) {
			t.Fatalf("refused form not shown again with its errors: %s", truncate(html))
		}
		b.post(path+"/participants", url.Values{"csrf": {token}, "firstName": {"Ann"}, "lastName": {"Lee"}, "email": {"ann@example.com"}}).status(http.StatusSeeOther)
		b.post(path+"/documents/0/title", url.Values{"csrf": {token}, "title": {"Renamed contract"}}).status(http.StatusSeeOther)

		var tx obj
		s.do(api(http.MethodGet, "/api/v1/transactions/"+r.TransactionID, tenant.Token, nil)).status(http.StatusOK).json(&tx)
		parts := tx["participants"].([]any)
		if len(parts) != 3 || at(tx, "documents", 0, "title") != "Renamed contract" {
			t.Fatalf("edits not saved: %v", tx)
		}
		// The room's participant rules (models.ApplyParticipantRules): both identity
		// checks off → not required; both authentication options off → none.
		for i := range parts {
			p := at(tx, "participants", i).(obj)
			if p["kbaRequired"] != false || p["credAnalysisRequired"] != false || p["authenticationType"] != "none" {
				t.Fatalf("participant %d breaks the config rules: %v", i, p)
			}
		}
		// Remove the added participant.
		pid := at(tx, "participants", 2, "id").(string)
		b.post(path+"/participants/"+url.PathEscape(pid)+"/remove", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		s.do(api(http.MethodGet, "/api/v1/transactions/"+r.TransactionID, tenant.Token, nil)).status(http.StatusOK).json(&tx)
		if len(tx["participants"].([]any)) != 2 {
			t.Fatalf("participant not removed: %v", tx["participants"])
		}
	})
}
