package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// adminBrowser signs in to the admin console and returns the browser and its CSRF token.
func adminSignIn(t *testing.T, s *server, email, password string) (*browser, string) {
	t.Helper()
	b := s.browser()
	token := csrf(t, b.get("/admin/login").status(http.StatusOK).Body.String())
	res := b.post("/admin/login", url.Values{"csrf": {token}, "email": {email}, "password": {password}}).status(http.StatusSeeOther)
	if res.Header().Get("Location") != "/admin/transactions" {
		t.Fatalf("sign-in went to %q", res.Header().Get("Location"))
	}
	page := b.get("/admin/transactions").status(http.StatusOK).Body.String()
	return b, csrf(t, page)
}

func newAdmin(t *testing.T, env *modelstest.Env, orgID int64, email string) *models.User {
	t.Helper()
	u, err := env.Store.CreateUser(context.Background(), models.NewUser{OrganizationID: orgID, Email: email, FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestAdminRoutesRefuseEveryoneButAdmins(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		admin := newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		tr := openTagRoom(t, s, tenant, nil)
		org := "/admin/organizations/" + itoa64(tenant.Org.ID)
		routes := []struct{ method, path string }{
			{http.MethodGet, "/admin"},
			{http.MethodGet, "/admin/transactions"},
			{http.MethodGet, "/admin/transactions.csv"},
			{http.MethodGet, "/admin/transactions.xlsx"},
			{http.MethodGet, "/admin/audit.csv"},
			{http.MethodGet, "/admin/transactions/" + tr.room.TransactionID},
			{http.MethodGet, "/admin/transactions/" + tr.room.TransactionID + "/documents/0/content"},
			{http.MethodGet, "/admin/transactions/" + tr.room.TransactionID + "/documents/0/xfdf"},
			{http.MethodGet, "/admin/rooms"},
			{http.MethodGet, "/admin/activity"},
			{http.MethodGet, "/admin/organizations"},
			{http.MethodGet, org},
			{http.MethodPost, "/admin/logout"},
			{http.MethodPost, "/admin/sessions/revoke-all"},
			{http.MethodPost, "/admin/rooms/" + tr.room.ID + "/expire"},
			{http.MethodGet, "/admin/rooms/new"},
			{http.MethodPost, "/admin/rooms/new"},
			{http.MethodGet, "/admin/rooms/" + tr.room.ID + "/created"},
			{http.MethodPost, "/admin/organizations"},
			{http.MethodPost, org + "/api-access"},
			{http.MethodPost, org + "/users"},
			{http.MethodPost, org + "/users/" + itoa64(tenant.Sender.ID) + "/disable"},
			{http.MethodPost, org + "/tokens"},
			{http.MethodPost, org + "/tokens/" + itoa64(tenant.TokenID) + "/revoke"},
			{http.MethodGet, "/admin/outbox"},
			{http.MethodPost, "/admin/outbox/01900000-0000-7000-8000-00000000a2a2/retry"},
			{http.MethodPost, org + "/webhooks"},
			{http.MethodPost, org + "/webhooks/01900000-0000-7000-8000-00000000a2a2/delete"},
		}
		// Anonymous: pages go to the sign-in page, actions get 401.
		anon := s.browser()
		for _, r := range routes {
			res := anon.do(httptestRequest(r.method, r.path, url.Values{}))
			if r.method == http.MethodGet {
				res.status(http.StatusSeeOther)
				if res.Header().Get("Location") != "/admin/login" {
					t.Errorf("%s %s → %q", r.method, r.path, res.Header().Get("Location"))
				}
			} else {
				res.status(http.StatusUnauthorized)
			}
		}
		// A signed-in admin whose flag is then removed gets 403 everywhere (and is signed out).
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		// Every state-changing route refuses a request without the session's CSRF token (and changes nothing).
		for _, r := range routes {
			if r.method == http.MethodPost {
				b.do(httptestRequest(r.method, r.path, url.Values{"csrf": {"forged"}, "name": {"X"}, "email": {"x@example.com"}, "firstName": {"X"}, "lastName": {"Y"}})).status(http.StatusForbidden)
			} else {
				b.do(httptestRequest(r.method, r.path, url.Values{})).status(http.StatusOK)
			}
		}
		s.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)).status(http.StatusOK) // not revoked, API still on
		if err := env.DB.DB.Model(&models.User{}).Where("id = ?", admin.ID).Update("is_admin", false).Error; err != nil {
			t.Fatal(err)
		}
		for _, r := range routes {
			b.do(httptestRequest(r.method, r.path, url.Values{"csrf": {token}})).status(http.StatusForbidden)
		}
	})
}

func TestAdminSignInOutAndTimeouts(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")

		b := s.browser()
		token := csrf(t, b.get("/admin/login").Body.String())
		page := b.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"wrong"}}).status(http.StatusUnauthorized).Body.String()
		if !strings.Contains(page, "not right") {
			t.Fatal("no message for a wrong password")
		}
		b.post("/admin/login", url.Values{"csrf": {"forged"}, "email": {"ada@example.com"}, "password": {"correct horse"}}).status(http.StatusForbidden)
		cookie := b.cookies["markuproom_admin"]
		if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode {
			t.Fatalf("admin cookie = %+v", cookie)
		}

		b, _ = adminSignIn(t, s, "ada@example.com", "correct horse")
		page = b.get("/admin/transactions").Body.String()
		for _, want := range []string{"Sign out", `href="/admin/transactions"`, "Transactions"} {
			if !strings.Contains(page, want) {
				t.Errorf("console page lacks %q", want)
			}
		}
		// Idle for longer than the timeout: signed out.
		env.Clock.Advance(31 * time.Minute)
		b.get("/admin/transactions").status(http.StatusSeeOther)
		// Absolute limit: active every 20 minutes, out after 12 hours.
		b, _ = adminSignIn(t, s, "ada@example.com", "correct horse")
		for i := 0; i < 35; i++ {
			env.Clock.Advance(20 * time.Minute)
			b.get("/admin/transactions").status(http.StatusOK)
		}
		env.Clock.Advance(20 * time.Minute)
		b.get("/admin/transactions").status(http.StatusSeeOther)
		// Sign out.
		b, token = adminSignIn(t, s, "ada@example.com", "correct horse")
		b.post("/admin/logout", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		b.get("/admin/transactions").status(http.StatusSeeOther)

		// Lockout: 429 with Retry-After, the same page for the right password.
		lock := s.browser()
		token = csrf(t, lock.get("/admin/login").Body.String())
		for i := 0; i < models.LoginFailuresPerAccount; i++ {
			lock.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"wrong"}}).status(http.StatusUnauthorized)
		}
		wrong := lock.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"wrong"}}).status(http.StatusTooManyRequests)
		right := lock.post("/admin/login", url.Values{"csrf": {token}, "email": {"ada@example.com"}, "password": {"correct horse"}}).status(http.StatusTooManyRequests)
		if wrong.Header().Get("Retry-After") == "" || !strings.Contains(right.Body.String(), "Too many failed sign-ins") {
			t.Fatal("lockout page lacks Retry-After or its message")
		}
		activity, err := env.Store.ListActivity(context.Background(), 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]int{}
		for _, a := range activity {
			kinds[a.Action] += a.Repeats
		}
		if kinds[models.ActivityLogin] != 3 || kinds[models.ActivityFailedLogin] != 6 || kinds[models.ActivityLogout] != 1 || kinds[models.ActivityLockout] != 2 {
			t.Fatalf("activity = %v", kinds)
		}
		// The repeated refusals show as one line with a count.
		page = adminBrowserAt(t, s, "ada@example.com", "203.0.113.5").get("/admin/activity").status(http.StatusOK).Body.String()
		if !strings.Contains(page, "lockout ×2") || !strings.Contains(page, "failed login ×5") {
			t.Fatalf("activity page lacks the counted refusals:\n%s", page)
		}
	})
}

func TestAdminTransactionsFilterSearchAndPage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other Co")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		doc := s.upload(acme.Token)
		// 55 rooms in Acme, one in Other Co with a recognisable participant.
		for i := 0; i < 55; i++ {
			s.createRoom(acme.Token, roomBody(acme, doc))
		}
		body := roomBody(other, s.upload(other.Token))
		body["participants"] = arr{obj{"firstName": "Zed", "lastName": "Findme", "email": "Zed.Findme@Example.org"}}
		target := s.createRoom(other.Token, body)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		rows := func(html string) int { return strings.Count(html, "data-transaction-id=") }
		page := b.get("/admin/transactions").status(http.StatusOK).Body.String()
		if rows(page) != models.AdminPageSize || !strings.Contains(page, ">Next<") || strings.Contains(page, ">Previous<") {
			t.Fatalf("first page: %d rows", rows(page))
		}
		if !strings.Contains(page, `data-transaction-id="`+target.TransactionID+`"`) {
			t.Fatal("the newest transaction is not on the first page")
		}
		i := strings.Index(page, `href="/admin/transactions?after=`)
		next := page[i+6 : i+6+strings.Index(page[i+6:], `"`)]
		page2 := b.get(strings.ReplaceAll(next, "&amp;", "&")).status(http.StatusOK).Body.String()
		if rows(page2) != 56-models.AdminPageSize || !strings.Contains(page2, ">Previous<") || strings.Contains(page2, ">Next<") {
			t.Fatalf("second page: %d rows", rows(page2))
		}
		// Search: part of a participant's e-mail, any case; and a referenceId.
		for _, q := range []string{"findme@example", "ZED.FIND", target.ID[len(target.ID)-12:]} {
			res := b.get("/admin/transactions?q=" + url.QueryEscape(q)).status(http.StatusOK).Body.String()
			if rows(res) != 1 || !strings.Contains(res, target.TransactionID) {
				t.Errorf("search %q: %d rows", q, rows(res))
			}
		}
		if got := rows(b.get("/admin/transactions?q=%25").Body.String()); got != 0 {
			t.Errorf("a %% in the search matched %d rows", got)
		}
		// Filters: organization and status.
		res := b.get("/admin/transactions?org=" + itoa64(other.Org.ID)).Body.String()
		if rows(res) != 1 {
			t.Errorf("org filter: %d rows", rows(res))
		}
		if rows(b.get("/admin/transactions?status=esign_pending").Body.String()) != 0 {
			t.Error("status filter")
		}
		if !strings.Contains(b.get("/admin/transactions?status=esign_pending").Body.String(), "No transaction matches") {
			t.Error("no empty state")
		}
		b.get("/admin/transactions?status=bogus").status(http.StatusBadRequest)
	})
}

func httptestRequest(method, path string, form url.Values) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return req
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func TestAdminTransactionPage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		tr := openTagRoom(t, s, tenant, nil)
		ids := tr.participantIDs(t)
		id := tr.add(t, tagForm(ids[0], "page", "2"))
		// A participant with a personal password: the page never shows it or its hash.
		tr.b.post(tr.path+"/participants", url.Values{"csrf": {tr.csrf}, "firstName": {"Sec"}, "lastName": {"Ret"}, "email": {"sec@example.com"},
			"authenticationType": {"personal-password"}, "personalPasswordQuestion": {"Pet?"}, "personalPassword": {"hunter2-secret"}}).status(http.StatusSeeOther)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/transactions/" + tr.room.TransactionID).status(http.StatusOK).Body.String()
		for _, want := range []string{`data-tag-id="` + id + `"`, "data-viewer", `data-participant-id="` + ids[0] + `"`, "Pat Buyer", ">XFDF<",
			"Signature tag added on page 2", "Sam Sender · Markup Room", "· session ", "Created with 1 document"} {
			if !strings.Contains(page, want) {
				t.Errorf("transaction page lacks %q", want)
			}
		}
		for _, secret := range []string{"hunter2-secret", "argon2id", "Pet?"} {
			if strings.Contains(page, secret) {
				t.Errorf("transaction page shows %q", secret)
			}
		}
		if strings.Contains(page, "data-editable") {
			t.Error("the console's viewer is editable")
		}
		xfdf := b.get("/admin/transactions/" + tr.room.TransactionID + "/documents/0/xfdf").status(http.StatusOK)
		if ct := xfdf.Header().Get("Content-Type"); ct != "application/vnd.adobe.xfdf" || !strings.Contains(xfdf.Body.String(), "SIGNATURETEMPLATE") {
			t.Fatalf("XFDF download: %s %s", ct, truncate(xfdf.Body.String()))
		}
		if pdf := b.get("/admin/transactions/" + tr.room.TransactionID + "/documents/0/content").status(http.StatusOK); pdf.Header().Get("Content-Type") != "application/pdf" {
			t.Fatal("no PDF for the viewer")
		}
		b.get("/admin/transactions/" + tr.room.TransactionID + "/documents/7/content").status(http.StatusNotFound)
		b.get("/admin/transactions/nope").status(http.StatusNotFound)
		s.browser().get("/admin/transactions/" + tr.room.TransactionID).status(http.StatusSeeOther)
	})
}

func TestAdminExpiresRoomsAndKeepsTheActivityLog(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		tr := openTagRoom(t, s, tenant, nil) // a browser that opened the room
		signer := tr.participantIDs(t)[0]

		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/rooms").status(http.StatusOK).Body.String()
		if !strings.Contains(page, `data-room-id="`+tr.room.ID+`"`) || !strings.Contains(page, ">Expire<") || !strings.Contains(page, "Sam Sender") {
			t.Fatal("rooms table lacks the room, its sender or Expire")
		}
		b.post("/admin/rooms/"+tr.room.ID+"/expire", url.Values{"csrf": {"forged"}}).status(http.StatusForbidden)
		b.post("/admin/rooms/"+tr.room.ID+"/expire", url.Values{"csrf": {token}}).status(http.StatusSeeOther)

		// The link answers 410; so does the browser that had opened it, on its next request.
		s.browser().get(strings.TrimPrefix(tr.room.URL, testBaseURL)).status(http.StatusGone)
		tr.b.get(tr.path).status(http.StatusGone)
		tr.send(http.MethodPost, tr.path+"/tags", tagForm(signer)).status(http.StatusGone)
		var room struct {
			Status string `json:"status"`
		}
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+tr.room.ID, tr.token, nil)).status(http.StatusOK).json(&room)
		if room.Status != models.RoomExpired {
			t.Fatalf("API status %q", room.Status)
		}
		b.post("/admin/rooms/"+tr.room.ID+"/expire", url.Values{"csrf": {token}}).status(http.StatusConflict)
		if strings.Contains(b.get("/admin/rooms").Body.String(), ">Expire<") {
			t.Fatal("an expired room still offers Expire")
		}

		activity := b.get("/admin/activity").status(http.StatusOK).Body.String()
		for _, want := range []string{"ada@example.com", ">expire<", ">login<", "Markup Room " + tr.room.ID} {
			if !strings.Contains(activity, want) {
				t.Errorf("activity page lacks %q", want)
			}
		}
		s.browser().get("/admin/activity").status(http.StatusSeeOther)
		s.browser().post("/admin/rooms/"+tr.room.ID+"/expire", url.Values{}).status(http.StatusUnauthorized)
	})
}

func TestAdminManagesOrganizationsUsersAndTokens(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		doc := s.upload(acme.Token)

		// Create an organization; an empty name is refused with a message.
		if page := b.post("/admin/organizations", url.Values{"csrf": {token}, "name": {"  "}}).status(http.StatusUnprocessableEntity).Body.String(); !strings.Contains(page, `role="alert"`) {
			t.Fatal("no message for an empty name")
		}
		loc := b.post("/admin/organizations", url.Values{"csrf": {token}, "name": {"Globex"}}).status(http.StatusSeeOther).Header().Get("Location")
		page := b.get("/admin/organizations").status(http.StatusOK).Body.String()
		if !strings.Contains(page, "Globex") || !strings.Contains(page, `data-org-id="`+itoa64(acme.Org.ID)+`"`) || !strings.Contains(page, "API access") {
			t.Fatal("organizations page lacks a row or the switch")
		}

		// API access off: the organization's token gets 401 from operation B; on again: 200.
		acmeURL := "/admin/organizations/" + itoa64(acme.Org.ID)
		req := httptestRequest(http.MethodPost, acmeURL+"/api-access", url.Values{"csrf": {token}, "enabled": {"false"}})
		req.Header.Set("HX-Request", "true")
		b.do(req).status(http.StatusNoContent)
		s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", acme.Token, roomBody(acme, doc))).status(http.StatusUnauthorized)
		// Who turned it off, and when: the console's audit page, filtered by the action, names the admin.
		trail := b.get("/admin/audit?action=organization.api_disabled&org=" + itoa64(acme.Org.ID)).status(http.StatusOK).Body.String()
		if rows := auditRows(trail); len(rows) != 1 || !strings.Contains(trail, "ada@example.com") || !strings.Contains(trail, "<time datetime=") {
			t.Fatalf("the audit page does not show who turned API access off: %d rows", len(rows))
		}
		b.post(acmeURL+"/api-access", url.Values{"csrf": {token}, "enabled": {"false", "true"}}).status(http.StatusSeeOther)
		s.createRoom(acme.Token, roomBody(acme, doc))

		// Users: create one, then disable the sender: it is no senderId any more.
		b.post(acmeURL+"/users", url.Values{"csrf": {token}, "email": {"new@example.com"}, "firstName": {"New"}, "lastName": {"Person"}}).status(http.StatusSeeOther)
		page = b.get(acmeURL).status(http.StatusOK).Body.String()
		if !strings.Contains(page, "new@example.com") || !strings.Contains(page, `data-user-id="`+itoa64(acme.Sender.ID)+`"`) {
			t.Fatal("users table lacks rows")
		}
		b.post(acmeURL+"/users/"+itoa64(acme.Sender.ID)+"/disable", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		var me models.User
		if err := env.DB.DB.Where("email = ?", "ada@example.com").Take(&me).Error; err != nil {
			t.Fatal(err)
		}
		b.post(acmeURL+"/users/"+itoa64(me.ID)+"/disable", url.Values{"csrf": {token}}).status(http.StatusUnprocessableEntity)
		s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", acme.Token, roomBody(acme, doc))).status(http.StatusUnauthorized)

		// Tokens: created and shown once, works, revoked, refused.
		created := b.post(acmeURL+"/tokens", url.Values{"csrf": {token}, "name": {"CI"}}).status(http.StatusCreated).Body.String()
		i := strings.Index(created, "data-new-token>")
		if i < 0 {
			t.Fatal("the new token is not shown")
		}
		plaintext := created[i+len("data-new-token>") : i+strings.Index(created[i:], "<")]
		s.do(api(http.MethodGet, "/api/v1/transactions", plaintext, nil)).status(http.StatusOK)
		if strings.Contains(b.get(acmeURL).Body.String(), plaintext) {
			t.Fatal("the token is shown again")
		}
		var tok models.APIToken
		if err := env.DB.DB.Where("name = ? AND organization_id = ?", "CI", acme.Org.ID).Take(&tok).Error; err != nil {
			t.Fatal(err)
		}
		other := env.NewTenant(t, "Other")
		b.post("/admin/organizations/"+itoa64(other.Org.ID)+"/tokens/"+itoa64(tok.ID)+"/revoke", url.Values{"csrf": {token}}).status(http.StatusNotFound)
		b.post(acmeURL+"/tokens/"+itoa64(tok.ID)+"/revoke", url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		s.do(api(http.MethodGet, "/api/v1/transactions", plaintext, nil)).status(http.StatusUnauthorized)

		activity := b.get("/admin/activity").Body.String()
		for _, want := range []string{">create<", ">toggle<", ">disable<", ">revoke<"} {
			if !strings.Contains(activity, want) {
				t.Errorf("activity lacks %s", want)
			}
		}
		if !strings.HasPrefix(loc, "/admin/organizations/") || !strings.Contains(b.get(loc).Body.String(), "Globex") {
			t.Fatalf("a new organization leads to %q", loc)
		}
	})
}
