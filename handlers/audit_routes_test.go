package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// auditFixture is what the recipes of TestEveryChangingRouteIsAudited
// share: a tenant with an open room, a signed-in admin, and the ids the
// earlier recipes made for the later ones.
type auditFixture struct {
	s       *server
	env     *modelstest.Env
	tenant  *modelstest.Tenant
	tr      *tagRoom
	admin   *browser
	csrf    string
	ids     map[string]string
	orgPath string
}

// auditRecipe makes one succeeding request of a changing route; the
// organization whose trail must record it is the tenant's unless org
// returns another.
type auditRecipe struct {
	route  string // "METHOD /pattern", as the router registers it
	action string
	kind   string
	run    func(t *testing.T, f *auditFixture) (org int64)
}

// auditRecipes, in the order they run: the later ones use what the
// earlier ones made.
func auditRecipes() []auditRecipe {
	byToken, byRoom, byAdmin := models.AuditActorAPIToken, models.AuditActorRoom, models.AuditActorAdmin
	return []auditRecipe{
		{"POST /api/v1/documents/upload", "document.uploaded", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.ids["doc"] = f.s.upload(f.tenant.Token).ID
			return 0
		}},
		{"POST /api/v1/document/upload", "document.uploaded", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.s.do(uploadReq(f.tenant.Token, "alias.pdf", pdftest.ThreePages(t), "")).status(http.StatusCreated)
			return 0
		}},
		{"POST /api/v1/transactions", "transaction.created", byToken, func(t *testing.T, f *auditFixture) int64 {
			doc := f.env.UploadPDF(t, f.tenant.Org.ID, pdftest.ThreePages(t), "Agreement")
			f.ids["txBody"] = string(modelstest.TransactionBody(doc, 1, 2))
			var created struct {
				ID string `json:"id"`
			}
			f.s.do(jsonReq(http.MethodPost, "/api/v1/transactions", f.tenant.Token, f.ids["txBody"])).status(http.StatusCreated).json(&created)
			f.ids["tx"] = created.ID
			return 0
		}},
		{"PUT /api/v1/transactions/:id", "transaction.replaced", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+f.ids["tx"], f.tenant.Token, f.ids["txBody"])).status(http.StatusCreated)
			return 0
		}},
		{"POST /api/v1/transactions/:id/documents/:documentId/revise", "document.revised", byToken, func(t *testing.T, f *auditFixture) int64 {
			var tx struct {
				Documents []struct {
					ID string `json:"id"`
				} `json:"documents"`
			}
			f.s.do(api(http.MethodGet, "/api/v1/transactions/"+f.ids["tx"], f.tenant.Token, nil)).status(http.StatusOK).json(&tx)
			path := "/api/v1/transactions/" + f.ids["tx"] + "/documents/" + tx.Documents[0].ID + "/revise"
			f.s.do(jsonReq(http.MethodPost, path, f.tenant.Token, obj{"documentId": f.s.upload(f.tenant.Token).ID})).status(http.StatusOK)
			return 0
		}},
		{"POST /api/v1/markup-rooms", "room.created", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.tr = openTagRoom(t, f.s, f.tenant, nil)
			return 0
		}},
		{"POST /api/v1/webhooks", "webhook.created", byToken, func(t *testing.T, f *auditFixture) int64 {
			var w struct {
				ID string `json:"id"`
			}
			f.s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", f.tenant.Token, obj{"url": "https://hooks.acme.example/api", "events": arr{"transaction.updated"}})).
				status(http.StatusCreated).json(&w)
			f.ids["apiHook"] = w.ID
			return 0
		}},
		{"POST /api/v1/webhooks/:id/rotate-secret", "webhook.secret_rotated", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.s.do(api(http.MethodPost, "/api/v1/webhooks/"+f.ids["apiHook"]+"/rotate-secret", f.tenant.Token, nil)).status(http.StatusOK)
			return 0
		}},
		{"DELETE /api/v1/webhooks/:id", "webhook.deleted", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.s.do(api(http.MethodDelete, "/api/v1/webhooks/"+f.ids["apiHook"], f.tenant.Token, nil)).status(http.StatusNoContent)
			return 0
		}},
		{"POST /api/v1/templates", "template.created", byToken, func(t *testing.T, f *auditFixture) int64 {
			created, _ := f.s.createTemplate(f.tenant.Token, templatePayload(f.s.upload(f.tenant.Token)))
			f.ids["template"] = created["id"].(string)
			return 0
		}},
		{"PUT /api/v1/templates/:id", "template.replaced", byToken, func(t *testing.T, f *auditFixture) int64 {
			body := templatePayload(f.s.upload(f.tenant.Token))
			body["name"] = "Purchase agreement 2"
			f.s.do(jsonReq(http.MethodPut, "/api/v1/templates/"+f.ids["template"], f.tenant.Token, body)).status(http.StatusOK)
			return 0
		}},
		{"POST /api/v1/templates/:id/versions/:version/restore", "template.version_restored", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.s.do(api(http.MethodPost, "/api/v1/templates/"+f.ids["template"]+"/versions/1/restore", f.tenant.Token, nil)).status(http.StatusCreated)
			return 0
		}},
		{"POST /api/v1/templates/:id/documents/:position/revise", "template.replaced", byToken, func(t *testing.T, f *auditFixture) int64 {
			path := "/api/v1/templates/" + f.ids["template"] + "/documents/0/revise"
			f.s.do(jsonReq(http.MethodPost, path, f.tenant.Token, obj{"documentId": f.s.upload(f.tenant.Token).ID})).status(http.StatusOK)
			return 0
		}},
		{"DELETE /api/v1/templates/:id", "template.archived", byToken, func(t *testing.T, f *auditFixture) int64 {
			f.s.do(api(http.MethodDelete, "/api/v1/templates/"+f.ids["template"], f.tenant.Token, nil)).status(http.StatusNoContent)
			return 0
		}},

		{"POST /rooms/:id/participants", "participant.added", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.b.post(f.tr.path+"/participants", url.Values{"csrf": {f.tr.csrf}, "firstName": {"Dana"}, "lastName": {"Doe"},
				"email": {"dana@example.com"}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /rooms/:id/participants/:participantId", "participant.renamed", byRoom, func(t *testing.T, f *auditFixture) int64 {
			id := f.tr.participantIDs(t)[1]
			f.tr.b.post(f.tr.path+"/participants/"+id, url.Values{"csrf": {f.tr.csrf}, "firstName": {"Robin"}, "lastName": {"Seller-Smith"},
				"email": {"robin@example.com"}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /rooms/:id/participants/:participantId/move", "participant.moved", byRoom, func(t *testing.T, f *auditFixture) int64 {
			var tx map[string]any
			f.s.do(api(http.MethodGet, "/api/v1/transactions/"+f.tr.room.TransactionID, f.tenant.Token, nil)).status(http.StatusOK).json(&tx)
			tx["signingOrder"] = true
			f.s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+f.tr.room.TransactionID, f.tenant.Token, tx)).status(http.StatusCreated)
			id := f.tr.participantIDs(t)[2]
			f.tr.send(http.MethodPost, f.tr.path+"/participants/"+id+"/move", url.Values{"to": {"1"}}).status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/participants/:participantId/remove", "participant.removed", byRoom, func(t *testing.T, f *auditFixture) int64 {
			id := f.tr.participantIDs(t)[0]
			res := f.tr.send(http.MethodPost, f.tr.path+"/participants/"+id+"/remove", url.Values{}).status(http.StatusOK)
			f.ids["restoreUrl"] = removal(t, res)["restoreUrl"].(string)
			return 0
		}},
		{"POST /rooms/:id/removals/:removal/restore", "participant.restored", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.send(http.MethodPost, f.ids["restoreUrl"], f.tr.roomIDs(t)).status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/documents/:position/title", "document.renamed", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.b.post(f.tr.path+"/documents/0/title", url.Values{"csrf": {f.tr.csrf}, "title": {"Lease"}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /rooms/:id/tags", "room.tag_created", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.ids["tag"] = f.tr.add(t, tagForm(f.tr.participantIDs(t)[0], "page", "1", "x", "40"))
			return 0
		}},
		{"PUT /rooms/:id/tags/:tagId", "room.tag_changed", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.send(http.MethodPut, f.tr.path+"/tags/"+f.ids["tag"], tagForm(f.tr.participantIDs(t)[0], "page", "1", "x", "80")).status(http.StatusOK)
			return 0
		}},
		{"DELETE /rooms/:id/tags/:tagId", "room.tag_deleted", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.send(http.MethodDelete, f.tr.path+"/tags/"+f.ids["tag"], nil).status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/tags/batch", "room.tags_batch", byRoom, func(t *testing.T, f *auditFixture) int64 {
			signer := f.tr.participantIDs(t)[0]
			f.tr.batch(obj{"create": arr{batchTag(signer, "documentPosition", 0), batchTag(signer, "documentPosition", 0, "x", 300)}}).status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/suggestions", "room.suggestions_decided", byRoom, func(t *testing.T, f *auditFixture) int64 {
			sg := f.tr.pageSuggestions(t)
			if len(sg) == 0 {
				t.Fatal("the room offers no suggested field")
			}
			f.tr.decide(`{"dismiss": [{"documentPosition": 0, "page": `+strconv.Itoa(sg[0].Page)+`, "key": "`+sg[0].Key+`"}]}`, f.tr.csrf).
				status(http.StatusNoContent)
			return 0
		}},
		{"POST /rooms/:id/templates", "template.created", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.ids["roomTemplate"], _ = f.tr.saveTemplate(t, obj{"name": "Lease", "documents": arr{0}})
			return 0
		}},
		{"POST /rooms/:id/templates/apply", "template.applied", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.roomJSON("/templates/apply", obj{"templateId": f.ids["roomTemplate"], "document": 0}, f.tr.csrf).status(http.StatusCreated)
			return 0
		}},
		{"POST /rooms/:id/documents", "document.added", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.upload(f.tr.csrf, "second.pdf", pdftest.ThreePages(t), false).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /rooms/:id/documents/:position/remove", "document.removed", byRoom, func(t *testing.T, f *auditFixture) int64 {
			docs := f.tr.docs(t)
			f.tr.send(http.MethodPost, f.tr.path+"/documents/1/remove", url.Values{"current": {docs[1].ID}}).status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/documents/:position/pages/:page/move", "page.moved", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.ids["original"] = f.tr.doc(t).ID
			res := f.tr.send(http.MethodPost, f.tr.path+"/documents/0/pages/1/move", url.Values{"to": {"3"}}).status(http.StatusOK)
			f.ids["moved"] = pageEditHeader(t, res.Header()).ToDocumentID
			return 0
		}},
		{"POST /rooms/:id/documents/:position/restore", "page.restored", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.send(http.MethodPost, f.tr.path+"/documents/0/restore", url.Values{"version": {f.ids["original"]}, "current": {f.ids["moved"]}}).
				status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/documents/:position/pages/:page/delete", "page.deleted", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.send(http.MethodPost, f.tr.path+"/documents/0/pages/2/delete", url.Values{"current": {f.ids["original"]}}).status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/documents/:position/revise", "document.revised", byRoom, func(t *testing.T, f *auditFixture) int64 {
			f.tr.b.do(f.tr.reviseReq(f.tr.csrf, 0, pdftest.ThreePages(t))).status(http.StatusOK)
			return 0
		}},
		{"POST /rooms/:id/complete", "room.completed", byRoom, func(t *testing.T, f *auditFixture) int64 {
			cr := openTagRoom(t, f.s, f.tenant, obj{"documents": obj{"detectTags": false}})
			for _, id := range cr.participantIDs(t) {
				cr.add(t, tagForm(id))
			}
			cr.b.post(cr.path+"/complete", url.Values{"csrf": {cr.csrf}}).status(http.StatusSeeOther)
			return 0
		}},

		{"POST /admin/login", "admin.signed_in", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin, f.csrf = adminSignIn(t, f.s, "ada@example.com", "correct horse")
			return 0
		}},
		{"POST /admin/organizations", "organization.created", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			loc := f.admin.post("/admin/organizations", url.Values{"csrf": {f.csrf}, "name": {"Globex"}}).status(http.StatusSeeOther).Header().Get("Location")
			id, err := strconv.ParseInt(strings.TrimPrefix(loc, "/admin/organizations/"), 10, 64)
			if err != nil {
				t.Fatalf("a new organization leads to %q", loc)
			}
			return id
		}},
		{"POST /admin/organizations/:id/api-access", "organization.api_enabled", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post(f.orgPath+"/api-access", url.Values{"csrf": {f.csrf}, "enabled": {"false", "true"}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/organizations/:id/embed-origins", "organization.embed_origins_changed", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post(f.orgPath+"/embed-origins", url.Values{"csrf": {f.csrf}, "origins": {"https://app.acme.example"}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/organizations/:id/users", "user.created", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post(f.orgPath+"/users", url.Values{"csrf": {f.csrf}, "email": {"new@example.com"}, "firstName": {"New"}, "lastName": {"Person"}}).
				status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/organizations/:id/users/:userId/disable", "user.disabled", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			var u models.User
			if err := f.env.DB.DB.Where("email = ?", "new@example.com").Take(&u).Error; err != nil {
				t.Fatal(err)
			}
			f.admin.post(f.orgPath+"/users/"+itoa64(u.ID)+"/disable", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/organizations/:id/tokens", "token.created", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post(f.orgPath+"/tokens", url.Values{"csrf": {f.csrf}, "name": {"CI"}}).status(http.StatusCreated)
			return 0
		}},
		{"POST /admin/organizations/:id/tokens/:tokenId/revoke", "token.revoked", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			var tok models.APIToken
			if err := f.env.DB.DB.Where("name = ? AND organization_id = ?", "CI", f.tenant.Org.ID).Take(&tok).Error; err != nil {
				t.Fatal(err)
			}
			f.admin.post(f.orgPath+"/tokens/"+itoa64(tok.ID)+"/revoke", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/organizations/:id/webhooks", "webhook.created", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post(f.orgPath+"/webhooks", url.Values{"csrf": {f.csrf}, "url": {"https://hooks.acme.example/in"},
				"events": {models.WebhookTransactionUpdated}}).status(http.StatusCreated)
			hooks, err := f.env.Store.ListWebhooks(t.Context(), f.tenant.Org.ID)
			if err != nil || len(hooks) != 1 {
				t.Fatalf("%d endpoints, %v", len(hooks), err)
			}
			f.ids["hook"] = hooks[0].ID
			return 0
		}},
		{"POST /admin/organizations/:id/webhooks/:webhookId/rotate-secret", "webhook.secret_rotated", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post(f.orgPath+"/webhooks/"+f.ids["hook"]+"/rotate-secret", url.Values{"csrf": {f.csrf}}).status(http.StatusOK)
			return 0
		}},
		{"POST /admin/outbox/:id/retry", "outbox.retried", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+f.ids["tx"], f.tenant.Token, f.ids["txBody"])).status(http.StatusCreated)
			var m models.OutboxMessage
			if err := f.env.DB.DB.Where("organization_id = ? AND kind = ?", f.tenant.Org.ID, "webhook").Order("created_at DESC").Take(&m).Error; err != nil {
				t.Fatal(err)
			}
			f.env.DB.DB.Model(&models.OutboxMessage{}).Where("id = ?", m.ID).Updates(map[string]any{"status": models.MessageDead})
			f.admin.post("/admin/outbox/"+m.ID+"/retry", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/organizations/:id/webhooks/:webhookId/delete", "webhook.deleted", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post(f.orgPath+"/webhooks/"+f.ids["hook"]+"/delete", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/rooms/:id/expire", "room.expired", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			r := f.s.createRoom(f.tenant.Token, roomBody(f.tenant, f.s.upload(f.tenant.Token)))
			f.admin.post("/admin/rooms/"+r.ID+"/expire", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/rooms/new", "room.created", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			fields := [][2]string{{"csrf", f.csrf}, {"org", itoa64(f.tenant.Org.ID)}, {"sender", itoa64(f.tenant.Sender.ID)},
				{"document", f.ids["doc"]}, {"firstName", "Pat"}, {"lastName", "Buyer"}, {"email", "pat@example.com"}}
			postNewRoom(f.admin, append(fields, roomFlagsOn()...)).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /mcp", "document.uploaded", byToken, func(t *testing.T, f *auditFixture) int64 {
			mark := lastAuditID(t, f.env)
			mustConnect(t, f.s.mcpURL(), f.tenant.Token).ok("upload_document", pdfArgs("mcp.pdf", pdftest.ThreePages(t)), nil)
			page, err := f.env.Store.ListAuditEvents(t.Context(), models.AuditFilter{Action: "document.uploaded"}, models.AuditNewestFirst, 0, 1)
			if err != nil || len(page.Events) == 0 || page.Events[0].ID <= mark || page.Events[0].Via != "mcp" {
				t.Errorf("an MCP upload's event does not name via mcp: %+v %v", page, err)
			}
			return 0
		}},
		{"POST /admin/templates/:id/versions/:version/restore", "template.version_restored", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post("/admin/templates/"+f.ids["roomTemplate"]+"/versions/1/restore", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/templates/:id/archive", "template.archived", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post("/admin/templates/"+f.ids["roomTemplate"]+"/archive", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
		{"POST /admin/sessions/revoke-all", "admin.sessions_revoked", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post("/admin/sessions/revoke-all", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			f.admin, f.csrf = adminSignIn(t, f.s, "ada@example.com", "correct horse")
			return 0
		}},
		{"POST /admin/logout", "admin.signed_out", byAdmin, func(t *testing.T, f *auditFixture) int64 {
			f.admin.post("/admin/logout", url.Values{"csrf": {f.csrf}}).status(http.StatusSeeOther)
			return 0
		}},
	}
}

// Every changing route of the router (POST, PUT, PATCH, DELETE) has a
// recipe here, and each recipe's succeeding request appends an event with
// its action, by its kind of actor, to the right organization's audit
// trail: a route added without a recipe, or one that changes without an
// audit event, fails.
func TestEveryChangingRouteIsAudited(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		recipes := auditRecipes()
		byRoute := map[string]bool{}
		for _, r := range recipes {
			byRoute[r.route] = true
		}
		registered := map[string]bool{}
		for _, rt := range handlers.ChangingRoutes(s.handler) {
			registered[rt] = true
			if !byRoute[rt] {
				t.Errorf("%s changes something but has no audit recipe in auditRecipes", rt)
			}
		}
		for rt := range byRoute {
			if !registered[rt] {
				t.Errorf("auditRecipes has a recipe for %s, which the router does not register", rt)
			}
		}
		if t.Failed() {
			return
		}
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		f := &auditFixture{s: s, env: env, tenant: tenant, ids: map[string]string{}, orgPath: "/admin/organizations/" + itoa64(tenant.Org.ID)}
		for _, r := range recipes {
			mark := lastAuditID(t, env)
			org := r.run(t, f)
			if org == 0 {
				org = tenant.Org.ID
			}
			if !hasAuditEvent(t, env, org, mark, r.action, r.kind) {
				t.Errorf("%s: organization %d's trail has no %s event by %s after it", r.route, org, r.action, r.kind)
			}
		}
		if rep, err := env.Store.VerifyAudit(t.Context(), nil); err != nil || rep.Broken != nil {
			t.Fatalf("the chains after every route: %+v, %v", rep, err)
		}
	})
}

// lastAuditID is the id of the newest audit event (0: none).
func lastAuditID(t *testing.T, env *modelstest.Env) int64 {
	t.Helper()
	page, err := env.Store.ListAuditEvents(t.Context(), models.AuditFilter{}, models.AuditNewestFirst, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) == 0 {
		return 0
	}
	return page.Events[0].ID
}

// hasAuditEvent tells whether org's trail has an event newer than the one
// whose id is after, with action by an actor of kind.
func hasAuditEvent(t *testing.T, env *modelstest.Env, org, after int64, action, kind string) bool {
	t.Helper()
	page, err := env.Store.ListAuditEvents(t.Context(), models.AuditFilter{OrganizationID: &org, Action: action}, models.AuditOldestFirst, after, models.MaxAuditPage)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Events {
		if e.ActorKind == kind {
			return true
		}
	}
	return false
}
