package handlers_test

import (
	"net/http"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// threePagesOf is a PDF of three pages with box as their MediaBox.
func threePagesOf(t *testing.T, box pdf.Box) []byte {
	t.Helper()
	b, err := pdf.SampleTree(pdf.SampleNode{MediaBox: box, Kids: []pdf.SampleNode{{}, {}, {}}}, "Three pages")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roomTransaction reads the transaction a room edits.
func (s *server) roomTransaction(token string, r roomResp) obj {
	s.t.Helper()
	var tx obj
	s.do(api(http.MethodGet, "/api/v1/transactions/"+r.TransactionID, token, nil)).status(http.StatusOK).json(&tx)
	return tx
}

func TestRoomFromTemplate(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		tmpl, _ := s.createTemplate(tenant.Token, templatePayload(d))
		id := tmpl["id"].(string)
		tmplTags := tmpl["tags"].([]any)

		// No documents: the template's, with its tags, roles to participants in order.
		body := roomBody(tenant, d)
		delete(body, "documents")
		body["templateId"] = id
		tx := s.roomTransaction(tenant.Token, s.createRoom(tenant.Token, body))
		pat, robin := at(tx, "participants", 0, "id"), at(tx, "participants", 1, "id")
		docs := tx["documents"].([]any)
		if len(docs) != 2 || at(docs, 0, "title") != d.Title || at(docs, 1, "title") != "Addendum" || at(docs, 1, "id") != d.ID {
			t.Fatalf("documents = %v", docs)
		}
		signerOf := map[string]any{"Buyer": pat, "Seller": robin, "": ""}
		placed := map[int][]any{0: at(docs, 0, "tags").([]any), 1: at(docs, 1, "tags").([]any)}
		if len(placed[0]) != 2 || len(placed[1]) != 1 {
			t.Fatalf("tags placed: %v", placed)
		}
		next := map[int]int{}
		for _, raw := range tmplTags {
			want := clone(raw.(obj))
			doc := int(want["document"].(float64))
			role, _ := want["role"].(string)
			delete(want, "role")
			delete(want, "document")
			want["signerId"] = signerOf[role]
			got := placed[doc][next[doc]]
			next[doc]++
			assertEchoes(t, want, got, "tag")
		}

		// With documents, by the participants' roles: Robin is the Buyer; nobody is the Seller.
		body = roomBody(tenant, d)
		body["templateId"] = id
		body["participants"] = arr{
			obj{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"},
			obj{"firstName": "Robin", "lastName": "Seller", "email": "robin@example.com", "role": "Buyer"},
		}
		tx = s.roomTransaction(tenant.Token, s.createRoom(tenant.Token, body))
		robin = at(tx, "participants", 1, "id")
		tags := at(tx, "documents", 0, "tags").([]any)
		if len(tx["documents"].([]any)) != 1 || len(tags) != 2 || at(tags, 0, "signerId") != robin || at(tags, 1, "signerId") != "" ||
			at(tags, 0, "x") != float64(72) || at(tags, 0, "y") != float64(100) {
			t.Fatalf("tags = %v", tags)
		}
		// A template made from the room's draft keeps the unassigned tag unassigned.
		copied, _ := s.createTemplate(tenant.Token, obj{"name": "From the room", "transactionId": tx["id"]})
		assertEchoes(t, arr{obj{"name": "Pat Buyer"}, obj{"name": "Robin Seller"}}, copied["roles"], "roles")
		if at(copied, "tags", 0, "role") != "Robin Seller" || at(copied, "tags", 1).(obj)["role"] != nil {
			t.Fatalf("tags copied from the room: %v", copied["tags"])
		}

		// A page box within 1 pt fits.
		var near uploadedDoc
		s.do(uploadReq(tenant.Token, "near.pdf", threePagesOf(t, pdf.Box{URX: 612.5, URY: 791.2}), "")).status(http.StatusCreated).json(&near)
		body = roomBody(tenant, near)
		body["templateId"] = id
		s.createRoom(tenant.Token, body)

		// Every use counts.
		var read obj
		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusOK).json(&read)
		if read["uses"] != float64(3) || read["lastUsedAt"] == nil {
			t.Fatalf("uses = %v, lastUsedAt = %v", read["uses"], read["lastUsedAt"])
		}
	})
}

func TestRoomFromTemplateRefusals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		d := s.upload(tenant.Token)
		tmpl, _ := s.createTemplate(tenant.Token, templatePayload(d))
		id := tmpl["id"].(string)
		refused := func(change func(b obj), pointer, code string) {
			t.Helper()
			body := roomBody(tenant, d)
			body["templateId"] = id
			change(body)
			hasError(t, s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)).problem(http.StatusUnprocessableEntity), pointer, code)
		}
		refused(func(b obj) { b["templateId"] = "0190e7a0-0000-7000-8000-000000000000" }, "#/templateId", "unknown_template")
		refused(func(b obj) { at(b, "participants", 0).(obj)["role"] = "Notary" }, "#/participants/0/role", "unknown_role")
		refused(func(b obj) {
			at(b, "participants", 0).(obj)["role"] = "Buyer"
			at(b, "participants", 1).(obj)["role"] = "Buyer"
		}, "#/participants/1/role", "duplicate_role")
		refused(func(b obj) { delete(b, "templateId"); at(b, "participants", 0).(obj)["role"] = "Buyer" }, "#/participants/0/role", "unknown_role")

		var a4 uploadedDoc
		s.do(uploadReq(tenant.Token, "a4.pdf", threePagesOf(t, pdf.Box{URX: 595, URY: 842}), "")).status(http.StatusCreated).json(&a4)
		refused(func(b obj) { b["documents"] = arr{d.Location, a4.Location} }, "#/documents/1", "template_mismatch")
		odd, _ := pdftestOddGeometry(t)
		var short uploadedDoc
		s.do(uploadReq(tenant.Token, "odd.pdf", odd, "")).status(http.StatusCreated).json(&short)
		refused(func(b obj) { b["documents"] = arr{short.Location} }, "#/documents/0", "template_mismatch")

		// Another organization's template, and an archived one, are unknown.
		body := roomBody(other, s.upload(other.Token))
		body["templateId"] = id
		hasError(t, s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", other.Token, body)).problem(http.StatusUnprocessableEntity), "#/templateId", "unknown_template")
		s.do(api(http.MethodDelete, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusNoContent)
		refused(func(obj) {}, "#/templateId", "unknown_template")
	})
}

// pdftestOddGeometry is a PDF whose pages differ from the template's (six
// pages of mixed sizes).
func pdftestOddGeometry(t *testing.T) ([]byte, []pdf.Page) { return pdftest.OddGeometry(t) }
