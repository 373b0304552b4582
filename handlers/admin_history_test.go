package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// The console's history names who a room change came from and what it
// changed: participants added, renamed, given another e-mail and removed,
// and a document renamed, by name, under the room's sender with the
// session's short id and client address.
func TestAdminHistoryNamesRoomChanges(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		tr := openTagRoom(t, s, tenant, nil)
		tr.b.post(tr.path+"/participants", url.Values{"csrf": {tr.csrf}, "firstName": {"Dana"}, "lastName": {"Doe"},
			"email": {"dana@example.com"}}).status(http.StatusSeeOther)
		ws, err := env.Store.RoomWorkspace(t.Context(), tr.room.ID)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]string{}
		for _, p := range ws.Transaction.Participants {
			ids[p.FirstName] = p.ParticipantID
		}
		tr.b.post(tr.path+"/participants/"+ids["Robin"], url.Values{"csrf": {tr.csrf}, "firstName": {"Robin"}, "lastName": {"Seller-Smith"},
			"email": {"robin.smith@example.com"}}).status(http.StatusSeeOther)
		tr.b.post(tr.path+"/participants/"+ids["Dana"]+"/remove", url.Values{"csrf": {tr.csrf}}).status(http.StatusSeeOther)
		tr.b.post(tr.path+"/documents/0/title", url.Values{"csrf": {tr.csrf}, "title": {"Renamed contract"}}).status(http.StatusSeeOther)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/transactions/" + tr.room.TransactionID).status(http.StatusOK).Body.String()
		for _, want := range []string{
			"Participant “Dana Doe” added",
			"Participant renamed “Robin Seller” → “Robin Seller-Smith”, “Robin Seller-Smith” e-mail robin@example.com → robin.smith@example.com",
			"Participant “Dana Doe” removed",
			"Document renamed “contract” → “Renamed contract”",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("history lacks %q", want)
			}
		}
		// httptest's requests come from 192.0.2.1.
		if !regexp.MustCompile(`Sam Sender · Markup Room</bdi>\s*<span class="admin-history__from">· session [0-9a-f]{8} · 192\.0\.2\.1<`).MatchString(page) {
			t.Error("history does not name the room's sender, session and address")
		}
		if strings.Contains(page, "Markup Room "+tr.room.ID) {
			t.Error("history still names the room by its id")
		}
	})
}

// Undoing a page move and undoing a page delete read differently in the
// console's history, each with its page and document.
func TestAdminHistorySaysWhichPageEditWasUndone(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		tr.add(t, tagForm(signer, "page", "2", "x", "20"))
		original := tr.doc(t)
		res := tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/move", url.Values{"to": {"3"}}).status(http.StatusOK)
		moved := pageEditHeader(t, res.Header())
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {moved.ToDocumentID}}).status(http.StatusOK)
		res = tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", url.Values{"current": {original.ID}}).status(http.StatusOK)
		deleted := pageEditHeader(t, res.Header())
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {deleted.ToDocumentID}}).status(http.StatusOK)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/transactions/" + tr.room.TransactionID).status(http.StatusOK).Body.String()
		for _, want := range []string{
			"Page move undone: page 3 of “contract” back to position 1",
			"Page deletion undone: page 2 of “contract” restored with 1 tag",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("history lacks %q", want)
			}
		}
		if strings.Contains(page, "page restored") {
			t.Error("an undo still reads only “page restored”")
		}
	})
}

// A replace through the API names what it changed: a participant renamed
// and given another authentication, a document renamed, then a
// participant removed, under the API token's name.
func TestAdminHistoryNamesAPIReplaceChanges(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		d := s.upload(tenant.Token)
		body := txPayload(d, "deal-1")
		created, _ := s.create(tenant.Token, body)
		id := created["id"].(string)

		body = clone(body)
		seller := at(body, "participants", 1).(map[string]any)
		seller["lastName"], seller["authenticationType"] = "Seller-Smith", "none"
		at(body, "documents", 0).(map[string]any)["title"] = "Purchase Agreement v2"
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, tenant.Token, body)).status(http.StatusCreated)

		body = clone(body)
		doc := at(body, "documents", 0).(map[string]any)
		tags := doc["tags"].([]any)
		doc["tags"] = []any{tags[0], tags[2]} // the seller's date tag goes with the seller
		body["participants"] = body["participants"].([]any)[:1]
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, tenant.Token, body)).status(http.StatusCreated)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/transactions/" + id).status(http.StatusOK).Body.String()
		for _, want := range []string{
			"Participant renamed “Robin Seller” → “Robin Seller-Smith”, “Robin Seller-Smith” authentication two-factor-authentication → none, document renamed “Purchase Agreement” → “Purchase Agreement v2”",
			"Participant “Robin Seller-Smith” removed, tags 3 → 2",
			"API token " + strconv.FormatInt(tenant.TokenID, 10) + " (test)",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("history lacks %q", want)
			}
		}
	})
}

// Undoing a document's and a participant's removal reads as a restore, not
// as an upload or an addition, and creating the e-signature session reads
// as that, not as a replace that changed nothing (issue 40, item 3).
func TestAdminHistorySaysWhatUndoAndSessionDid(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		tr := openTagRoom(t, s, tenant, nil)
		people := tr.participantIDs(t)
		tr.upload(tr.csrf, "second.pdf", pdftest.ThreePages(t), false).status(http.StatusSeeOther)
		tr.add(t, tagForm(people[0]))
		tr.add(t, tagForm(people[1], "x", "300"))
		tr.add(t, tagForm(people[0], "documentPosition", "1", "x", "20"))
		tr.add(t, tagForm(people[1], "documentPosition", "1", "x", "300"))

		docs := tr.docs(t)
		done := removal(t, tr.send(http.MethodPost, tr.path+"/documents/1/remove", url.Values{"current": {docs[1].ID}}).status(http.StatusOK))
		tr.send(http.MethodPost, done["restoreUrl"].(string), tr.roomIDs(t)).status(http.StatusOK)
		gone := removal(t, tr.send(http.MethodPost, tr.path+"/participants/"+url.PathEscape(people[1])+"/remove", url.Values{}).status(http.StatusOK))
		tr.send(http.MethodPost, gone["restoreUrl"].(string), tr.roomIDs(t)).status(http.StatusOK)
		tr.b.post(tr.path+"/complete", url.Values{"csrf": {tr.csrf}}).status(http.StatusSeeOther)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/transactions/" + tr.room.TransactionID).status(http.StatusOK).Body.String()
		for _, want := range []string{
			"Document “Addendum” added (3 pages)",
			"Document “Addendum” removed with 2 tags",
			"Document “Addendum” restored with 2 tags",
			"Participant “Robin Seller” restored",
			"E-signature session created with 2 documents, 4 tags and 2 participants",
			"Markup Room closed: its e-signature session was created",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("history lacks %q", want)
			}
		}
		for _, vague := range []string{"Replaced (same number", "Participant “Robin Seller” added"} {
			if strings.Contains(page, vague) {
				t.Errorf("history still reads %q", vague)
			}
		}
		if n := strings.Count(page, ">Document “Addendum” added"); n != 1 {
			t.Errorf("the upload and its undo read “added” %d times, want once (the upload)", n)
		}
	})
}
