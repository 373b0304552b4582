package handlers_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
)

// TestRoomPDFFollowsTheRoomState: an admin ending a room stops its PDFs at
// once (410), even for a browser that already loaded them; while the room is
// open the browser revalidates (304) instead of keeping a copy past the room.
func TestRoomPDFFollowsTheRoomState(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		pdfPath := tr.path + "/pdf/" + firstDocumentID(t, tr)

		res := tr.b.get(pdfPath).status(http.StatusOK)
		etag := res.Header().Get("ETag")
		expires, err := time.Parse(time.RFC3339, tr.room.ExpiresAt)
		if err != nil {
			t.Fatal(err)
		}
		assertCacheWithinRoom(t, res.Header().Get("Cache-Control"), expires.Sub(env.Clock.Now()))
		if etag == "" {
			t.Fatal("no ETag to revalidate with")
		}
		req := httptest.NewRequest(http.MethodGet, pdfPath, nil)
		req.Header.Set("If-None-Match", etag)
		if res := tr.b.do(req); res.Code != http.StatusNotModified || res.Body.Len() != 0 {
			t.Fatalf("revalidation → %d with %d bytes, want 304 and no body", res.Code, res.Body.Len())
		}

		if err := env.Store.ExpireRoom(context.Background(), tr.room.ID); err != nil {
			t.Fatal(err)
		}
		tr.b.get(pdfPath).status(http.StatusGone)
		req = httptest.NewRequest(http.MethodGet, pdfPath, nil)
		req.Header.Set("If-None-Match", etag)
		tr.b.do(req).status(http.StatusGone)
	})
}

// assertCacheWithinRoom fails unless cacheControl makes the browser
// revalidate (no-cache) or keeps the copy at most for the room's remaining life.
func assertCacheWithinRoom(t *testing.T, cacheControl string, remaining time.Duration) {
	t.Helper()
	noCache := false
	for _, d := range strings.Split(cacheControl, ",") {
		d = strings.TrimSpace(d)
		switch {
		case d == "no-cache" || d == "no-store":
			noCache = true
		case d == "immutable" || d == "public":
			t.Fatalf("Cache-Control %q: a room's PDF is private and must be revalidated", cacheControl)
		case strings.HasPrefix(d, "max-age="):
			n, err := strconv.Atoi(strings.TrimPrefix(d, "max-age="))
			if err != nil || time.Duration(n)*time.Second > remaining {
				t.Fatalf("Cache-Control %q outlives the room (%s left)", cacheControl, remaining)
			}
			noCache = noCache || n == 0
		}
	}
	if !noCache && !strings.Contains(cacheControl, "max-age=") {
		t.Fatalf("Cache-Control %q does not bound the copy", cacheControl)
	}
}

// TestJSONBodiesMustBeUTF8TextWithoutNUL: raw invalid UTF-8 and \u0000,
// anywhere in a JSON body (customData kept byte for byte included), are a 400
// naming where, before any query (PostgreSQL answered 500 to the first and
// kept the second).
func TestJSONBodiesMustBeUTF8TextWithoutNUL(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		tx, _ := marshalBody(txPayload(d, "utf8"))
		room, _ := marshalBody(roomBody(tenant, d))
		cases := []struct {
			name, path string
			body       []byte
			pointer    string
			code       string
		}{
			{"invalid UTF-8 in a customData value", "/api/v1/transactions",
				bytes.Replace(tx, []byte(`"label":"Sign`), []byte("\"label\":\"\xff\xfeSign"), 1), "#/documents/0/tags/0/customData/label", "invalid_encoding"},
			{"invalid UTF-8 in a customData key", "/api/v1/transactions",
				bytes.Replace(tx, []byte(`"zeta"`), []byte("\"z\xc0\xafeta\""), 1), "#/documents/0/tags/0/customData/z\ufffd\ufffdeta", "invalid_encoding"},
			{"a surrogate in a customData value", "/api/v1/transactions",
				bytes.Replace(tx, []byte(`"k":"v"`), []byte("\"k\":\"\xed\xa0\x80\""), 1), "#/documents/0/tags/2/customData/k", "invalid_encoding"},
			{"NUL in a customData value", "/api/v1/transactions",
				bytes.Replace(tx, []byte(`"k":"v"`), []byte(`"k":"v\u0000"`), 1), "#/documents/0/tags/2/customData/k", "invalid_character"},
			{"NUL in a customData key", "/api/v1/transactions",
				bytes.Replace(tx, []byte(`"k":"v"`), []byte(`"k\u0000":"v"`), 1), "#/documents/0/tags/2/customData/k\x00", "invalid_character"},
			{"invalid UTF-8 in a Markup Room request", "/api/v1/markup-rooms",
				bytes.Replace(room, []byte(`"Pat"`), []byte("\"P\xffat\""), 1), "#/participants/0/firstName", "invalid_encoding"},
			{"NUL in a Markup Room request", "/api/v1/markup-rooms",
				bytes.Replace(room, []byte(`"Pat"`), []byte(`"P\u0000at"`), 1), "#/participants/0/firstName", "invalid_character"},
			{"invalid UTF-8 in a webhook", "/api/v1/webhooks",
				[]byte("{\"url\":\"https://hooks.acme.example/x\",\"events\":[\"transaction.esign_pending\"],\"description\":\"\xff\"}"), "#/description", "invalid_encoding"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := s.do(jsonReq(http.MethodPost, tc.path, tenant.Token, tc.body)).problem(http.StatusBadRequest)
				hasError(t, p, tc.pointer, tc.code)
			})
		}
		var list struct{ Items []any }
		s.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 0 {
			t.Fatalf("a refused body was stored: %d transactions", len(list.Items))
		}
	})
}

// marshalBody marshals v the way jsonReq does.
func marshalBody(v any) ([]byte, error) {
	req := jsonReq(http.MethodPost, "/", "", v)
	var buf bytes.Buffer
	_, err := buf.ReadFrom(req.Body)
	return buf.Bytes(), err
}

// TestJSONRoutesNeedTheJSONMediaType: every route that reads a JSON body
// answers 415 to a body without Content-Type, of another type, or in another
// charset; application/json with or without charset=utf-8 passes.
func TestJSONRoutesNeedTheJSONMediaType(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		created, _ := s.create(tenant.Token, txPayload(d, "media"))
		txID := created["id"].(string)
		routes := []struct {
			method, path string
			body         any
			ok           int
		}{
			{http.MethodPost, "/api/v1/transactions", txPayload(d, "a"), http.StatusCreated},
			{http.MethodPut, "/api/v1/transactions/" + txID, txPayload(d, "b"), http.StatusCreated},
			{http.MethodPost, "/api/v1/markup-rooms", roomBody(tenant, d), http.StatusOK},
			{http.MethodPost, "/api/v1/webhooks", obj{"url": "https://hooks.acme.example/x", "events": arr{"transaction.esign_pending"}}, http.StatusCreated},
		}
		for _, r := range routes {
			for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=iso-8859-1",
				"application/json; charset=utf-16", "application/jsonx", "json"} {
				req := jsonReq(r.method, r.path, tenant.Token, r.body)
				if ct == "" {
					req.Header.Del("Content-Type")
				} else {
					req.Header.Set("Content-Type", ct)
				}
				p := s.do(req).problem(http.StatusUnsupportedMediaType)
				hasError(t, p, "header:Content-Type", "unsupported_media_type")
			}
			for _, ct := range []string{"application/json; charset=utf-8", "application/json; charset=UTF-8", "Application/JSON"} {
				req := jsonReq(r.method, r.path, tenant.Token, r.body)
				req.Header.Set("Content-Type", ct)
				s.do(req).status(r.ok)
			}
		}
	})
}

// TestTitlesAndNamesAreOneLine: a control character (tab and line breaks
// included, DEL, C1) in a title, subject or name is refused by the API and
// by the room's forms alike, through one validator.
func TestTitlesAndNamesAreOneLine(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		for _, bad := range []string{"Con\ttract", "Con\ntract", "Con\rtract", "Con\x7ftract", "Con\u0085tract", "Con\u2028tract"} {
			// The upload's title.
			p := s.do(uploadReq(tenant.Token, "c.pdf", pdfBytes(t), bad)).problem(http.StatusBadRequest)
			hasError(t, p, "#/title", "invalid_character")
			// A transaction's document title and participant names.
			for ptr, set := range map[string]func(obj){
				"#/documents/0/title":         func(b obj) { at(b, "documents", 0).(obj)["title"] = bad },
				"#/participants/0/firstName":  func(b obj) { at(b, "participants", 0).(obj)["firstName"] = bad },
				"#/participants/0/middleName": func(b obj) { at(b, "participants", 0).(obj)["middleName"] = bad },
				"#/participants/1/lastName":   func(b obj) { at(b, "participants", 1).(obj)["lastName"] = bad },
				"#/inviteEmailSubject":        func(b obj) { b["inviteEmailSubject"] = bad },
			} {
				body := clone(txPayload(d, "lines"))
				set(body)
				hasError(t, s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, body)).problem(http.StatusBadRequest), ptr, "invalid_character")
			}
			// A Markup Room request's participant.
			room := roomBody(tenant, d)
			room["participants"].(arr)[0].(obj)["lastName"] = bad
			hasError(t, s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, room)).problem(http.StatusBadRequest), "#/participants/0/lastName", "invalid_character")
		}

		// The room's forms: renaming a document, the participant dialog.
		tr := openTagRoom(t, s, tenant, nil)
		for _, bad := range []string{"Con\ttract", "Con\ntract", "Con\u009btract"} {
			res := tr.b.post(tr.path+"/documents/0/title", url.Values{"csrf": {tr.csrf}, "title": {bad}}).status(http.StatusBadRequest)
			if !strings.Contains(res.Body.String(), "one line of text") {
				t.Fatalf("the rename refusal does not say why: %s", truncate(res.Body.String()))
			}
			hasError(t, tr.send(http.MethodPost, tr.path+"/documents/0/title", url.Values{"title": {bad}}).problem(http.StatusBadRequest), "#/title", "invalid_character")
			res = tr.b.post(tr.path+"/participants", url.Values{"csrf": {tr.csrf}, "firstName": {bad}, "lastName": {"Lee"}, "email": {"ann@example.com"}}).status(http.StatusUnprocessableEntity)
			if html := res.Body.String(); !strings.Contains(html, "data-open-on-load") || !strings.Contains(html, "one line of text") {
				t.Fatalf("participant dialog does not show the error: %s", truncate(html))
			}
		}
		if docs := tr.docs(t); len(docs) != 1 || len(tr.participantIDs(t)) != 2 {
			t.Fatalf("refused room forms changed the room: %d documents, %d participants", len(docs), len(tr.participantIDs(t)))
		}
	})
}

// TestRoomFormsOverTheLimitAre413: an oversized room form is "too large",
// not a CSRF refusal of a body that could not be read.
func TestRoomFormsOverTheLimitAre413(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		big := strings.Repeat("x", 100<<10)
		tr.b.post(tr.path+"/participants", url.Values{"csrf": {tr.csrf}, "firstName": {big}, "lastName": {"Lee"}, "email": {"a@example.com"}}).status(http.StatusRequestEntityTooLarge)
		tr.send(http.MethodPost, tr.path+"/tags", tagForm("", "stateFormat", big)).problem(http.StatusRequestEntityTooLarge)
		// The console's forms share the limit.
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		b.post("/admin/organizations", url.Values{"csrf": {token}, "name": {big}}).status(http.StatusRequestEntityTooLarge)
		if len(tr.participantIDs(t)) != 2 {
			t.Fatal("an oversized form changed the room")
		}
	})
}

// TestAddParticipantRefusesAnEmailAlreadyInTheRoom compares e-mails
// ignoring case, as the Markup Room request does, and says so in the dialog.
func TestAddParticipantRefusesAnEmailAlreadyInTheRoom(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		form := url.Values{"csrf": {tr.csrf}, "firstName": {"Pat"}, "lastName": {"Again"}, "email": {"  PAT@Example.COM "}}
		res := tr.b.post(tr.path+"/participants", form).status(http.StatusUnprocessableEntity)
		if html := res.Body.String(); !strings.Contains(html, "data-open-on-load") || !strings.Contains(html, "already used by Pat Buyer") {
			t.Fatalf("the dialog does not name the duplicate: %s", truncate(html))
		}
		ids := tr.participantIDs(t)
		if len(ids) != 2 {
			t.Fatalf("duplicate added: %d participants", len(ids))
		}
		// Editing the second participant to the first one's address is refused too; keeping one's own is fine.
		form.Set("email", "pat@EXAMPLE.com")
		tr.b.post(tr.path+"/participants/"+url.PathEscape(ids[1]), form).status(http.StatusUnprocessableEntity)
		form.Set("email", "pat@example.com")
		tr.b.post(tr.path+"/participants/"+url.PathEscape(ids[0]), form).status(http.StatusSeeOther)
		form.Set("email", "someone.else@example.com")
		tr.b.post(tr.path+"/participants", form).status(http.StatusSeeOther)
	})
}

// TestTagFormsRefuseNumbersThatAreNot: NaN, infinities and out-of-range
// integers in any numeric field of the room's forms are a 400 that says so.
func TestTagFormsRefuseNumbersThatAreNot(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, obj{"documents": obj{"advancedEdit": true}})
		signer := tr.participantIDs(t)[0]
		tagID := tr.add(t, tagForm(signer))
		for _, field := range []string{"x", "y", "width", "height", "page", "fontSize"} {
			for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "Infinity", "-infinity", "1e999", "-1e999", "0x10", "1_0"} {
				for _, method := range []string{http.MethodPost, http.MethodPut} {
					path := tr.path + "/tags"
					if method == http.MethodPut {
						path += "/" + tagID
					}
					p := tr.send(method, path, tagForm(signer, field, v)).problem(http.StatusBadRequest)
					hasError(t, p, "#/"+field, "invalid_type")
				}
			}
		}
		huge := "9223372036854775807"
		for _, v := range []string{huge, "2147483648", "-1", "1e3", "NaN"} {
			hasError(t, tr.send(http.MethodPost, tr.path+"/tags", tagForm(signer, "documentPosition", v)).problem(http.StatusBadRequest), "#/documentPosition", "invalid_type")
			hasError(t, tr.send(http.MethodPost, tr.path+"/participants/"+url.PathEscape(signer)+"/move", url.Values{"to": {v}}).problem(http.StatusBadRequest), "#/to", "invalid_type")
			hasError(t, tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/move", url.Values{"to": {v}}).problem(http.StatusBadRequest), "#/to", "invalid_type")
		}
		// Path numbers out of range name nothing.
		tr.send(http.MethodPost, tr.path+"/documents/"+huge+"/pages/1/delete", nil).problem(http.StatusNotFound)
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/"+huge+"/delete", nil).problem(http.StatusNotFound)
		tr.send(http.MethodPost, tr.path+"/documents/"+huge+"/title", url.Values{"title": {"T"}}).problem(http.StatusNotFound)
		if tags, _ := tr.apiTags(t); len(tags) != 1 {
			t.Fatalf("refused forms wrote tags: %d", len(tags))
		}
	})
}

// TestCursorsTheServerDidNotIssueAre400 covers the API's cursors and the
// console's after/before links.
func TestCursorsTheServerDidNotIssueAre400(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		forged := []string{
			base64.RawURLEncoding.EncodeToString([]byte("zzzz")),
			base64.RawURLEncoding.EncodeToString([]byte(tr.room.ID + " ")),
			base64.RawURLEncoding.EncodeToString([]byte(strings.ToUpper(tr.room.ID))),
			base64.StdEncoding.EncodeToString([]byte("a room")),
			"%2A",
		}
		for _, path := range []string{"/api/v1/transactions", "/api/v1/markup-rooms"} {
			for _, c := range forged {
				hasError(t, s.do(api(http.MethodGet, path+"?cursor="+c, tenant.Token, nil)).problem(http.StatusBadRequest), "query:cursor", "invalid_cursor")
			}
			// An issued cursor still pages.
			issued := base64.RawURLEncoding.EncodeToString([]byte(tr.room.ID))
			s.do(api(http.MethodGet, path+"?cursor="+issued, tenant.Token, nil)).status(http.StatusOK)
		}
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		for _, path := range []string{"/admin/transactions?after=", "/admin/transactions?before=", "/admin/rooms?after=", "/admin/outbox?before=", "/admin/activity?before="} {
			for _, c := range []string{"zzzz", "1%20OR%201=1", strings.ToUpper(tr.room.ID), "-5"} {
				b.get(path + c).status(http.StatusBadRequest)
			}
		}
		b.get("/admin/transactions?after=" + tr.room.TransactionID).status(http.StatusOK)
		b.get("/admin/rooms?after=" + tr.room.ID).status(http.StatusOK)
		b.get("/admin/activity?before=5").status(http.StatusOK)
	})
}

// TestHSTSBehindHTTPS: every response carries Strict-Transport-Security
// when the base URL is https, none otherwise.
func TestHSTSBehindHTTPS(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	for base, want := range map[string]string{"https://markup.example": "max-age=63072000; includeSubDomains", "http://markup.example": ""} {
		s := newServer(t, env, func(d *handlers.Deps) { d.Config.BaseURL = base })
		for _, path := range []string{"/healthz", "/", "/admin/login", "/api/v1/transactions", "/nowhere"} {
			if got := s.do(httptest.NewRequest(http.MethodGet, path, nil)).Header().Get("Strict-Transport-Security"); got != want {
				t.Errorf("%s%s: Strict-Transport-Security %q, want %q", base, path, got, want)
			}
		}
	}
}
