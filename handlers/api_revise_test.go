package handlers_test

import (
	"encoding/json"
	"math"
	"net/http"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// revisedAnswer is the part of a revision's answer the tests read.
type revisedAnswer struct {
	Version   int `json:"version"`
	Documents []struct {
		ID   string `json:"id"`
		Tags []struct {
			Page       int             `json:"page"`
			X          float64         `json:"x"`
			Y          float64         `json:"y"`
			CustomData json.RawMessage `json:"customData"`
		} `json:"tags"`
	} `json:"documents"`
	Revision struct {
		Tags []struct {
			ID      string `json:"id"`
			Outcome string `json:"outcome"`
		} `json:"tags"`
		Moved, Unchanged, Flagged int
	} `json:"revision"`
}

// TestAPIRevisesADocument: POST …/documents/{documentId}/revise replaces a
// transaction's document by its revised upload, every tag following its
// field's label (the answer, checked against the OpenAPI document, lists
// each); If-Match and Idempotency-Key as on the other writes; another
// organization's transaction 404, an unknown upload 422, a bad body 400.
// MCP's revise_document does the same.
func TestAPIRevisesADocument(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other Co")
		base, revisions := pdftest.RevisionCorpus()
		revised := revisions[0] // a paragraph added on page 1
		upload := func(token string, pdf []byte) uploadedDoc {
			var d uploadedDoc
			s.do(uploadReq(token, "services.pdf", pdf, "Services")).status(http.StatusCreated).json(&d)
			return d
		}
		oldDoc, newDoc := upload(acme.Token, base.PDF), upload(acme.Token, revised.PDF)
		var tags []obj
		for id, f := range base.Fields {
			tags = append(tags, obj{"type": "INITIALSTEMPLATE", "x": f.Box.LLX, "y": f.Box.LLY, "width": f.Box.URX - f.Box.LLX,
				"height": f.Box.URY - f.Box.LLY, "signerId": "p1", "customData": obj{"field": id}, "page": f.Page})
		}
		tx, etag := s.create(acme.Token, obj{
			"status": "draft", "referenceId": "revise-api",
			"documents":    []obj{{"id": oldDoc.ID, "gcsRefId": oldDoc.GCSRefID, "title": "Services", "sessionType": "esign", "type": "acknowledgment", "tags": tags}},
			"participants": []obj{{"id": "p1", "email": "pat@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"}},
		})
		path := "/api/v1/transactions/" + tx["id"].(string) + "/documents/" + oldDoc.ID + "/revise"
		body := obj{"documentId": newDoc.ID}

		// Refusals first: nothing changes.
		hasError(t, s.do(jsonReq(http.MethodPost, path, acme.Token, obj{"documentId": newDoc.ID, "extra": 1})).problem(http.StatusBadRequest), "#/extra", "unknown_field")
		hasError(t, s.do(jsonReq(http.MethodPost, path, acme.Token, obj{"documentId": "nope"})).problem(http.StatusUnprocessableEntity), "#/documentId", "unknown_document")
		s.do(jsonReq(http.MethodPost, path, other.Token, body)).problem(http.StatusNotFound)
		stale := jsonReq(http.MethodPost, path, acme.Token, body)
		stale.Header.Set("If-Match", `"999"`)
		s.do(stale).problem(http.StatusPreconditionFailed)

		// The revision, with the ETag read and a key: every tag is where its field went.
		req := jsonReq(http.MethodPost, path, acme.Token, body)
		req.Header.Set("If-Match", etag)
		req.Header.Set("Idempotency-Key", "revise-1")
		res := s.do(req).status(http.StatusOK)
		var got revisedAnswer
		res.json(&got)
		if res.Header().Get("ETag") == "" || got.Documents[0].ID != newDoc.ID || len(got.Documents[0].Tags) != len(base.Fields) {
			t.Fatalf("answer: %s", res.Body.String())
		}
		if n := got.Revision.Moved + got.Revision.Unchanged + got.Revision.Flagged; n != len(base.Fields) || len(got.Revision.Tags) != n || got.Revision.Moved == 0 {
			t.Fatalf("report: %+v", got.Revision)
		}
		for _, g := range got.Documents[0].Tags {
			var cd struct{ Field string }
			_ = json.Unmarshal(g.CustomData, &cd)
			f := revised.Fields[cd.Field]
			if g.Page != f.Page || math.Abs(g.X-f.Box.LLX) > 2 || math.Abs(g.Y-f.Box.LLY) > 2 {
				t.Errorf("%s on page %d at (%.1f, %.1f); its field is on page %d at (%.1f, %.1f)", cd.Field, g.Page, g.X, g.Y, f.Page, f.Box.LLX, f.Box.LLY)
			}
		}
		// The same key again: the same answer, nothing revised twice.
		again := jsonReq(http.MethodPost, path, acme.Token, body)
		again.Header.Set("If-Match", etag)
		again.Header.Set("Idempotency-Key", "revise-1")
		if replay := s.do(again).status(http.StatusOK); replay.Body.String() != res.Body.String() {
			t.Fatalf("the replay differs: %s", replay.Body.String())
		}
		// The old document is no longer the transaction's.
		s.do(jsonReq(http.MethodPost, path, acme.Token, body)).problem(http.StatusNotFound)

		// MCP: revise back to the first version.
		var viaMCP revisedAnswer
		mustConnect(t, s.mcpURL(), acme.Token).ok("revise_document", obj{"transactionId": tx["id"], "documentId": newDoc.ID, "revisedDocumentId": oldDoc.ID}, &viaMCP)
		if viaMCP.Documents[0].ID != oldDoc.ID || viaMCP.Version != got.Version+1 || len(viaMCP.Revision.Tags) != len(base.Fields) {
			t.Fatalf("revise_document answered %+v", viaMCP)
		}
	})
}
