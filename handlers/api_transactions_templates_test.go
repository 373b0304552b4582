package handlers_test

import (
	"net/http"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
)

func TestTransactionDocumentFromTemplate(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		tmpl, _ := s.createTemplate(tenant.Token, templatePayload(d))
		id := tmpl["id"].(string)
		created, _ := s.create(tenant.Token, txPayload(d, "r"))
		txURL := "/api/v1/transactions/" + created["id"].(string)

		// Template document 1's one tag is the Seller's: by role, Pat ("buyer") takes it.
		body := txPayload(d, "r")
		doc := at(body, "documents", 0).(obj)
		doc["templateId"], doc["templateDocument"] = id, 1
		at(body, "participants", 0).(obj)["role"] = "Seller"
		at(body, "participants", 1).(obj)["role"] = "Buyer"
		var got obj
		s.do(jsonReq(http.MethodPut, txURL, tenant.Token, body)).status(http.StatusCreated).json(&got)
		tags := at(got, "documents", 0, "tags").([]any)
		if len(tags) != 4 {
			t.Fatalf("tags = %v", tags)
		}
		assertEchoes(t, at(txPayload(d, "r"), "documents", 0, "tags"), tags[:3], "tags")
		want := clone(at(tmpl, "tags", 1).(obj))
		delete(want, "role")
		delete(want, "document")
		want["signerId"] = "buyer"
		want["customData"] = obj{"template": id, "templateVersion": 1}
		assertEchoes(t, want, tags[3], "tags/3")
		if _, has := at(got, "documents", 0).(obj)["templateId"]; has {
			t.Fatalf("templateId is echoed: %v", at(got, "documents", 0))
		}
		var read obj
		s.do(api(http.MethodGet, txURL, tenant.Token, nil)).status(http.StatusOK).json(&read)
		assertEchoes(t, got["documents"], read["documents"], "read")

		// In order: the Buyer is participant 0; template document 0 has a tag for nobody.
		body = txPayload(d, "r")
		doc = at(body, "documents", 0).(obj)
		doc["templateId"], doc["tags"] = id, arr{}
		p := s.do(jsonReq(http.MethodPut, txURL, tenant.Token, body)).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/documents/0/templateId", "unassigned_role")

		// Custom data keeps its members and gains the template's.
		custom := templatePayload(d)
		custom["tags"] = arr{obj{"type": "SIGNATURETEMPLATE", "x": 72, "y": 100, "width": 200, "height": 40, "role": "Buyer", "document": 0,
			"customData": obj{"label": "Sign", "template": "stale"}, "page": 1}}
		other, _ := s.createTemplate(tenant.Token, custom)
		doc["templateId"] = other["id"]
		s.do(jsonReq(http.MethodPut, txURL, tenant.Token, body)).status(http.StatusCreated).json(&got)
		assertEchoes(t, obj{"label": "Sign", "template": other["id"], "templateVersion": 1}, at(got, "documents", 0, "tags", 0, "customData"), "customData")
		if at(got, "documents", 0, "tags", 0, "signerId") != "buyer" {
			t.Fatalf("tag = %v", at(got, "documents", 0, "tags", 0))
		}

		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusOK).json(&read)
		if read["uses"] != float64(1) || read["lastUsedAt"] == nil {
			t.Fatalf("uses = %v", read["uses"])
		}
	})
}

func TestTransactionTemplateRefusals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		tmpl, _ := s.createTemplate(tenant.Token, templatePayload(d))
		id := tmpl["id"].(string)
		var a4 uploadedDoc
		s.do(uploadReq(tenant.Token, "a4.pdf", threePagesOf(t, pdf.Box{URX: 595, URY: 842}), "")).status(http.StatusCreated).json(&a4)
		refused := func(status int, change func(b obj), pointer, code string) {
			t.Helper()
			body := txPayload(d, "r")
			doc := at(body, "documents", 0).(obj)
			doc["templateId"], doc["templateDocument"] = id, 1
			change(body)
			hasError(t, s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, body)).problem(status), pointer, code)
		}
		refused(422, func(b obj) { at(b, "documents", 0).(obj)["templateId"] = "nope" }, "#/documents/0/templateId", "unknown_template")
		refused(422, func(b obj) { at(b, "documents", 0).(obj)["templateDocument"] = 5 }, "#/documents/0/templateDocument", "unknown_document")
		refused(422, func(b obj) {
			doc := at(b, "documents", 0).(obj)
			doc["id"], doc["gcsRefId"], doc["tags"] = a4.ID, a4.GCSRefID, arr{}
		}, "#/documents/0/templateId", "template_mismatch")
		refused(422, func(b obj) { at(b, "participants", 0).(obj)["role"] = "Notary" }, "#/participants/0/role", "unknown_role")
		refused(422, func(b obj) {
			at(b, "participants", 0).(obj)["role"] = "Seller"
			at(b, "participants", 1).(obj)["role"] = "Seller"
		}, "#/participants/1/role", "duplicate_role")
		refused(400, func(b obj) { delete(at(b, "documents", 0).(obj), "templateId") }, "#/documents/0/templateDocument", "conflicting_value")
		s.do(api(http.MethodDelete, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusNoContent)
		refused(422, func(obj) {}, "#/documents/0/templateId", "unknown_template")
	})
}
