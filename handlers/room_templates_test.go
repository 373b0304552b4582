package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
)

// roomJSON posts a JSON body to a room route as the editor's network module
// does (CSRF header); csrf "" sends none.
func (tr *tagRoom) roomJSON(path string, body any, csrf string) *response {
	raw, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	req := httptest.NewRequest(http.MethodPost, tr.path+path, strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	return tr.b.do(req)
}

// saveTemplate saves the room as a template and returns its id and version.
func (tr *tagRoom) saveTemplate(t *testing.T, body obj) (string, int) {
	t.Helper()
	var out struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
	}
	tr.roomJSON("/templates", body, tr.csrf).status(http.StatusCreated).json(&out)
	return out.ID, out.Version
}

func TestRoomSaveAndApplyTemplate(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, obj{"documents": obj{"detectTags": false}})
		signers := tr.participantIDs(t)
		tr.add(t, tagForm(signers[0]))
		tr.add(t, tagForm(signers[1], "page", "3", "x", "300.5", "type", "DATETEMPLATE", "dateFormat", "MM/DD/YYYY"))
		tr.add(t, tagForm("", "page", "1", "type", "FULLNAMETEMPLATE"))

		// Save: the room's roles, renamed; the room then offers "Update".
		id, version := tr.saveTemplate(t, obj{"name": "Lease", "documents": arr{0}, "roleNames": arr{"Buyer", "Seller"}})
		if version != 1 {
			t.Fatalf("version %d", version)
		}
		var got obj
		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusOK).json(&got)
		if got["name"] != "Lease" || len(got["tags"].([]any)) != 3 || at(got, "roles", 0, "name") != "Buyer" || at(got, "roles", 1, "name") != "Seller" {
			t.Fatalf("template %v", got)
		}
		roles := map[any]int{}
		for _, tag := range got["tags"].([]any) {
			roles[tag.(obj)["role"]]++
		}
		if roles["Buyer"] != 1 || roles["Seller"] != 1 || roles[nil] != 1 {
			t.Fatalf("tag roles %v", roles)
		}
		var versions struct {
			Items []obj `json:"items"`
		}
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions", tenant.Token, nil)).status(http.StatusOK).json(&versions)
		if a := at(versions.Items[0], "actor").(obj); a["kind"] != "room" {
			t.Fatalf("actor %v", a)
		}
		if html := tr.b.get(tr.path).status(http.StatusOK).Body.String(); !strings.Contains(html, "Update ‘Lease’") {
			t.Fatal("the room does not offer to update the template it was saved as")
		}
		if _, v := tr.saveTemplate(t, obj{"name": "Lease", "templateId": id, "roleNames": arr{"Buyer", "Seller"}}); v != 2 {
			t.Fatalf("update made version %d", v)
		}

		// The search lists it with its documents' tag counts and roles.
		var list struct {
			Items []obj `json:"items"`
		}
		tr.b.get(tr.path + "/templates?q=LEA").status(http.StatusOK).json(&list)
		if len(list.Items) != 1 || list.Items[0]["id"] != id || at(list.Items[0], "documents", 0, "tags") != float64(3) ||
			at(list.Items[0], "documents", 0, "pages") != float64(3) || at(list.Items[0], "roles", 1) != "Seller" {
			t.Fatalf("list %v", list.Items)
		}

		// Apply in another room: Seller → its first participant, Buyer left out.
		other := openTagRoom(t, s, tenant, obj{"documents": obj{"detectTags": false}})
		people := other.participantIDs(t)
		var applied struct {
			TagIDs  []string `json:"tagIds"`
			Version int      `json:"version"`
			Title   string   `json:"title"`
		}
		other.roomJSON("/templates/apply", obj{"templateId": id, "document": 0, "roles": obj{"Seller": people[0]}}, other.csrf).
			status(http.StatusCreated).json(&applied)
		if len(applied.TagIDs) != 3 || applied.Version != 2 || applied.Title == "" {
			t.Fatalf("applied %+v", applied)
		}
		var rows []models.Tag
		if err := env.DB.DB.Where("transaction_id = ?", other.room.TransactionID).Order("position").Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		signerOf := map[string]string{}
		for _, r := range rows {
			signerOf[r.Type] = r.SignerID
			if !strings.Contains(string(r.CustomData), `"template":"`+id+`","templateVersion":2`) {
				t.Errorf("customData %s", r.CustomData)
			}
		}
		if len(rows) != 3 || signerOf["DATETEMPLATE"] != people[0] || signerOf["SIGNATURETEMPLATE"] != "" || rows[0].X != 72 || rows[1].X != 300.5 {
			t.Fatalf("placed %+v", rows)
		}
		var events []models.TransactionEvent
		env.DB.DB.Where("transaction_id = ? AND kind = ?", other.room.TransactionID, models.EventTagsBatch).Find(&events)
		if len(events) != 1 {
			t.Fatalf("%d batch events, want one", len(events))
		}
		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusOK).json(&got)
		if got["uses"] != float64(1) || got["lastUsedAt"] == nil {
			t.Fatalf("uses %v, lastUsedAt %v", got["uses"], got["lastUsedAt"])
		}
	})
}

func TestRoomTemplateRefusals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		tr.add(t, tagForm(signers[0]))
		id, _ := tr.saveTemplate(t, obj{"name": "Lease"})

		// The CSRF header is required.
		tr.roomJSON("/templates", obj{"name": "Lease"}, "").status(http.StatusForbidden)
		tr.roomJSON("/templates/apply", obj{"templateId": id, "document": 0}, "").status(http.StatusForbidden)

		// 400: syntax, types, unknown fields.
		hasError(t, tr.roomJSON("/templates", obj{"name": "", "documents": arr{"a", 0, 0}, "extra": 1}, tr.csrf).problem(http.StatusBadRequest),
			"#/documents/0", "invalid_type")
		hasError(t, tr.roomJSON("/templates/apply", obj{"templateId": id, "roles": obj{"Buyer": 3}}, tr.csrf).problem(http.StatusBadRequest),
			"#/document", "required")

		// 422s.
		hasError(t, tr.roomJSON("/templates", obj{"name": "X", "documents": arr{4}}, tr.csrf).problem(http.StatusUnprocessableEntity),
			"#/documents/0", "unknown_document")
		hasError(t, tr.roomJSON("/templates", obj{"name": "X", "templateId": "nope"}, tr.csrf).problem(http.StatusUnprocessableEntity),
			"#/templateId", "unknown_template")
		hasError(t, tr.roomJSON("/templates/apply", obj{"templateId": "nope", "document": 0}, tr.csrf).problem(http.StatusUnprocessableEntity),
			"#/templateId", "unknown_template")
		p := tr.roomJSON("/templates/apply", obj{"templateId": id, "document": 0, "templateDocument": 1,
			"roles": obj{"Mayor": signers[0]}}, tr.csrf).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/templateDocument", "unknown_document")
		hasError(t, p, "#/roles/Mayor", "unknown_role")
		hasError(t, tr.roomJSON("/templates/apply", obj{"templateId": id, "document": 0, "roles": obj{"Pat Buyer": "p_nobody"}}, tr.csrf).
			problem(http.StatusUnprocessableEntity), "#/roles/Pat Buyer", "unknown_signer")
		hasError(t, tr.roomJSON("/templates/apply", obj{"templateId": id, "document": 3}, tr.csrf).problem(http.StatusUnprocessableEntity),
			"#/document", "unknown_document")

		// A document of another page size: template_mismatch, nothing placed.
		var d uploadedDoc
		s.do(uploadReq(tenant.Token, "a4.pdf", threePagesOf(t, pdf.Box{URX: 595, URY: 842}), "")).status(http.StatusCreated).json(&d)
		body := roomBody(tenant, d)
		body["config"] = obj{"documents": obj{"detectTags": false}}
		r := s.createRoom(tenant.Token, body)
		b := s.browser()
		path := b.open(r.URL)
		a4 := &tagRoom{s: s, b: b, token: tenant.Token, room: r, path: path, csrf: csrf(t, b.get(path).status(http.StatusOK).Body.String())}
		hasError(t, a4.roomJSON("/templates/apply", obj{"templateId": id, "document": 0}, a4.csrf).problem(http.StatusUnprocessableEntity),
			"#/document", "template_mismatch")
		if n := len(storedTags(t, env, r.TransactionID)); n != 0 {
			t.Fatalf("%d tags placed by a refused apply", n)
		}

		// Another organization's template is unknown here.
		other := env.NewTenant(t, "Other")
		otherRoom := openTagRoom(t, s, other, nil)
		hasError(t, otherRoom.roomJSON("/templates/apply", obj{"templateId": id, "document": 0}, otherRoom.csrf).problem(http.StatusUnprocessableEntity),
			"#/templateId", "unknown_template")
		otherRoom.b.get(otherRoom.path + "/templates").status(http.StatusOK)
	})
}

func TestRoomTemplateFlags(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		on := openTagRoom(t, s, tenant, nil)
		id, _ := on.saveTemplate(t, obj{"name": "Lease"})
		if on.room.Config.Templates["save"] != true || on.room.Config.Templates["apply"] != true {
			t.Fatalf("default config.templates %v", on.room.Config.Templates)
		}
		html := on.b.get(on.path).status(http.StatusOK).Body.String()
		if !strings.Contains(html, "data-template-save") || !strings.Contains(html, "data-template-apply") {
			t.Fatal("the controls are missing with both flags on")
		}

		off := openTagRoom(t, s, tenant, obj{"templates": obj{"save": false, "apply": false}})
		if off.room.Config.Templates["save"] || off.room.Config.Templates["apply"] {
			t.Fatalf("config.templates %v", off.room.Config.Templates)
		}
		html = off.b.get(off.path).status(http.StatusOK).Body.String()
		if strings.Contains(html, "data-template-save") || strings.Contains(html, "data-template-apply") {
			t.Fatal("a control is shown with its flag off")
		}
		off.roomJSON("/templates", obj{"name": "Lease"}, off.csrf).problem(http.StatusForbidden)
		off.roomJSON("/templates/apply", obj{"templateId": id, "document": 0}, off.csrf).problem(http.StatusForbidden)
		off.b.get(off.path + "/templates").status(http.StatusForbidden)

		// Applying also needs documents.edit, like every tag change.
		noEdit := openTagRoom(t, s, tenant, obj{"documents": obj{"edit": false}})
		noEdit.roomJSON("/templates/apply", obj{"templateId": id, "document": 0}, noEdit.csrf).problem(http.StatusForbidden)
	})
}
