package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestCreatingTheSessionNeedsACompleteRoom(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		ids := tr.participantIDs(t)
		complete := func() *response {
			return tr.b.post(tr.path+"/complete", url.Values{"csrf": {tr.csrf}, "notify": {"email"}})
		}
		s.do(jsonReq(http.MethodPost, "/api/v1/webhooks", tr.token, map[string]any{"url": "https://hooks.acme.example/in", "events": models.WebhookEvents()})).status(http.StatusCreated)
		checklist := func() string {
			return tr.b.get(tr.path + "/checklist").status(http.StatusOK).Body.String()
		}
		unmet := func(html string) []string {
			var out []string
			for _, id := range []string{models.CheckDocuments, models.CheckParticipants, models.CheckEveryoneTags, models.CheckTagsAssigned, models.CheckValid} {
				i := strings.Index(html, `data-check="`+id+`"`)
				if i < 0 {
					t.Fatalf("checklist lacks %s: %s", id, html)
				}
				end := strings.Index(html[i:], ">")
				if !strings.Contains(html[i:i+end], "data-ok") {
					out = append(out, id)
				}
			}
			return out
		}

		// No tags yet: each participant is named; the button is disabled.
		html := checklist()
		if got := unmet(html); strings.Join(got, ",") != models.CheckEveryoneTags {
			t.Fatalf("unmet = %v", got)
		}
		if !strings.Contains(html, "Pat Buyer has no tag yet.") || !strings.Contains(html, "Robin Seller has no tag yet.") || !strings.Contains(html, "disabled") {
			t.Fatalf("checklist: %s", html)
		}
		page := complete().status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, `id="session-dialog"`) || !strings.Contains(page, "data-open-on-load") || !strings.Contains(page, "has no tag yet") {
			t.Fatal("a refused completion does not show the checklist again")
		}

		// Tags for both, plus one without a signer.
		tr.add(t, tagForm(ids[0]))
		tr.add(t, tagForm(ids[1], "x", "300"))
		tr.add(t, tagForm("", "page", "3"))
		html = checklist()
		if got := unmet(html); strings.Join(got, ",") != models.CheckTagsAssigned {
			t.Fatalf("unmet = %v", got)
		}
		if !strings.Contains(html, `href="#doc-0-page-3"`) {
			t.Fatalf("no link to the unassigned tag: %s", html)
		}
		p := tr.send(http.MethodPost, tr.path+"/complete", nil).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/"+models.CheckTagsAssigned, "checklist_unmet")

		// Assign it: the session is created through the replace path.
		tags, v := tr.apiTags(t)
		var unassigned string
		for id, row := range storedTags(t, env, tr.room.TransactionID) {
			if row.SignerID == "" {
				unassigned = id
			}
		}
		tr.send(http.MethodPut, tr.path+"/tags/"+unassigned, tagForm(ids[1], "page", "3")).status(http.StatusOK)
		html = checklist()
		if got := unmet(html); len(got) != 0 {
			t.Fatalf("unmet = %v", got)
		}
		if !strings.Contains(html, `name="notify" value="email" form="session-complete-form" checked`) {
			t.Fatal("the dialog does not offer invitations, ticked")
		}
		if res := complete().status(http.StatusSeeOther); res.Header().Get("Location") != tr.path {
			t.Fatalf("redirect to %q", res.Header().Get("Location"))
		}

		var room struct {
			Status        string `json:"status"`
			TransactionID string `json:"transactionId"`
		}
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+tr.room.ID, tr.token, nil)).status(http.StatusOK).json(&room)
		if room.Status != models.RoomCompleted || room.TransactionID != tr.room.TransactionID {
			t.Fatalf("room after completion = %+v", room)
		}
		var tx struct {
			Status  string  `json:"status"`
			Version float64 `json:"version"`
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
		if tx.Status != models.StatusESignPending || tx.Version != v+2 {
			t.Fatalf("transaction after completion = %+v (version before %v)", tx, v)
		}
		after, _ := tr.apiTags(t)
		if len(after) != len(tags) {
			t.Fatalf("tags changed: %d → %d", len(tags), len(after))
		}
		_, kinds := history(t, env, tenant.Org.ID, tr.room.TransactionID)
		if got := strings.Join(kinds[len(kinds)-4:], ","); got != "replaced,status_changed,invitations_queued,room_completed" {
			t.Fatalf("history ends with %s", got)
		}
		// Queued with the completion: the webhook events and one invitation per participant.
		var queued []string
		env.DB.DB.Model(&models.OutboxMessage{}).Order("id").Pluck("event", &queued)
		if got := strings.Join(queued, ","); got != "transaction.updated,transaction.esign_pending,markup_room.completed,invitation,invitation" {
			t.Fatalf("queued: %s", got)
		}
		var completed models.OutboxMessage
		env.DB.DB.First(&completed, "event = ?", models.WebhookRoomCompleted)
		var ev models.WebhookEvent
		if err := json.Unmarshal(completed.Payload, &ev); err != nil {
			t.Fatal(err)
		}
		if d, ok := ev.Data.(models.RoomCompletedData); !ok || d.RoomID != tr.room.ID || d.TransactionID != tr.room.TransactionID || d.Status != models.StatusESignPending || float64(d.Version) != tx.Version {
			t.Fatalf("markup_room.completed data: %v", ev.Data)
		}

		// The page is read-only with a summary; every change is refused with 409.
		html = tr.b.get(tr.path).status(http.StatusOK).Body.String()
		for _, want := range []string{"data-room-summary", "E-signature session created", tr.room.TransactionID, "Pat Buyer <span class=\"room-summary__email\" data-summary-email><span>pat@</span><wbr><span>example</span><wbr><span>.com</span></span>", "Invitations queued"} {
			if !strings.Contains(html, want) {
				t.Errorf("completed room lacks %q", want)
			}
		}
		// The summary says what the outbox has done with the invitations.
		for status, words := range map[models.MessageStatus]string{
			models.MessageSending: "Invitations queued",
			models.MessageHeld:    "Invitations held: no SMTP server configured",
			models.MessageDead:    "Invitations not delivered: see Outgoing messages in the console",
			models.MessageSent:    "Invitations sent",
		} {
			if err := env.DB.DB.Model(&models.OutboxMessage{}).Where("event = ?", models.EventInvitation).Update("status", status).Error; err != nil {
				t.Fatal(err)
			}
			page := tr.b.get(tr.path).status(http.StatusOK).Body.String()
			if !strings.Contains(page, "data-summary-invitations>"+words+"<") {
				t.Errorf("with the invitations %s the summary does not say %q", status, words)
			}
		}
		for _, gone := range []string{`data-control="create-session"`, "data-palette", "data-editable", "valid until"} {
			if strings.Contains(html, gone) {
				t.Errorf("completed room still shows %s", gone)
			}
		}
		complete().status(http.StatusConflict)
		tr.send(http.MethodPost, tr.path+"/tags", tagForm(ids[0])).status(http.StatusConflict)
		// An upload is refused before its file is read: not "not_pdf" but 409.
		tr.upload(tr.csrf, "notes.txt", []byte("just some text, not a PDF"), true).status(http.StatusConflict)
		tr.b.get(tr.path + "/checklist").status(http.StatusConflict)
		form := url.Values{"csrf": {tr.csrf}, "firstName": {"Casey"}, "lastName": {"Late"}, "email": {"casey@example.com"}}
		tr.b.post(tr.path+"/participants", form).status(http.StatusConflict)
	})
}

func TestCreatingTheSessionIsRefusedWhenExpiredOrForged(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		tr.b.post(tr.path+"/complete", url.Values{"csrf": {"forged"}}).status(http.StatusForbidden)
		s.browser().post(tr.path+"/complete", url.Values{"csrf": {tr.csrf}}).status(http.StatusForbidden)
		env.Clock.Advance(25 * time.Hour)
		tr.b.post(tr.path+"/complete", url.Values{"csrf": {tr.csrf}}).status(http.StatusGone)
	})
}

func TestTheSessionDialogOffersInvitationsUnlessTheCallerSaidNo(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		ticked := `name="notify" value="email" form="session-complete-form" checked`
		if html := tr.b.get(tr.path + "/checklist").status(http.StatusOK).Body.String(); !strings.Contains(html, ticked) {
			t.Fatal("with no notifyParticipants, invitations are not offered ticked")
		}
		var tx map[string]any
		s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
		tx["notifyParticipants"] = map[string]any{"email": false}
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, tx)).status(http.StatusCreated)
		html := tr.b.get(tr.path + "/checklist").status(http.StatusOK).Body.String()
		if strings.Contains(html, ticked) || !strings.Contains(html, `name="notify"`) {
			t.Fatal("the caller said no e-mail, yet invitations are offered ticked (or not at all)")
		}
	})
}
