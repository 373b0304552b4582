package handlers_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/review"
)

// reviewBody is the JSON of GET /api/v1/transactions/{id}/review.
type reviewBody struct {
	TransactionID string `json:"transactionId"`
	Blocked       bool   `json:"blocked"`
	Findings      []struct {
		Code          string   `json:"code"`
		Severity      string   `json:"severity"`
		ParticipantID string   `json:"participantId"`
		Document      int      `json:"document"`
		Pages         []int    `json:"pages"`
		TagIDs        []string `json:"tagIds"`
		Detail        string   `json:"detail"`
	} `json:"findings"`
}

// The pre-send check through the API: the full payload's seller only
// dates (nothing to sign: blocking) and its notary field has no seal,
// each worded in English with the names and titles; the answer follows
// the OpenAPI document (the contract check of every response); another
// organization's transaction is 404; no token is 401. MCP's
// review_transaction answers the same.
func TestAPIReviewTransaction(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other Co")
		tx, _ := s.create(acme.Token, txPayload(s.upload(acme.Token), "REVIEW-1"))
		id := tx["id"].(string)
		var r reviewBody
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id+"/review", acme.Token, nil)).status(http.StatusOK).json(&r)
		if r.TransactionID != id || !r.Blocked {
			t.Fatalf("review %+v: want this transaction's, blocked", r)
		}
		found := map[string]string{}
		for _, f := range r.Findings {
			found[f.Code+"/"+f.ParticipantID] = f.Severity + ": " + f.Detail
		}
		for key, want := range map[string]string{
			review.CodeNothingToSign + "/seller":      "blocking: Robin Seller has nothing to sign: add a signature or initials for them.",
			review.CodeFillWithoutSigning + "/seller": "warning: Robin Seller fills in a date or name on page 2 of “Purchase Agreement” but signs nothing in it.",
			review.CodeNotaryWithoutSeal + "/":        "warning: “Purchase Agreement” has notary fields but no notary seal or commission stamp.",
		} {
			if found[key] != want {
				t.Errorf("%s: %q, want %q", key, found[key], want)
			}
		}
		if r.Findings[0].Severity != "blocking" {
			t.Errorf("first finding %+v: blocking ones come first", r.Findings[0])
		}
		for _, f := range r.Findings {
			if strings.Contains(f.Detail, "{") || strings.Contains(f.Detail, "review.finding") {
				t.Errorf("%s worded %q", f.Code, f.Detail)
			}
		}
		// MCP's review_transaction answers the same JSON.
		var viaMCP reviewBody
		mustConnect(t, s.mcpURL(), acme.Token).ok("review_transaction", obj{"id": id}, &viaMCP)
		if !reflect.DeepEqual(viaMCP, r) {
			t.Errorf("review_transaction answered %+v, the API %+v", viaMCP, r)
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id+"/review", other.Token, nil)).status(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id+"/review", "", nil)).status(http.StatusUnauthorized)
	})
}
