package handlers_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// bidiControls are the explicit bidirectional controls a name may not
// carry: embeddings and overrides (U+202A–U+202E) and isolates
// (U+2066–U+2069).
var bidiControls = []rune{'\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'}

// TestNamesWithBidiControlsAreRefusedAtTheirField: a participant's,
// document's or template's name carrying an embedding, override or isolate
// control is refused with 422 bidi_control at its field, through every
// route that sets such a name — the API's operations A and B, its upload
// and templates, the room's forms, the console's forms and the MCP tools —
// since all of them check names with the one line-of-text validator.
func TestNamesWithBidiControlsAreRefusedAtTheirField(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		tpl, etag := s.createTemplate(tenant.Token, templatePayload(d))
		refused := func(what string, res *response, pointer string) {
			t.Helper()
			p := res.problem(http.StatusUnprocessableEntity)
			hasError(t, p, pointer, "bidi_control")
			if len(p.Errors) != 1 {
				t.Errorf("%s: %d errors, want the one at %s: %+v", what, len(p.Errors), pointer, p.Errors)
			}
		}

		// Every control, in a participant's name of operation A.
		for _, r := range bidiControls {
			body := clone(txPayload(d, "bidi"))
			at(body, "participants", 0).(obj)["lastName"] = "Buyer" + string(r) + "gnp.exe"
			refused(string(r), s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, body)), "#/participants/0/lastName")
		}
		evil := "Invoice \u202eFDP.exe"
		// Operation A: document titles and names, created and replaced.
		for ptr, set := range map[string]func(obj){
			"#/documents/0/title":         func(b obj) { at(b, "documents", 0).(obj)["title"] = evil },
			"#/participants/0/firstName":  func(b obj) { at(b, "participants", 0).(obj)["firstName"] = evil },
			"#/participants/0/middleName": func(b obj) { at(b, "participants", 0).(obj)["middleName"] = evil },
		} {
			body := clone(txPayload(d, "bidi"))
			set(body)
			refused(ptr, s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, body)), ptr)
		}
		var tx struct{ ID string }
		s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, txPayload(d, "ok"))).status(http.StatusCreated).json(&tx)
		replaced := clone(txPayload(d, "ok"))
		at(replaced, "participants", 1).(obj)["firstName"] = evil
		refused("replace", s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+tx.ID, tenant.Token, replaced)), "#/participants/1/firstName")
		// A syntax problem beside it keeps the request a 400, listing both.
		both := clone(txPayload(d, "bidi"))
		at(both, "participants", 0).(obj)["firstName"] = evil
		at(both, "participants", 1).(obj)["firstName"] = "Two\nlines"
		p := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, both)).problem(http.StatusBadRequest)
		hasError(t, p, "#/participants/0/firstName", "bidi_control")
		hasError(t, p, "#/participants/1/firstName", "invalid_character")

		// Operation B: a participant and a role.
		room := roomBody(tenant, d)
		room["participants"].(arr)[1].(obj)["firstName"] = evil
		refused("room", s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, room)), "#/participants/1/firstName")

		// The upload's title (a file name's controls are dropped instead).
		refused("upload", s.do(uploadReq(tenant.Token, "c.pdf", pdfBytes(t), evil)), "#/title")
		var named uploadedDoc
		s.do(uploadReq(tenant.Token, "Invoice \u202efdp.exe.pdf", pdfBytes(t), "")).status(http.StatusCreated).json(&named)
		if named.Title != "Invoice fdp.exe" {
			t.Errorf("title from the file name = %q, want its controls dropped", named.Title)
		}

		// Templates: saved, renamed, and a role's name.
		bad := clone(templatePayload(d))
		bad["name"] = evil
		refused("template", s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, bad)), "#/name")
		bad = clone(templatePayload(d))
		at(bad, "roles", 1).(obj)["name"] = evil
		refused("template role", s.do(jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, bad)), "#/roles/1/name")
		rename := clone(templatePayload(d))
		rename["name"] = evil
		refused("template rename", s.do(withHeader(jsonReq(http.MethodPut, "/api/v1/templates/"+tpl["id"].(string), tenant.Token, rename), "If-Match", etag)), "#/name")

		// The room's forms: the participant dialog, a document's new
		// title, a template saved from the room.
		tr := openTagRoom(t, s, tenant, nil)
		res := tr.b.post(tr.path+"/participants", url.Values{"csrf": {tr.csrf}, "firstName": {evil}, "lastName": {"Lee"}, "email": {"ann@example.com"}}).
			status(http.StatusUnprocessableEntity)
		if html := res.Body.String(); !strings.Contains(html, "data-open-on-load") || !strings.Contains(html, "bidirectional") {
			t.Errorf("the participant dialog does not say why: %s", truncate(html))
		}
		refused("rename", tr.send(http.MethodPost, tr.path+"/documents/0/title", url.Values{"title": {evil}}), "#/title")
		refused("room template", tr.roomJSON("/templates", obj{"name": evil}, tr.csrf), "#/name")
		// In Spanish, the room's refusal is worded in Spanish.
		req := jsonReq(http.MethodPost, tr.path+"/templates", "", obj{"name": evil})
		req.Header.Set("X-CSRF-Token", tr.csrf)
		req.Header.Set("X-Markup-Lang", "es")
		p = tr.b.do(req).problem(http.StatusUnprocessableEntity)
		if p.Errors[0].Detail != speaker(t, "es").T("problem.value.bidi") || !strings.Contains(p.Errors[0].Detail, "bidireccionales") {
			t.Errorf("the Spanish refusal reads %q", p.Errors[0].Detail)
		}
		if docs := tr.docs(t); len(docs) != 1 || len(tr.participantIDs(t)) != 2 {
			t.Fatalf("refused forms changed the room: %d documents, %d participants", len(docs), len(tr.participantIDs(t)))
		}

		// The console's forms: a new room's participant, a user, an organization, a token.
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := postNewRoom(b, [][2]string{{"csrf", token}, {"org", itoa64(tenant.Org.ID)}, {"sender", itoa64(tenant.Sender.ID)},
			{"firstName", "Pat"}, {"lastName", evil}, {"email", "pat@example.com"}}, newRoomFile{"Contract.pdf", pdftest.ThreePages(t)}).
			status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, `id="new-room-error-0"`) || !strings.Contains(page, "bidirectional") {
			t.Errorf("the new room form does not mark the participant: %s", truncate(page))
		}
		org := "/admin/organizations/" + itoa64(tenant.Org.ID)
		for path, form := range map[string]url.Values{
			org + "/users":         {"csrf": {token}, "email": {"new@example.com"}, "firstName": {evil}, "lastName": {"Person"}},
			"/admin/organizations": {"csrf": {token}, "name": {evil}},
			org + "/tokens":        {"csrf": {token}, "name": {evil}},
		} {
			if html := b.post(path, form).status(http.StatusUnprocessableEntity).Body.String(); !strings.Contains(html, "bidirectional") {
				t.Errorf("%s does not say why: %s", path, truncate(html))
			}
		}

		// MCP: the upload's title and a Markup Room's participant.
		a := mustConnect(t, s.mcpURL(), tenant.Token)
		args := pdfArgs("c.pdf", pdfBytes(t))
		args["title"] = evil
		hasError(t, a.refused("upload_document", args, http.StatusUnprocessableEntity), "#/title", "bidi_control")
		var roomArgs obj
		raw, _ := json.Marshal(room)
		_ = json.Unmarshal(raw, &roomArgs)
		hasError(t, a.refused("create_markup_room", roomArgs, http.StatusUnprocessableEntity), "#/participants/1/firstName", "bidi_control")

		// The implicit marks stay allowed: a name in Hebrew beside digits.
		body := clone(txPayload(d, "marks"))
		at(body, "participants", 0).(obj)["lastName"] = "\u05db\u05d4\u05df 2\u200f"
		s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, body)).status(http.StatusCreated)
	})
}

// TestStoredNamesWithBidiControlsShowIsolated: names stored before they
// were refused keep their controls, and the console shows each in a <bdi>,
// so its override ends with the name instead of turning the rest of the
// line around (the audit row's "via", the history's address).
func TestStoredNamesWithBidiControlsShowIsolated(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		d := s.upload(tenant.Token)
		tx, _ := s.create(tenant.Token, txPayload(d, "stored"))
		evil := "Pat \u202eFDP.exe"
		if err := env.DB.DB.Exec("UPDATE transaction_participants SET last_name = ? WHERE transaction_id = ?", evil, tx["id"]).Error; err != nil {
			t.Fatal(err)
		}
		if err := env.DB.DB.Exec("UPDATE transaction_documents SET title = ? WHERE transaction_id = ?", evil, tx["id"]).Error; err != nil {
			t.Fatal(err)
		}
		recordAudit(t, env, models.AuditActor{Kind: models.AuditActorAPIToken, ID: "17", Name: evil, Via: "api", Address: "192.0.2.7"},
			models.AuditEntry{OrganizationID: tenant.Org.ID, Action: "document.uploaded", TargetType: "document", TargetID: "doc-1", Summary: "Uploaded"})

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		escaped := html.EscapeString(evil)
		page := b.get("/admin/transactions/" + tx["id"].(string)).status(http.StatusOK).Body.String()
		for _, want := range []string{"<h1><bdi>" + escaped + "</bdi>", "<strong><bdi>" + escaped + "</bdi></strong>", " " + escaped + "</bdi></td>"} {
			if !strings.Contains(page, want) {
				t.Errorf("the transaction page lacks %s", want)
			}
		}
		if list := b.get("/admin/transactions").status(http.StatusOK).Body.String(); !strings.Contains(list, "<bdi>"+escaped+"</bdi></a>") {
			t.Error("the transactions list does not isolate the title")
		}
		audit := b.get("/admin/audit").status(http.StatusOK).Body.String()
		if !strings.Contains(audit, "<bdi>"+escaped+"</bdi>") {
			t.Error("the audit trail does not isolate the actor's name")
		}
	})
}
