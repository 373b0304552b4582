package handlers_test

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
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

// TestAPIRevisesATemplateDocument: POST /api/v1/templates/{id}/documents/
// {position}/revise saves a new version of the template with that document
// replaced by its revised upload, each of its tags where its field went and
// the other document's tags as they were; a stale If-Match is 412, a
// position the template lacks 404.
func TestAPIRevisesATemplateDocument(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		base, revisions := pdftest.RevisionCorpus()
		revised := revisions[0]
		var oldDoc, newDoc uploadedDoc
		s.do(uploadReq(acme.Token, "services.pdf", base.PDF, "Services")).status(http.StatusCreated).json(&oldDoc)
		s.do(uploadReq(acme.Token, "services-v2.pdf", revised.PDF, "Services v2")).status(http.StatusCreated).json(&newDoc)
		other := s.upload(acme.Token)
		var fields []string
		tags := arr{obj{"type": "SIGNATURETEMPLATE", "x": 72, "y": 100, "width": 200, "height": 40, "role": "Client", "document": 1, "customData": obj{}, "page": 1}}
		for id, f := range base.Fields {
			fields = append(fields, id)
			tags = append(tags, obj{"type": "INITIALSTEMPLATE", "x": f.Box.LLX, "y": f.Box.LLY, "width": f.Box.URX - f.Box.LLX,
				"height": f.Box.URY - f.Box.LLY, "role": "Client", "document": 0, "customData": obj{}, "page": f.Page})
		}
		created, etag := s.createTemplate(acme.Token, obj{"name": "Services", "roles": arr{obj{"name": "Client"}},
			"documents": arr{obj{"document": oldDoc.Location}, obj{"document": other.Location}}, "tags": tags})
		path := "/api/v1/templates/" + created["id"].(string) + "/documents/0/revise"
		body := obj{"documentId": newDoc.ID}

		stale := jsonReq(http.MethodPost, path, acme.Token, body)
		stale.Header.Set("If-Match", `"7"`)
		s.do(stale).problem(http.StatusPreconditionFailed)
		s.do(jsonReq(http.MethodPost, "/api/v1/templates/"+created["id"].(string)+"/documents/5/revise", acme.Token, body)).problem(http.StatusNotFound)

		req := jsonReq(http.MethodPost, path, acme.Token, body)
		req.Header.Set("If-Match", etag)
		var got struct {
			Version   int `json:"version"`
			Documents []struct {
				DocumentID string `json:"documentId"`
			} `json:"documents"`
			Tags []struct {
				Document int     `json:"document"`
				Page     int     `json:"page"`
				X        float64 `json:"x"`
				Y        float64 `json:"y"`
			} `json:"tags"`
			Revision struct {
				Tags []struct {
					ID      string `json:"id"`
					Outcome string `json:"outcome"`
				} `json:"tags"`
				Flagged int `json:"flagged"`
			} `json:"revision"`
		}
		s.do(req).status(http.StatusOK).json(&got)
		if got.Version != 2 || got.Documents[0].DocumentID != newDoc.ID || got.Documents[1].DocumentID != other.ID || len(got.Tags) != len(tags) {
			t.Fatalf("the new version: %+v", got)
		}
		if got.Tags[0].Document != 1 || got.Tags[0].X != 72 || got.Tags[0].Y != 100 || got.Tags[0].Page != 1 {
			t.Errorf("the other document's tag changed: %+v", got.Tags[0])
		}
		if len(got.Revision.Tags) != len(base.Fields) || got.Revision.Flagged != 0 {
			t.Fatalf("report: %+v", got.Revision)
		}
		for i, name := range fields {
			g, f := got.Tags[i+1], revised.Fields[name]
			if g.Page != f.Page || math.Abs(g.X-f.Box.LLX) > 2 || math.Abs(g.Y-f.Box.LLY) > 2 {
				t.Errorf("%s on page %d at (%.1f, %.1f); its field is on page %d at (%.1f, %.1f)", name, g.Page, g.X, g.Y, f.Page, f.Box.LLX, f.Box.LLY)
			}
		}
		// Version 1 is kept as it was.
		var v1 struct {
			Documents []struct {
				DocumentID string `json:"documentId"`
			} `json:"documents"`
		}
		s.do(api(http.MethodGet, "/api/v1/templates/"+created["id"].(string)+"/versions/1", acme.Token, nil)).status(http.StatusOK).json(&v1)
		if v1.Documents[0].DocumentID != oldDoc.ID {
			t.Errorf("version 1 now names %s", v1.Documents[0].DocumentID)
		}
	})
}

// TestTheCheckOffersKeepHereForAFlaggedTag: a room's tag that a revision
// could not carry surely shows in the session check as needing a look,
// with Show and Keep here; saving it (what Keep here sends) is the look.
func TestTheCheckOffersKeepHereForAFlaggedTag(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		id := tr.add(t, tagForm(signers[0]))
		_, others := pdftest.RevisionCorpus()
		var other uploadedDoc
		s.do(uploadReq(tenant.Token, "other.pdf", others[len(others)-1].PDF, "Other")).status(http.StatusCreated).json(&other)
		path := "/api/v1/transactions/" + tr.room.TransactionID + "/documents/" + firstDocumentID(t, tr) + "/revise"
		var got revisedAnswer
		s.do(jsonReq(http.MethodPost, path, tenant.Token, obj{"documentId": other.ID})).status(http.StatusOK).json(&got)
		if got.Revision.Flagged != 1 {
			t.Fatalf("report: %+v", got.Revision)
		}
		html := tr.b.get(tr.path + "/checklist").status(http.StatusOK).Body.String()
		if !strings.Contains(html, `data-finding="tag_needs_look"`) || !strings.Contains(html, `data-fix="keep" data-fix-tag="`+id+`">Keep here`) ||
			!strings.Contains(html, `data-fix="show" data-fix-tag="`+id+`">Show`) || !strings.Contains(html, "needs a look") {
			t.Fatalf("the check: %s", html)
		}
		row := storedTags(t, env, tr.room.TransactionID)[id]
		tr.send(http.MethodPut, tr.path+"/tags/"+id, tagForm(signers[0], "page", strconv.Itoa(row.Page), "x", fmtNum(row.X), "y", fmtNum(row.Y),
			"version", strconv.Itoa(row.Version))).status(http.StatusOK)
		if html := tr.b.get(tr.path + "/checklist").status(http.StatusOK).Body.String(); strings.Contains(html, "tag_needs_look") {
			t.Fatalf("still flagged after the look: %s", html)
		}
	})
}

// fmtNum writes a coordinate as the editor's form does.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
