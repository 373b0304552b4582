package handlers_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
)

type roomResp struct {
	ID            string `json:"id"`
	URL           string `json:"url"`
	Status        string `json:"status"`
	TransactionID string `json:"transactionId"`
	ExpiresAt     string `json:"expiresAt"`
	SenderID      string `json:"senderId"`
	Config        struct {
		IDV            map[string]bool `json:"idv"`
		Authentication map[string]bool `json:"authentication"`
		Documents      map[string]bool `json:"documents"`
		Participants   map[string]bool `json:"participants"`
		Templates      map[string]bool `json:"templates"`
	} `json:"config"`
}

// roomBody is a valid room request for tenant with one uploaded document.
func roomBody(tenant *modelstest.Tenant, d uploadedDoc) obj {
	return obj{
		"senderId":  strconv.FormatInt(tenant.Sender.ID, 10),
		"documents": arr{d.Location},
		"participants": arr{
			obj{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"},
			obj{"firstName": "Robin", "lastName": "Seller", "email": "robin@example.com"},
		},
	}
}

func (s *server) createRoom(token string, body any) roomResp {
	s.t.Helper()
	var r roomResp
	s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", token, body)).status(http.StatusOK).json(&r)
	return r
}

func TestCreateRoomAppliesDefaultsAndMergesConfig(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)

		r := s.createRoom(tenant.Token, roomBody(tenant, d))
		for group, flags := range map[string]map[string]bool{"idv": r.Config.IDV, "authentication": r.Config.Authentication,
			"documents": r.Config.Documents, "participants": r.Config.Participants, "templates": r.Config.Templates} {
			if len(flags) == 0 {
				t.Fatalf("config.%s missing", group)
			}
			for k, v := range flags {
				if !v {
					t.Errorf("default config.%s.%s = false", group, k)
				}
			}
		}
		// The detectTags extension (RoomConfig in the OpenAPI document) is returned
		// with the other defaults.
		if on, ok := r.Config.Documents["detectTags"]; !ok || !on {
			t.Fatalf("config.documents.detectTags = %v (present %v), want true by default", on, ok)
		}
		if !strings.HasPrefix(r.URL, testBaseURL+"/markup-room/") || len(strings.TrimPrefix(r.URL, testBaseURL+"/markup-room/")) < 64 {
			t.Fatalf("url = %q", r.URL)
		}
		if r.Status != "open" || r.TransactionID == "" {
			t.Fatalf("room = %+v", r)
		}
		expires, err := time.Parse(time.RFC3339, r.ExpiresAt)
		if err != nil || !expires.Equal(env.Clock.Now().Add(24*time.Hour)) {
			t.Fatalf("expiresAt = %q, want now + 24h", r.ExpiresAt)
		}

		body := roomBody(tenant, d)
		body["config"] = obj{"documents": obj{"edit": false}, "idv": obj{"kba": false}}
		body["senderId"] = tenant.Sender.ID // a JSON number is read as its decimal string
		r = s.createRoom(tenant.Token, body)
		if r.Config.Documents["edit"] || r.Config.IDV["kba"] || !r.Config.Documents["rename"] || !r.Config.Documents["advancedEdit"] ||
			!r.Config.IDV["credentialAnalysis"] || !r.Config.Participants["add"] || !r.Config.Authentication["twoFactor"] {
			t.Fatalf("merged config = %+v", r.Config)
		}

		var got roomResp
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+r.ID, tenant.Token, nil)).status(http.StatusOK).json(&got)
		if got.Status != "open" || got.TransactionID != r.TransactionID || got.URL != "" || !reflect.DeepEqual(got.Config, r.Config) {
			t.Fatalf("GET room = %+v", got)
		}
		// The room's draft transaction holds the participants and the document.
		var tx obj
		s.do(api(http.MethodGet, "/api/v1/transactions/"+r.TransactionID, tenant.Token, nil)).status(http.StatusOK).json(&tx)
		if tx["status"] != "draft" || tx["referenceId"] != r.ID || len(tx["participants"].([]any)) != 2 {
			t.Fatalf("room transaction = %v", tx)
		}
		if at(tx, "participants", 0, "authenticationType") != "none" || at(tx, "participants", 0, "twoFactorContact") != "email" ||
			at(tx, "documents", 0, "title") != "contract" || at(tx, "documents", 0, "pages") != 3.0 {
			t.Fatalf("room transaction content = %v", tx)
		}
		var list struct{ Items []roomResp }
		s.do(api(http.MethodGet, "/api/v1/markup-rooms", tenant.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 2 {
			t.Fatalf("list has %d rooms", len(list.Items))
		}
	})
}

func TestCreateRoomRefusals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		d := s.upload(tenant.Token)
		foreign := s.upload(other.Token)
		type change func(b obj)
		cases := []struct {
			name    string
			change  change
			status  int
			pointer string
			code    string
		}{
			{"missing first name", func(b obj) { delete(at(b, "participants", 0).(obj), "firstName") }, 400, "#/participants/0/firstName", "required"},
			{"missing last name", func(b obj) { delete(at(b, "participants", 1).(obj), "lastName") }, 400, "#/participants/1/lastName", "required"},
			{"missing e-mail", func(b obj) { delete(at(b, "participants", 0).(obj), "email") }, 400, "#/participants/0/email", "required"},
			{"malformed e-mail", func(b obj) { at(b, "participants", 0).(obj)["email"] = "pat(at)example.com" }, 400, "#/participants/0/email", "invalid_email"},
			{"e-mails equal ignoring case", func(b obj) { at(b, "participants", 1).(obj)["email"] = "PAT@Example.com" }, 400, "#/participants/1/email", "duplicate_email"},
			{"unknown config group", func(b obj) { b["config"] = obj{"tags": obj{}} }, 400, "#/config/tags", "unknown_field"},
			{"unknown config key", func(b obj) { b["config"] = obj{"idv": obj{"selfie": true}} }, 400, "#/config/idv/selfie", "unknown_field"},
			{"config flag not boolean", func(b obj) { b["config"] = obj{"participants": obj{"add": "yes"}} }, 400, "#/config/participants/add", "invalid_type"},
			{"participants not an array", func(b obj) { b["participants"] = "pat" }, 400, "#/participants", "invalid_type"},
			{"senderId wrong type", func(b obj) { b["senderId"] = true }, 400, "#/senderId", "invalid_type"},
			{"senderId missing", func(b obj) { delete(b, "senderId") }, 400, "#/senderId", "required"},
			{"unknown field", func(b obj) { b["callbackUrl"] = "x" }, 400, "#/callbackUrl", "unknown_field"},
			{"document not a string", func(b obj) { b["documents"] = arr{12} }, 400, "#/documents/0", "invalid_type"},
			{"unknown document", func(b obj) { b["documents"] = arr{d.Location, "https://elsewhere.example/x.pdf"} }, 422, "#/documents/1", "unknown_document"},
			{"another organization's document", func(b obj) { b["documents"] = arr{foreign.Location} }, 422, "#/documents/0", "unknown_document"},
			{"no participants while add is off", func(b obj) {
				b["participants"] = arr{}
				b["config"] = obj{"participants": obj{"add": false}}
			}, 422, "#/participants", "participants_required"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				b := roomBody(tenant, d)
				tc.change(b)
				p := s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, b)).problem(tc.status)
				hasError(t, p, tc.pointer, tc.code)
			})
		}
		t.Run("several problems listed", func(t *testing.T) {
			b := roomBody(tenant, d)
			at(b, "participants", 0).(obj)["email"] = "bad"
			delete(at(b, "participants", 1).(obj), "firstName")
			b["config"] = obj{"idv": obj{"nope": true}}
			p := s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, b)).problem(http.StatusBadRequest)
			hasError(t, p, "#/participants/0/email", "invalid_email")
			hasError(t, p, "#/participants/1/firstName", "required")
			hasError(t, p, "#/config/idv/nope", "unknown_field")
		})
		t.Run("documents and ids are accepted as locations", func(t *testing.T) {
			b := roomBody(tenant, d)
			b["documents"] = arr{d.ID, d.GCSRefID, "/api/v1/documents/" + d.ID + "/content"}
			s.createRoom(tenant.Token, b)
		})
		t.Run("empty documents and participants", func(t *testing.T) {
			s.createRoom(tenant.Token, obj{"senderId": fmt.Sprint(tenant.Sender.ID)})
		})
	})
}

func TestCreateRoomUnauthorized(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		off := env.NewTenant(t, "Off")
		if err := env.Store.SetOrganizationAPIEnabled(t.Context(), off.Org.ID, false); err != nil {
			t.Fatal(err)
		}
		d := s.upload(tenant.Token)
		body := roomBody(tenant, d)
		for _, tc := range []struct {
			name   string
			token  string
			sender any
		}{
			{"no token", "", body["senderId"]},
			{"bad token", "mrt_not_a_real_token", body["senderId"]},
			{"api permission off", off.Token, fmt.Sprint(off.Sender.ID)},
			{"sender of another organization", tenant.Token, fmt.Sprint(other.Sender.ID)},
			{"unknown sender", tenant.Token, "999999"},
			{"non-numeric sender", tenant.Token, "sam@example.com"},
			{"fractional sender", tenant.Token, 1.5},
		} {
			t.Run(tc.name, func(t *testing.T) {
				b := clone(body)
				b["senderId"] = tc.sender
				res := s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tc.token, b))
				res.problem(http.StatusUnauthorized)
				if !strings.HasPrefix(res.Header().Get("WWW-Authenticate"), "Bearer") {
					t.Fatalf("WWW-Authenticate = %q", res.Header().Get("WWW-Authenticate"))
				}
			})
		}
	})
}

func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		post := func(key string, body any) *response {
			req := jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, body)
			req.Header.Set("Idempotency-Key", key)
			return s.do(req)
		}
		first := post("key-1", roomBody(tenant, d)).status(http.StatusOK)
		replay := post("key-1", roomBody(tenant, d)).status(http.StatusOK)
		if replay.Body.String() != first.Body.String() || replay.Header().Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay differs:\n%s\n%s", first.Body.String(), replay.Body.String())
		}
		changed := roomBody(tenant, d)
		changed["participants"] = arr{}
		hasError(t, post("key-1", changed).problem(http.StatusUnprocessableEntity), "header:Idempotency-Key", "idempotency_key_reused")

		// The same key on another endpoint is another key.
		req := jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, txPayload(d, "r"))
		req.Header.Set("Idempotency-Key", "key-1")
		s.do(req).status(http.StatusCreated)

		// Concurrent requests with one key create one room.
		const n = 8
		var wg sync.WaitGroup
		bodies := make([]string, n)
		codes := make([]int, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				rec := httptest.NewRecorder()
				r := jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, roomBody(tenant, d))
				r.Header.Set("Idempotency-Key", "concurrent")
				s.handler.ServeHTTP(rec, r)
				codes[i], bodies[i] = rec.Code, rec.Body.String()
			}(i)
		}
		wg.Wait()
		for i := range bodies {
			if codes[i] != http.StatusOK || bodies[i] != bodies[0] {
				t.Fatalf("concurrent request %d: %d %s (first: %s)", i, codes[i], bodies[i], bodies[0])
			}
		}
		var list struct{ Items []roomResp }
		s.do(api(http.MethodGet, "/api/v1/markup-rooms", tenant.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 2 {
			t.Fatalf("%d rooms exist, want 2 (one per key)", len(list.Items))
		}

		// Uploads honour the key too.
		up := func() *response {
			r := uploadReq(tenant.Token, "a.pdf", pdfBytes(t), "")
			r.Header.Set("Idempotency-Key", "upload-1")
			return s.do(r).status(http.StatusCreated)
		}
		if a, b := up(), up(); a.Body.String() != b.Body.String() {
			t.Fatal("upload replay returned another document")
		}
		// Keys expire after 24 hours.
		env.Clock.Advance(25 * time.Hour)
		again := post("key-1", changed).status(http.StatusOK)
		if again.Body.String() == first.Body.String() {
			t.Fatal("an expired key still replays")
		}
	})
}

func TestRoomStatusExpiresWithTheClock(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		r := s.createRoom(tenant.Token, roomBody(tenant, s.upload(tenant.Token)))
		env.Clock.Advance(24*time.Hour + time.Second)
		var got roomResp
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+r.ID, tenant.Token, nil)).status(http.StatusOK).json(&got)
		if got.Status != "expired" {
			t.Fatalf("status = %q, want expired", got.Status)
		}
		var list struct{ Items []roomResp }
		s.do(api(http.MethodGet, "/api/v1/markup-rooms?status=expired", tenant.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 1 {
			t.Fatalf("expired filter: %d", len(list.Items))
		}
	})
}

func TestRoomsAreScopedToTheirOrganization(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "A")
		b := env.NewTenant(t, "B")
		r := s.createRoom(a.Token, roomBody(a, s.upload(a.Token)))
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+r.ID, b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/transactions/"+r.TransactionID, b.Token, nil)).problem(http.StatusNotFound)
	})
}
