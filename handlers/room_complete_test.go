package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/review"
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
		// findings are the codes of the dialog's findings, in order.
		findings := func(html string) []string {
			var out []string
			for _, part := range strings.Split(html, `data-finding="`)[1:] {
				out = append(out, part[:strings.Index(part, `"`)])
			}
			return out
		}
		codes := func(p handlers.Problem) string {
			var out []string
			for i, f := range p.Findings {
				hasError(t, p, "#/findings/"+strconv.Itoa(i), "review_blocked")
				if f.Severity != review.Blocking || f.Detail == "" {
					t.Fatalf("a refusal lists %+v", f)
				}
				out = append(out, f.Code)
			}
			return strings.Join(out, ",")
		}

		// No tags yet: each participant has nothing to sign, which blocks; the button is disabled.
		html := checklist()
		if got := strings.Join(findings(html), ","); got != "participant_signs_nothing,participant_signs_nothing,document_untagged" {
			t.Fatalf("findings = %v", got)
		}
		if !strings.Contains(html, "Pat Buyer has nothing to sign") || !strings.Contains(html, "Robin Seller has nothing to sign") ||
			!strings.Contains(html, "data-blocked") || !strings.Contains(html, `type="submit" disabled`) || !strings.Contains(html, `href="#palette-title"`) {
			t.Fatalf("checklist: %s", html)
		}
		page := complete().status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, `id="session-dialog"`) || !strings.Contains(page, "data-open-on-load") || !strings.Contains(page, "has nothing to sign") {
			t.Fatal("a refused completion does not show the check again")
		}
		p := tr.send(http.MethodPost, tr.path+"/complete", nil).problem(http.StatusUnprocessableEntity)
		if got := codes(p); got != "participant_signs_nothing,participant_signs_nothing" || !strings.Contains(p.Errors[0].Detail, "Pat Buyer has nothing to sign") {
			t.Fatalf("refusal: %s %+v", got, p)
		}

		// A date for Robin is not something to sign: the session stays blocked
		// (the old checklist let a participant with any tag through).
		tr.add(t, tagForm(ids[0]))
		tr.add(t, tagForm(ids[1], "type", "DATETEMPLATE", "x", "300", "dateFormat", "MMMM do, yyyy"))
		p = tr.send(http.MethodPost, tr.path+"/complete", nil).problem(http.StatusUnprocessableEntity)
		if got := codes(p); got != "participant_signs_nothing" || p.Findings[0].Participant != ids[1] {
			t.Fatalf("refusal with a date only: %s", got)
		}

		// A signature for Robin, plus one tag without a signer: "Assign to…" it.
		tr.add(t, tagForm(ids[1], "x", "300", "y", "300"))
		tr.add(t, tagForm("", "page", "3"))
		html = checklist()
		if got := strings.Join(findings(html), ","); got != "tag_without_signer" {
			t.Fatalf("findings = %v", got)
		}
		var unassigned string
		for id, row := range storedTags(t, env, tr.room.TransactionID) {
			if row.SignerID == "" {
				unassigned = id
			}
		}
		if !strings.Contains(html, `href="#doc-0-page-3" data-dialog-close data-fix="assign" data-fix-tag="`+unassigned+`">Assign to…`) {
			t.Fatalf("no fix for the unassigned tag: %s", html)
		}
		p = tr.send(http.MethodPost, tr.path+"/complete", nil).problem(http.StatusUnprocessableEntity)
		if got := codes(p); got != "tag_without_signer" || p.Findings[0].Fix == nil || p.Findings[0].Fix.Tag != unassigned {
			t.Fatalf("refusal: %s", got)
		}
		// In the room's language: the problem writer words it.
		req := httptest.NewRequest(http.MethodPost, tr.path+"/complete", nil)
		req.Header.Set("HX-Request", "true")
		req.Header.Set("X-CSRF-Token", tr.csrf)
		req.Header.Set("Accept-Language", "es")
		p = tr.b.do(req).problem(http.StatusUnprocessableEntity)
		if got := codes(p); got != "tag_without_signer" || strings.Contains(p.Errors[0].Detail, "has no signer") || p.Errors[0].Detail == "" {
			t.Fatalf("refusal in Spanish: %+v", p)
		}

		// Assign it: the session is created through the replace path.
		tags, v := tr.apiTags(t)
		tr.send(http.MethodPut, tr.path+"/tags/"+unassigned, tagForm(ids[1], "page", "3")).status(http.StatusOK)
		html = checklist()
		if got := findings(html); len(got) != 0 || !strings.Contains(html, "data-ready") {
			t.Fatalf("findings = %v", got)
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
