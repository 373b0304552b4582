package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

func TestSigningOrderFollowsReorderedParticipants(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		ids := tr.participantIDs(t)
		move := func(who, to string) *response {
			return tr.send(http.MethodPost, tr.path+"/participants/"+url.PathEscape(who)+"/move", url.Values{"to": {to}})
		}
		// Without a signing order there is nothing to reorder.
		p := move(ids[1], "1").problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/signingOrder", "no_signing_order")
		if strings.Contains(tr.b.get(tr.path).Body.String(), `data-control="participant-order"`) {
			t.Fatal("order buttons shown without a signing order")
		}

		// Turn the signing order on through the API, add a third participant in the room.
		var tx map[string]any
		s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
		tx["signingOrder"] = true
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, tx)).status(http.StatusCreated)
		tr.b.post(tr.path+"/participants", url.Values{"csrf": {tr.csrf}, "firstName": {"Casey"}, "lastName": {"Third"}, "email": {"casey@example.com"}}).status(http.StatusSeeOther)
		ids = tr.participantIDs(t)
		if !strings.Contains(tr.b.get(tr.path).Body.String(), `data-control="participant-order"`) {
			t.Fatal("no order buttons with a signing order")
		}

		move(ids[2], "1").status(http.StatusOK)
		var after struct {
			Participants []struct {
				ID    string  `json:"id"`
				Order float64 `json:"order"`
			} `json:"participants"`
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&after)
		var got []string
		for i, pp := range after.Participants {
			got = append(got, pp.ID)
			if pp.Order != float64(i+1) {
				t.Fatalf("participant %d has order %v", i, pp.Order)
			}
		}
		if strings.Join(got, ",") != strings.Join([]string{ids[2], ids[0], ids[1]}, ",") {
			t.Fatalf("order = %v", got)
		}
		move(ids[0], "4").problem(http.StatusUnprocessableEntity)
		move("p_nobody", "1").status(http.StatusNotFound)

		off := openTagRoom(t, s, tenant, obj{"participants": obj{"edit": false}})
		off.send(http.MethodPost, off.path+"/participants/"+url.PathEscape(off.participantIDs(t)[0])+"/move", url.Values{"to": {"2"}}).status(http.StatusForbidden)
	})
}
