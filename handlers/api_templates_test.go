package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// templatePayload is a template body with two documents (the same upload
// twice), two roles and three tags, one of them for nobody yet.
func templatePayload(d uploadedDoc) obj {
	return obj{
		"name":        "Purchase agreement",
		"description": "Weekly purchase agreement",
		"documents":   arr{obj{"document": d.Location}, obj{"document": d.GCSRefID, "title": "Addendum"}},
		"roles":       arr{obj{"name": "Buyer"}, obj{"name": "Seller"}},
		"tags": arr{
			obj{"type": "SIGNATURETEMPLATE", "x": 72, "y": 100, "width": 200, "height": 40, "role": "Buyer", "document": 0,
				"customData": obj{"zeta": 1, "alpha": "a"}, "page": 1, "required": true},
			obj{"type": "DATETEMPLATE", "x": 300.5, "y": 100.25, "width": 120, "height": 20, "role": "Seller", "document": 1,
				"customData": obj{}, "page": 3, "dateFormat": "MM/DD/YYYY", "fontSize": 11},
			obj{"type": "FULLNAMETEMPLATE", "x": 10, "y": 10, "width": 100, "height": 20, "document": 0,
				"customData": obj{"page": 2}},
		},
	}
}

// createTemplate posts payload and returns the template and its ETag.
func (s *server) createTemplate(token string, payload obj) (obj, string) {
	s.t.Helper()
	res := s.do(jsonReq(http.MethodPost, "/api/v1/templates", token, payload)).status(http.StatusCreated)
	var out obj
	res.json(&out)
	if res.Header().Get("Location") != "/api/v1/templates/"+out["id"].(string) {
		s.t.Fatalf("Location = %q", res.Header().Get("Location"))
	}
	return out, res.Header().Get("ETag")
}

func TestTemplateRoundTripVersionsAndRestore(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		sent := templatePayload(d)
		created, etag := s.createTemplate(tenant.Token, sent)
		id := created["id"].(string)
		if etag != `"1"` || created["version"] != float64(1) || created["uses"] != float64(0) || created["lastUsedAt"] != nil {
			t.Fatalf("created %v with ETag %s", created, etag)
		}
		assertEchoes(t, sent["roles"], created["roles"], "roles")
		wantDocs := arr{obj{"index": 0, "documentId": d.ID, "title": d.Title, "pages": 3}, obj{"index": 1, "documentId": d.ID, "title": "Addendum", "pages": 3}}
		assertEchoes(t, wantDocs, created["documents"], "documents")
		tags := at(created, "tags").([]any)
		assertEchoes(t, at(sent, "tags", 0), tags[0], "tags/0")
		assertEchoes(t, at(sent, "tags", 1), tags[1], "tags/1")
		// A lifted field inside customData moves out, as in operation A; no role means nobody yet.
		if at(tags[2], "page") != float64(2) || len(at(tags[2], "customData").(obj)) != 0 || tags[2].(obj)["role"] != nil {
			t.Fatalf("tag 2 = %v", tags[2])
		}

		var read obj
		res := s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusOK).json(&read)
		if res.Header().Get("ETag") != `"1"` {
			t.Fatalf("GET ETag = %q", res.Header().Get("ETag"))
		}
		assertEchoes(t, created, read, "")

		var list struct{ Items []obj }
		s.do(api(http.MethodGet, "/api/v1/templates", tenant.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 1 {
			t.Fatalf("list = %v", list.Items)
		}
		assertEchoes(t, obj{"id": id, "name": "Purchase agreement", "version": 1, "documents": 2, "pages": 6, "tags": 3, "roles": 2, "uses": 0},
			list.Items[0], "items/0")

		// A read sent back is a valid replace; If-Match guards it.
		changed := clone(read)
		changed["name"] = "Purchase agreement (2027)"
		changed["tags"] = arr{at(read, "tags", 0)}
		s.do(withHeader(jsonReq(http.MethodPut, "/api/v1/templates/"+id, tenant.Token, changed), "If-Match", `"7"`)).problem(http.StatusPreconditionFailed)
		var v2 obj
		res = s.do(withHeader(jsonReq(http.MethodPut, "/api/v1/templates/"+id, tenant.Token, changed), "If-Match", etag)).status(http.StatusOK).json(&v2)
		if v2["version"] != float64(2) || res.Header().Get("ETag") != `"2"` || len(v2["tags"].([]any)) != 1 || v2["name"] != "Purchase agreement (2027)" {
			t.Fatalf("replace answered %v (ETag %s)", v2, res.Header().Get("ETag"))
		}

		var versions struct{ Items []obj }
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions", tenant.Token, nil)).status(http.StatusOK).json(&versions)
		if len(versions.Items) != 2 || versions.Items[0]["version"] != float64(2) || versions.Items[1]["tags"] != float64(3) {
			t.Fatalf("versions = %v", versions.Items)
		}
		assertEchoes(t, obj{"kind": "api_token", "id": at(versions.Items[0], "actor", "id")}, versions.Items[0]["actor"], "actor")
		if at(versions.Items[0], "actor", "id") == "" {
			t.Fatalf("the actor has no id: %v", versions.Items[0])
		}

		var v1 obj
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions/1", tenant.Token, nil)).status(http.StatusOK).json(&v1)
		assertEchoes(t, created["tags"], v1["tags"], "v1/tags")
		assertEchoes(t, created["documents"], v1["documents"], "v1/documents")
		if v1["name"] != "Purchase agreement" {
			t.Fatalf("version 1 = %v", v1)
		}
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions/9", tenant.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions/0", tenant.Token, nil)).problem(http.StatusNotFound)

		// Restore: a new version equal to version 1, once per Idempotency-Key.
		restore := func() *response {
			return s.do(withHeader(api(http.MethodPost, "/api/v1/templates/"+id+"/versions/1/restore", tenant.Token, nil), "Idempotency-Key", "restore-1"))
		}
		var v3, again obj
		res = restore().status(http.StatusCreated).json(&v3)
		restore().status(http.StatusCreated).json(&again)
		if v3["version"] != float64(3) || again["version"] != float64(3) || res.Header().Get("ETag") != `"3"` || v3["name"] != "Purchase agreement" {
			t.Fatalf("restore answered %v, then %v", v3, again)
		}
		assertEchoes(t, created["tags"], v3["tags"], "v3/tags")
		assertEchoes(t, created["roles"], v3["roles"], "v3/roles")
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions", tenant.Token, nil)).status(http.StatusOK).json(&versions)
		if len(versions.Items) != 3 || versions.Items[0]["restoredFrom"] != float64(1) {
			t.Fatalf("versions after restore = %v", versions.Items)
		}
		s.do(api(http.MethodPost, "/api/v1/templates/"+id+"/versions/8/restore", tenant.Token, nil)).problem(http.StatusNotFound)

		// Archive: gone from reads and lists, versions kept in the database.
		s.do(api(http.MethodDelete, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusNoContent)
		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions", tenant.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions/1", tenant.Token, nil)).problem(http.StatusNotFound)
		s.do(jsonReq(http.MethodPut, "/api/v1/templates/"+id, tenant.Token, changed)).problem(http.StatusNotFound)
		s.do(api(http.MethodPost, "/api/v1/templates/"+id+"/versions/1/restore", tenant.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodDelete, "/api/v1/templates/"+id, tenant.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/templates", tenant.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 0 {
			t.Fatalf("an archived template is listed: %v", list.Items)
		}
		var kept int64
		if err := env.DB.DB.Model(&models.TemplateVersion{}).Where("template_id = ?", id).Count(&kept).Error; err != nil || kept != 3 {
			t.Fatalf("versions kept after archiving: %d, %v", kept, err)
		}
	})
}

func withHeader(req *http.Request, name, value string) *http.Request {
	req.Header.Set(name, value)
	return req
}

func TestTemplateFromTransaction(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		tx, _ := s.create(tenant.Token, txPayload(d, "weekly"))
		txID := tx["id"].(string)

		named, _ := s.createTemplate(tenant.Token, obj{"name": "As the participants", "transactionId": txID})
		assertEchoes(t, arr{obj{"name": "Pat Buyer"}, obj{"name": "Robin Seller"}}, named["roles"], "roles")

		renamed, _ := s.createTemplate(tenant.Token, obj{"name": "Renamed", "transactionId": txID, "roleNames": arr{"Buyer", "Seller"}})
		assertEchoes(t, arr{obj{"name": "Buyer"}, obj{"name": "Seller"}}, renamed["roles"], "roles")
		assertEchoes(t, arr{obj{"index": 0, "documentId": d.ID, "title": "Purchase Agreement", "pages": 3}}, renamed["documents"], "documents")
		// Each tag is the transaction's, its signer replaced by the role and its document named.
		for i, want := range at(tx, "documents", 0, "tags").([]any) {
			w := clone(want.(obj))
			w["role"] = map[string]string{"buyer": "Buyer", "seller": "Seller"}[w["signerId"].(string)]
			delete(w, "signerId")
			w["document"] = 0
			assertEchoes(t, w, at(renamed, "tags", i), "tags")
			if _, has := at(renamed, "tags", i).(obj)["signerId"]; has {
				t.Fatalf("a template tag has a signerId: %v", at(renamed, "tags", i))
			}
		}

		// Only the first role renamed: the second keeps the participant's name.
		partly, _ := s.createTemplate(tenant.Token, obj{"name": "Partly", "transactionId": txID, "roleNames": arr{"Buyer"}})
		assertEchoes(t, arr{obj{"name": "Buyer"}, obj{"name": "Robin Seller"}}, partly["roles"], "roles")

		p := s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, obj{"name": "x", "transactionId": txID, "roleNames": arr{"A", "A"}})).
			problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/roleNames/1", "duplicate_role")
		p = s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, obj{"name": "x", "transactionId": txID, "roleNames": arr{"A", "B", "C"}})).
			problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/roleNames", "too_many_roles")
		p = s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, obj{"name": "x", "transactionId": "0190e7a0-0000-7000-8000-000000000000"})).
			problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/transactionId", "unknown_transaction")
	})
}

func TestTemplatesAreScopedToTheirOrganization(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "A")
		b := env.NewTenant(t, "B")
		d := s.upload(a.Token)
		created, _ := s.createTemplate(a.Token, templatePayload(d))
		id := created["id"].(string)
		base := "/api/v1/templates/" + id
		s.do(api(http.MethodGet, base, b.Token, nil)).problem(http.StatusNotFound)
		s.do(jsonReq(http.MethodPut, base, b.Token, templatePayload(d))).problem(http.StatusNotFound)
		s.do(api(http.MethodDelete, base, b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, base+"/versions", b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, base+"/versions/1", b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodPost, base+"/versions/1/restore", b.Token, nil)).problem(http.StatusNotFound)
		var list struct{ Items []obj }
		s.do(api(http.MethodGet, "/api/v1/templates", b.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 0 {
			t.Fatalf("organization B lists A's templates: %v", list.Items)
		}
		// A's uploads and transactions are not B's to copy.
		p := s.do(jsonReq(http.MethodPost, "/api/v1/templates", b.Token, templatePayload(d))).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/documents/0/document", "unknown_document")
		hasError(t, p, "#/documents/1/document", "unknown_document")
		tx, _ := s.create(a.Token, txPayload(d, "r"))
		p = s.do(jsonReq(http.MethodPost, "/api/v1/templates", b.Token, obj{"name": "x", "transactionId": tx["id"]})).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/transactionId", "unknown_transaction")
		// A's template is untouched.
		var read obj
		s.do(api(http.MethodGet, base, a.Token, nil)).status(http.StatusOK).json(&read)
		if read["version"] != float64(1) {
			t.Fatalf("A's template changed: %v", read)
		}
		s.do(api(http.MethodGet, "/api/v1/templates", "", nil)).problem(http.StatusUnauthorized)
	})
}

func TestTemplateValidation400(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		tooManyDocs := arr{}
		for range models.MaxTemplateDocuments + 1 {
			tooManyDocs = append(tooManyDocs, obj{"document": d.ID})
		}
		tooManyRoles := arr{}
		for i := range models.MaxTemplateRoles + 1 {
			tooManyRoles = append(tooManyRoles, obj{"name": "Role " + strings.Repeat("x", i)})
		}
		tooManyTags := arr{}
		for range models.MaxTemplateTagsPerDocument + 1 {
			tooManyTags = append(tooManyTags, obj{"type": "DATETEMPLATE", "x": 1, "y": 1, "width": 1, "height": 1, "document": 0, "customData": obj{}, "page": 1})
		}
		cases := []struct {
			name    string
			change  func(p obj)
			pointer string
			code    string
		}{
			{"name missing", func(p obj) { delete(p, "name") }, "#/name", "required"},
			{"name of two lines", func(p obj) { p["name"] = "a\nb" }, "#/name", "invalid_character"},
			{"name too long", func(p obj) { p["name"] = strings.Repeat("n", 256) }, "#/name", "too_long"},
			{"unknown field", func(p obj) { p["colour"] = "red" }, "#/colour", "unknown_field"},
			{"documents missing", func(p obj) { delete(p, "documents") }, "#/documents", "required"},
			{"no documents", func(p obj) { p["documents"] = arr{}; p["tags"] = arr{} }, "#/documents", "required"},
			{"21 documents", func(p obj) { p["documents"] = tooManyDocs }, "#/documents", "too_many"},
			{"51 roles", func(p obj) { p["roles"] = tooManyRoles }, "#/roles", "too_many"},
			{"5,001 tags on a document", func(p obj) { p["tags"] = tooManyTags }, "#/tags", "too_many"},
			{"role without a name", func(p obj) { p["roles"] = arr{obj{}} }, "#/roles/0/name", "required"},
			{"tag with a signerId", func(p obj) { at(p, "tags", 0).(obj)["signerId"] = "buyer" }, "#/tags/0/signerId", "unknown_field"},
			{"tag without a document", func(p obj) { delete(at(p, "tags", 0).(obj), "document") }, "#/tags/0/document", "required"},
			{"tag document not a number", func(p obj) { at(p, "tags", 0).(obj)["document"] = "0" }, "#/tags/0/document", "invalid_type"},
			{"tag type unknown", func(p obj) { at(p, "tags", 1).(obj)["type"] = "STAMP" }, "#/tags/1/type", "invalid_enum"},
			{"tag width 0", func(p obj) { at(p, "tags", 1).(obj)["width"] = 0 }, "#/tags/1/width", "out_of_range"},
			{"tag role not text", func(p obj) { at(p, "tags", 0).(obj)["role"] = 3 }, "#/tags/0/role", "invalid_type"},
			{"tag unknown field", func(p obj) { at(p, "tags", 0).(obj)["colour"] = "red" }, "#/tags/0/colour", "unknown_field"},
			{"transaction and documents", func(p obj) { p["transactionId"] = "t" }, "#/documents", "conflicting_value"},
			{"roleNames without transaction", func(p obj) { p["roleNames"] = arr{"Buyer"} }, "#/roleNames", "conflicting_value"},
			{"document named twice", func(p obj) { at(p, "documents", 0).(obj)["documentId"] = d.ID }, "#/documents/0/documentId", "conflicting_value"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := templatePayload(d)
				tc.change(p)
				problem := s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, p)).problem(http.StatusBadRequest)
				hasError(t, problem, tc.pointer, tc.code)
			})
		}
		hasError(t, s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, "{")).problem(http.StatusBadRequest), "#", "invalid_json")
		req := jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, templatePayload(d))
		req.Header.Set("Content-Type", "text/plain")
		s.do(req).problem(http.StatusUnsupportedMediaType)
		s.do(api(http.MethodGet, "/api/v1/templates?limit=0", tenant.Token, nil)).problem(http.StatusBadRequest)
		s.do(api(http.MethodGet, "/api/v1/templates?cursor=nope", tenant.Token, nil)).problem(http.StatusBadRequest)
		s.do(api(http.MethodGet, "/api/v1/templates/not-an-id", tenant.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/templates/0190e7a0-0000-7000-8000-000000000000/versions/x", tenant.Token, nil)).problem(http.StatusNotFound)
		// Nothing of the refused requests was written.
		var list struct{ Items []obj }
		s.do(api(http.MethodGet, "/api/v1/templates", tenant.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 0 {
			t.Fatalf("a refused request left a template: %v", list.Items)
		}
	})
}

func TestTemplateBodyTooLarge(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env, func(d *handlers.Deps) { d.Config.MaxJSONBytes = 512 })
	tenant := env.NewTenant(t, "Acme")
	p := obj{"name": strings.Repeat("n", 1024), "documents": arr{obj{"document": "x"}}}
	s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, p)).problem(http.StatusRequestEntityTooLarge)
}

func TestTemplateValidation422(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		cases := []struct {
			name    string
			change  func(p obj)
			pointer string
			code    string
		}{
			{"unknown upload", func(p obj) { at(p, "documents", 0).(obj)["document"] = "nope" }, "#/documents/0/document", "unknown_document"},
			{"role not declared", func(p obj) { at(p, "tags", 0).(obj)["role"] = "Notary" }, "#/tags/0/role", "unknown_role"},
			{"duplicate role", func(p obj) { p["roles"] = arr{obj{"name": "Buyer"}, obj{"name": "Seller"}, obj{"name": "Buyer"}} }, "#/roles/2/name", "duplicate_role"},
			{"tag outside the page", func(p obj) { at(p, "tags", 0).(obj)["x"] = 600 }, "#/tags/0", "outside_page"},
			{"tag on a missing page", func(p obj) { at(p, "tags", 1).(obj)["page"] = 4 }, "#/tags/1/page", "page_out_of_range"},
			{"tag on a missing document", func(p obj) { at(p, "tags", 1).(obj)["document"] = 2 }, "#/tags/1/document", "unknown_document"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := templatePayload(d)
				tc.change(p)
				problem := s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, p)).problem(http.StatusUnprocessableEntity)
				hasError(t, problem, tc.pointer, tc.code)
			})
		}
		// A failed replace leaves the template as it was.
		created, _ := s.createTemplate(tenant.Token, templatePayload(d))
		bad := templatePayload(d)
		at(bad, "tags", 0).(obj)["role"] = "Notary"
		s.do(jsonReq(http.MethodPut, "/api/v1/templates/"+created["id"].(string), tenant.Token, bad)).problem(http.StatusUnprocessableEntity)
		var read obj
		s.do(api(http.MethodGet, "/api/v1/templates/"+created["id"].(string), tenant.Token, nil)).status(http.StatusOK).json(&read)
		assertEchoes(t, created, read, "")
	})
}

func TestTemplateLimitPerOrganization(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		limited := models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir(), MaxTemplates: 2})
		s := newServer(t, env, withStore(func(handlers.Store) handlers.Store { return limited }))
		a := env.NewTenant(t, "A")
		b := env.NewTenant(t, "B")
		d := s.upload(a.Token)
		first, _ := s.createTemplate(a.Token, templatePayload(d))
		s.createTemplate(a.Token, templatePayload(d))
		p := s.do(jsonReq(http.MethodPost, "/api/v1/templates", a.Token, templatePayload(d))).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#", "too_many_templates")
		// Another organization has its own count; an archived template leaves room.
		s.createTemplate(b.Token, templatePayload(s.upload(b.Token)))
		s.do(api(http.MethodDelete, "/api/v1/templates/"+first["id"].(string), a.Token, nil)).status(http.StatusNoContent)
		s.createTemplate(a.Token, templatePayload(d))
	})
}

func TestListTemplatesSearchesAndPages(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		for _, name := range []string{"Lease", "Purchase agreement", "Sublease 50%_off", "Purchase addendum"} {
			p := templatePayload(d)
			p["name"] = name
			s.createTemplate(tenant.Token, p)
		}
		names := func(url string) ([]string, string) {
			var page struct {
				Items      []obj
				NextCursor string
			}
			s.do(api(http.MethodGet, url, tenant.Token, nil)).status(http.StatusOK).json(&page)
			var out []string
			for _, it := range page.Items {
				out = append(out, it["name"].(string))
			}
			return out, page.NextCursor
		}
		if got, _ := names("/api/v1/templates?q=LEASE"); strings.Join(got, "|") != "Sublease 50%_off|Lease" {
			t.Fatalf("q=LEASE: %v", got)
		}
		if got, _ := names("/api/v1/templates?q=50%25_"); strings.Join(got, "|") != "Sublease 50%_off" {
			t.Fatalf("q=50%%_: %v", got)
		}
		first, cursor := names("/api/v1/templates?limit=3")
		rest, end := names("/api/v1/templates?limit=3&cursor=" + cursor)
		if strings.Join(append(first, rest...), "|") != "Purchase addendum|Sublease 50%_off|Purchase agreement|Lease" || end != "" {
			t.Fatalf("pages: %v then %v (%q)", first, rest, end)
		}
	})
}

func TestTemplateCreateIsIdempotent(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		post := func(p obj) *response {
			return s.do(withHeader(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, p), "Idempotency-Key", "tmpl-1"))
		}
		var one, two obj
		post(templatePayload(d)).status(http.StatusCreated).json(&one)
		post(templatePayload(d)).status(http.StatusCreated).json(&two)
		if one["id"] != two["id"] {
			t.Fatalf("a retry made a second template: %v, %v", one["id"], two["id"])
		}
		other := templatePayload(d)
		other["name"] = "Other"
		hasError(t, post(other).problem(http.StatusUnprocessableEntity), "header:Idempotency-Key", "idempotency_key_reused")
	})
}
