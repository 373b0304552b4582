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

// Operation A's 201 carries the pre-send check as review: the same finding
// objects as the review route, blocking ones too (nothing is refused: the
// seller who only dates is accepted, and the answer says what will stop
// the session). Printed words come from memory: once the review route has
// read them, the replace's review is the review route's to the byte. A
// read of the transaction carries no review.
func TestReplaceAnswersWithTheReview(t *testing.T) {
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		payload := txPayload(s.upload(acme.Token), "REVIEW-2")
		tx, _ := s.create(acme.Token, payload)
		id := tx["id"].(string)
		// A replace gives its tags new ids: findings are compared without them.
		type finding struct {
			Code, Severity, ParticipantID, Detail string
			Document                              int
			Pages                                 []int
			Fix                                   *struct{ Kind string }
		}
		var put struct {
			ID     string    `json:"id"`
			Review []finding `json:"review"`
		}
		// Words never read: the replace starts no PDF work, so no text finding yet.
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, acme.Token, payload)).status(http.StatusCreated).json(&put)
		for _, f := range put.Review {
			if f.Code == review.CodeCoversText {
				t.Fatalf("a replace read the printed words: %+v", f)
			}
		}
		var r struct {
			Findings []finding `json:"findings"`
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id+"/review", acme.Token, nil)).status(http.StatusOK).json(&r)
		put.Review = nil
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, acme.Token, payload)).status(http.StatusCreated).json(&put)
		if put.ID != id || len(put.Review) == 0 || !reflect.DeepEqual(put.Review, r.Findings) {
			t.Fatalf("the replace's review %+v, the review route's %+v", put.Review, r.Findings)
		}
		codes := map[string]bool{}
		for _, f := range put.Review {
			codes[f.Code] = true
		}
		if first := put.Review[0]; first.Code != review.CodeNothingToSign || first.Severity != "blocking" || !codes[review.CodeCoversText] {
			t.Fatalf("the replace's review %+v: the blocking finding first, the printed words read before", put.Review)
		}
		var got map[string]any
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id, acme.Token, nil)).status(http.StatusOK).json(&got)
		if _, ok := got["review"]; ok {
			t.Error("a read of the transaction carries a review")
		}
	})
}
