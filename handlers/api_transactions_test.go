package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// obj and arr keep payload literals short.
type (
	obj = map[string]any
	arr = []any
)

// txPayload is a full transaction body using every field of the OpenAPI
// document's TransactionInput (with its documents, tags and participants).
func txPayload(d uploadedDoc, ref string) obj {
	return obj{
		"status":              "draft",
		"referenceId":         ref,
		"signingOrder":        true,
		"personalizedMessage": "Hello — please sign <here> & there.",
		"inviteEmailSubject":  "Your purchase agreement",
		"notifyParticipants":  obj{"email": true},
		"documents": arr{obj{
			"id": d.ID, "gcsRefId": d.GCSRefID, "title": "Purchase Agreement", "description": "Main contract",
			"sessionType": "esign", "type": "acknowledgment", "order": 1, "pages": 3, "readOnly": false, "visible": true,
			"tags": arr{
				obj{"type": "SIGNATURETEMPLATE", "x": 72, "y": 100, "width": 200, "height": 40, "signerId": "buyer",
					"customData": obj{"zeta": 1, "alpha": obj{"list": arr{1, "two", nil}}, "label": "Sign \"here\" <now>"}, "page": 1, "required": true},
				obj{"type": "DATETEMPLATE", "x": 300.5, "y": 100.25, "width": 120, "height": 20, "signerId": "seller",
					"customData": obj{}, "page": 2, "dateFormat": "MMMM do, yyyy", "fontSize": 11},
				obj{"type": "NOTARYSTATETEMPLATE", "x": 0, "y": 0, "width": 612, "height": 792, "signerId": "buyer",
					"customData": obj{"k": "v"}, "page": 3, "stateFormat": "full-name", "required": false},
			},
		}},
		"participants": arr{
			obj{"id": "buyer", "order": 1, "email": "Pat.Buyer@example.com", "firstName": "Pat", "middleName": "Q", "lastName": "Buyer",
				"address1": "1 Main St", "address2": "Apt 2", "country": "US", "city": "Springfield", "state": "IL", "zip": "62701",
				"phone": "+1 (555) 010-0100", "kbaRequired": true, "credAnalysisRequired": false, "externalId": "crm-17",
				"authenticationType": "personal-password", "twoFactorContact": "email",
				"personalPasswordQuestion": "Favourite colour?", "personalPassword": "s3cret-Answer"},
			obj{"id": "seller", "email": "robin@example.com", "firstName": "Robin", "lastName": "Seller",
				"phone": "+44 20 7946 0000", "authenticationType": "two-factor-authentication", "twoFactorContact": "sms"},
		},
	}
}

// clone deep-copies a payload so cases can change it freely.
func clone(v obj) obj {
	b, _ := json.Marshal(v)
	var out obj
	_ = json.Unmarshal(b, &out)
	return out
}

// at walks a payload by a path of keys and indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(obj)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// assertEchoes fails unless every field sent (but the password) comes back equal.
func assertEchoes(t *testing.T, sent, got any, path string) {
	t.Helper()
	switch s := sent.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			t.Fatalf("%s: got %T, want object", path, got)
		}
		for k, v := range s {
			if k == "personalPassword" {
				continue
			}
			assertEchoes(t, v, g[k], path+"/"+k)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(s) {
			t.Fatalf("%s: got %v, want %d elements", path, got, len(s))
		}
		for i := range s {
			assertEchoes(t, s[i], g[i], fmt.Sprintf("%s/%d", path, i))
		}
	default:
		if !reflect.DeepEqual(normalize(sent), normalize(got)) {
			t.Fatalf("%s: got %#v, want %#v", path, got, sent)
		}
	}
}

func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func noPassword(t *testing.T, body string) {
	t.Helper()
	if strings.Contains(body, "personalPassword\"") || strings.Contains(body, "s3cret-Answer") || strings.Contains(body, "argon2") {
		t.Fatalf("a response reveals the personal password: %s", truncate(body))
	}
}

// create posts payload and returns the transaction and its ETag.
func (s *server) create(token string, payload obj) (obj, string) {
	s.t.Helper()
	res := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", token, payload)).status(http.StatusCreated)
	noPassword(s.t, res.Body.String())
	var out obj
	res.json(&out)
	return out, res.Header().Get("ETag")
}

func TestTransactionRoundTrip(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		first := txPayload(d, "deal-1")
		created, etag := s.create(tenant.Token, first)
		assertEchoes(t, first, created, "#")
		id := created["id"].(string)
		if etag != `"1"` || created["version"] != 1.0 || created["evault"] != "default" {
			t.Fatalf("etag %s, version %v, evault %v", etag, created["version"], created["evault"])
		}
		if got := at(created, "participants", 1, "inviteEmailSubject"); got != "Your purchase agreement" {
			t.Fatalf("participant inviteEmailSubject = %v", got)
		}
		if at(created, "documents", 0, "pages") != 3.0 {
			t.Fatalf("pages = %v", at(created, "documents", 0, "pages"))
		}

		read := s.do(api(http.MethodGet, "/api/v1/transactions/"+id, tenant.Token, nil)).status(http.StatusOK)
		noPassword(t, read.Body.String())
		var got obj
		read.json(&got)
		if !reflect.DeepEqual(got, created) {
			t.Fatalf("GET differs from the create response:\n%v\n%v", got, created)
		}

		// Replace with something quite different: nothing of the first version survives.
		second := obj{
			"status": "esign_pending", "referenceId": "deal-1b",
			"documents": arr{obj{"gcsRefId": d.GCSRefID, "title": "Only one", "sessionType": "esign", "type": "oath",
				"tags": arr{obj{"type": "INITIALSTEMPLATE", "x": 10, "y": 10, "width": 30, "height": 20, "signerId": "solo", "customData": obj{"page": 2}}}}},
			"participants": arr{obj{"id": "solo", "email": "solo@example.com", "firstName": "Solo", "lastName": "Signer",
				"authenticationType": "none", "twoFactorContact": "email"}},
		}
		res := s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, tenant.Token, second)).status(http.StatusCreated)
		if res.Header().Get("ETag") != `"2"` {
			t.Fatalf("ETag after replace = %q", res.Header().Get("ETag"))
		}
		var replaced obj
		res.json(&replaced)
		for _, gone := range []string{"signingOrder", "personalizedMessage", "notifyParticipants"} {
			if _, ok := replaced[gone]; ok {
				t.Errorf("%s survived the replace", gone)
			}
		}
		if len(replaced["participants"].([]any)) != 1 || len(at(replaced, "documents", 0, "tags").([]any)) != 1 {
			t.Fatalf("replace kept old children: %v", replaced)
		}
		// "page" sent inside customData is lifted out beside it.
		if at(replaced, "documents", 0, "tags", 0, "page") != 2.0 || len(at(replaced, "documents", 0, "tags", 0, "customData").(obj)) != 0 {
			t.Fatalf("customData page not lifted: %v", at(replaced, "documents", 0, "tags", 0))
		}
		// The replace's answer is the transaction as stored, plus the pre-send check (review).
		if _, ok := replaced["review"].([]any); !ok {
			t.Fatalf("the replace answered no review: %v", replaced)
		}
		delete(replaced, "review")
		var again obj
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id, tenant.Token, nil)).status(http.StatusOK).json(&again)
		if !reflect.DeepEqual(again, replaced) {
			t.Fatalf("GET after replace differs from the replace response:\n%s\n%s", mustJSON(again), mustJSON(replaced))
		}
	})
}

func TestTransactionCustomDataKeepsKeyOrder(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		body := strings.Replace(mustJSON(txPayload(d, "r")), `"customData":{"alpha"`, `"customData":{"zz":1,"fontSize":11,"alpha"`, 1)
		res := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, body)).status(http.StatusCreated)
		if !strings.Contains(res.Body.String(), `"customData":{"zz":1,"alpha":{"list":[1,"two",null]},"label":"Sign \"here\" \u003cnow\u003e","zeta":1}`) &&
			!strings.Contains(res.Body.String(), `"customData":{"zz":1,"alpha":{"list":[1,"two",null]},"label":"Sign \"here\" <now>","zeta":1}`) {
			t.Fatalf("customData not kept in order with fontSize lifted out: %s", truncate(res.Body.String()))
		}
		if !strings.Contains(res.Body.String(), `"fontSize":11`) {
			t.Fatalf("fontSize not lifted beside customData")
		}
	})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestTransactionValidation400(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		base := txPayload(d, "r")
		type change func(p obj)
		set := func(v any, path ...any) change {
			return func(p obj) {
				parent := at(p, path[:len(path)-1]...)
				switch k := path[len(path)-1].(type) {
				case string:
					parent.(obj)[k] = v
				case int:
					parent.([]any)[k] = v
				}
			}
		}
		del := func(path ...any) change {
			return func(p obj) { delete(at(p, path[:len(path)-1]...).(obj), path[len(path)-1].(string)) }
		}
		many := func(n int) []any {
			out := make([]any, n)
			for i := range out {
				out[i] = obj{"id": fmt.Sprint("p", i), "email": fmt.Sprintf("p%d@example.com", i), "firstName": "A", "lastName": "B",
					"authenticationType": "none", "twoFactorContact": "email"}
			}
			return out
		}
		cases := []struct {
			name    string
			change  change
			pointer string
			code    string
		}{
			{"unknown top-level field", set(1, "stauts"), "#/stauts", "unknown_field"},
			{"unknown tag field", set(1, "documents", 0, "tags", 0, "colour"), "#/documents/0/tags/0/colour", "unknown_field"},
			{"wrong type", set("72", "documents", 0, "tags", 0, "x"), "#/documents/0/tags/0/x", "invalid_type"},
			{"missing title", del("documents", 0, "title"), "#/documents/0/title", "required"},
			{"missing referenceId", del("referenceId"), "#/referenceId", "required"},
			{"missing customData", del("documents", 0, "tags", 0, "customData"), "#/documents/0/tags/0/customData", "required"},
			{"missing page", del("documents", 0, "tags", 0, "page"), "#/documents/0/tags/0/page", "required"},
			{"status enum", set("sent", "status"), "#/status", "invalid_enum"},
			{"sessionType enum", set("notary", "documents", 0, "sessionType"), "#/documents/0/sessionType", "invalid_enum"},
			{"document type enum", set("contract", "documents", 0, "type"), "#/documents/0/type", "invalid_enum"},
			{"tag type enum", set("SIGNATURE", "documents", 0, "tags", 0, "type"), "#/documents/0/tags/0/type", "invalid_enum"},
			{"date format enum", set("YYYY-MM-DD", "documents", 0, "tags", 1, "dateFormat"), "#/documents/0/tags/1/dateFormat", "invalid_enum"},
			{"authenticationType enum", set("password", "participants", 0, "authenticationType"), "#/participants/0/authenticationType", "invalid_enum"},
			{"twoFactorContact enum", set("fax", "participants", 1, "twoFactorContact"), "#/participants/1/twoFactorContact", "invalid_enum"},
			{"malformed e-mail", set("pat@", "participants", 0, "email"), "#/participants/0/email", "invalid_email"},
			{"title too long", set(strings.Repeat("t", 256), "documents", 0, "title"), "#/documents/0/title", "too_long"},
			{"message too long", set(strings.Repeat("m", 10001), "personalizedMessage"), "#/personalizedMessage", "too_long"},
			{"too many participants", set(many(101), "participants"), "#/participants", "too_many"},
			{"customData not an object", set(arr{1}, "documents", 0, "tags", 0, "customData"), "#/documents/0/tags/0/customData", "invalid_type"},
			{"customData conflicting page", set(obj{"page": 2}, "documents", 0, "tags", 0, "customData"), "#/documents/0/tags/0/customData/page", "conflicting_value"},
			{"malformed xfdf", set("<xfdf><annots>", "documents", 0, "xfdf"), "#/documents/0/xfdf", "invalid_xfdf"},
			{"zero width", set(0, "documents", 0, "tags", 0, "width"), "#/documents/0/tags/0/width", "out_of_range"},
			{"page zero", set(0, "documents", 0, "tags", 0, "page"), "#/documents/0/tags/0/page", "out_of_range"},
			{"fractional page", set(1.5, "documents", 0, "tags", 0, "page"), "#/documents/0/tags/0/page", "not_integer"},
			{"wrong evault", set("other", "evault"), "#/evault", "invalid_enum"},
			{"document not an object", set("doc", "documents", 0), "#/documents/0", "invalid_type"},
			{"NUL in a string", set("Con\x00tract", "documents", 0, "title"), "#/documents/0/title", "invalid_character"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := clone(base)
				tc.change(p)
				res := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, p))
				hasError(t, res.problem(http.StatusBadRequest), tc.pointer, tc.code)
			})
		}
		t.Run("not JSON", func(t *testing.T) {
			p := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, `{"status":`)).problem(http.StatusBadRequest)
			hasError(t, p, "#", "invalid_json")
		})
		t.Run("every problem listed at once", func(t *testing.T) {
			p := clone(base)
			p["status"] = "nope"
			at(p, "participants", 0).(obj)["email"] = "bad"
			at(p, "documents", 0, "tags", 2).(obj)["type"] = "NOPE"
			delete(at(p, "documents", 0).(obj), "title")
			p["extra"] = true
			prob := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, p)).problem(http.StatusBadRequest)
			for _, want := range [][2]string{{"#/status", "invalid_enum"}, {"#/participants/0/email", "invalid_email"},
				{"#/documents/0/tags/2/type", "invalid_enum"}, {"#/documents/0/title", "required"}, {"#/extra", "unknown_field"}} {
				hasError(t, prob, want[0], want[1])
			}
		})
		t.Run("body over the limit", func(t *testing.T) {
			big := clone(base)
			big["personalizedMessage"] = strings.Repeat("x", 11<<20)
			p := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, big)).problem(http.StatusRequestEntityTooLarge)
			if p.Type != "/problems/payload-too-large" {
				t.Fatalf("type %q", p.Type)
			}
		})
		t.Run("wrong content type", func(t *testing.T) {
			req := jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, base)
			req.Header.Set("Content-Type", "text/plain")
			s.do(req).problem(http.StatusUnsupportedMediaType)
		})
	})
}

func TestTransactionValidation422(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		d := s.upload(tenant.Token)
		foreign := s.upload(other.Token)
		second := s.upload(tenant.Token)
		base := txPayload(d, "r")
		cases := []struct {
			name    string
			change  func(p obj)
			pointer string
			code    string
		}{
			{"unknown signer", func(p obj) { at(p, "documents", 0, "tags", 0).(obj)["signerId"] = "ghost" }, "#/documents/0/tags/0/signerId", "unknown_signer"},
			{"duplicate participant id", func(p obj) { at(p, "participants", 1).(obj)["id"] = "buyer" }, "#/participants/1/id", "duplicate_participant_id"},
			{"unknown gcsRefId", func(p obj) {
				at(p, "documents", 0).(obj)["gcsRefId"] = "nope"
				delete(at(p, "documents", 0).(obj), "id")
			}, "#/documents/0/gcsRefId", "unknown_document"},
			{"another organization's document", func(p obj) {
				at(p, "documents", 0).(obj)["gcsRefId"] = foreign.GCSRefID
				delete(at(p, "documents", 0).(obj), "id")
			}, "#/documents/0/gcsRefId", "unknown_document"},
			{"id and gcsRefId disagree", func(p obj) { at(p, "documents", 0).(obj)["id"] = second.ID }, "#/documents/0/id", "document_mismatch"},
			{"page the document lacks", func(p obj) { at(p, "documents", 0, "tags", 0).(obj)["page"] = 4 }, "#/documents/0/tags/0/page", "page_out_of_range"},
			{"rectangle outside the page", func(p obj) { at(p, "documents", 0, "tags", 0).(obj)["x"] = 500 }, "#/documents/0/tags/0", "outside_page"},
			{"negative corner", func(p obj) { at(p, "documents", 0, "tags", 0).(obj)["y"] = -1 }, "#/documents/0/tags/0", "outside_page"},
			{"personal-password without password", func(p obj) { delete(at(p, "participants", 0).(obj), "personalPassword") }, "#/participants/0/personalPassword", "password_required"},
			{"sms without phone", func(p obj) { delete(at(p, "participants", 1).(obj), "phone") }, "#/participants/1/phone", "phone_required"},
			{"pages disagree", func(p obj) { at(p, "documents", 0).(obj)["pages"] = 7 }, "#/documents/0/pages", "page_count_mismatch"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := clone(base)
				tc.change(p)
				res := s.do(jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, p))
				hasError(t, res.problem(http.StatusUnprocessableEntity), tc.pointer, tc.code)
			})
		}
	})
}

func TestFailedReplaceLeavesTheTransactionUnchanged(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		created, _ := s.create(tenant.Token, txPayload(d, "r"))
		path := "/api/v1/transactions/" + created["id"].(string)
		before := s.do(api(http.MethodGet, path, tenant.Token, nil)).status(http.StatusOK).Body.String()

		bad422 := txPayload(d, "changed")
		at(bad422, "documents", 0, "tags", 1).(obj)["signerId"] = "ghost"
		s.do(jsonReq(http.MethodPut, path, tenant.Token, bad422)).problem(http.StatusUnprocessableEntity)
		bad400 := txPayload(d, "changed")
		bad400["status"] = "void"
		s.do(jsonReq(http.MethodPut, path, tenant.Token, bad400)).problem(http.StatusBadRequest)
		stale := jsonReq(http.MethodPut, path, tenant.Token, txPayload(d, "changed"))
		stale.Header.Set("If-Match", `"7"`)
		s.do(stale).problem(http.StatusPreconditionFailed)

		after := s.do(api(http.MethodGet, path, tenant.Token, nil)).status(http.StatusOK).Body.String()
		if after != before {
			t.Fatalf("a refused PUT changed the transaction:\nbefore %s\nafter  %s", truncate(before), truncate(after))
		}
	})
}

func TestIfMatch(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		created, etag := s.create(tenant.Token, txPayload(d, "r"))
		path := "/api/v1/transactions/" + created["id"].(string)
		req := jsonReq(http.MethodPut, path, tenant.Token, txPayload(d, "r2"))
		req.Header.Set("If-Match", etag)
		res := s.do(req).status(http.StatusCreated)
		req = jsonReq(http.MethodPut, path, tenant.Token, txPayload(d, "r3"))
		req.Header.Set("If-Match", etag) // now stale
		p := s.do(req).problem(http.StatusPreconditionFailed)
		if p.Type != "/problems/precondition-failed" {
			t.Fatalf("type %q", p.Type)
		}
		req = jsonReq(http.MethodPut, path, tenant.Token, txPayload(d, "r3"))
		req.Header.Set("If-Match", res.Header().Get("ETag"))
		s.do(req).status(http.StatusCreated)
	})
}

func TestConcurrentReplacesLeaveExactlyOnePayload(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		created, _ := s.create(tenant.Token, txPayload(d, "start"))
		path := "/api/v1/transactions/" + created["id"].(string)

		const n = 12
		payloads := make([]obj, n)
		for i := range payloads {
			p := obj{"status": "draft", "referenceId": fmt.Sprint("writer-", i),
				"documents":    arr{},
				"participants": arr{},
			}
			var tags arr
			for j := 0; j <= i; j++ {
				tags = append(tags, obj{"type": "SIGNATURETEMPLATE", "x": 10 + j, "y": 10 + i, "width": 50, "height": 20,
					"signerId": fmt.Sprint("w", i), "customData": obj{"writer": i}, "page": 1 + j%3})
			}
			p["documents"] = arr{obj{"gcsRefId": d.GCSRefID, "title": fmt.Sprint("Doc of ", i), "sessionType": "esign", "type": "oath", "tags": tags}}
			p["participants"] = arr{obj{"id": fmt.Sprint("w", i), "email": fmt.Sprintf("w%d@example.com", i), "firstName": "W", "lastName": fmt.Sprint(i),
				"authenticationType": "none", "twoFactorContact": "email"}}
			payloads[i] = p
		}
		var wg sync.WaitGroup
		codes := make([]int, n)
		bodies := make([]string, n)
		for i := range payloads {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				rec := httptest.NewRecorder()
				s.handler.ServeHTTP(rec, jsonReq(http.MethodPut, path, tenant.Token, payloads[i]))
				codes[i], bodies[i] = rec.Code, rec.Body.String()
			}(i)
		}
		wg.Wait()
		for i, c := range codes {
			if c != http.StatusCreated {
				t.Fatalf("writer %d got %d: %s", i, c, bodies[i])
			}
		}
		var final obj
		s.do(api(http.MethodGet, path, tenant.Token, nil)).status(http.StatusOK).json(&final)
		if final["version"] != float64(n+1) {
			t.Fatalf("version = %v, want %d (every replace counted once)", final["version"], n+1)
		}
		winner := -1
		fmt.Sscanf(final["referenceId"].(string), "writer-%d", &winner)
		if winner < 0 {
			t.Fatalf("referenceId %v is none of the payloads", final["referenceId"])
		}
		assertEchoes(t, payloads[winner], final, "#")
		if tags := at(final, "documents", 0, "tags").([]any); len(tags) != winner+1 {
			t.Fatalf("final state mixes payloads: %d tags for writer %d", len(tags), winner)
		}
	})
}

func TestTransactionsAreScopedToTheirOrganization(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "A")
		b := env.NewTenant(t, "B")
		d := s.upload(a.Token)
		created, _ := s.create(a.Token, txPayload(d, "r"))
		id := created["id"].(string)
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id, b.Token, nil)).problem(http.StatusNotFound)
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, b.Token, txPayload(d, "r"))).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id+"/documents/"+d.ID+"/xfdf", b.Token, nil)).problem(http.StatusNotFound)
		var list struct{ Items []obj }
		s.do(api(http.MethodGet, "/api/v1/transactions", b.Token, nil)).status(http.StatusOK).json(&list)
		if len(list.Items) != 0 {
			t.Fatalf("organization B lists A's transactions: %v", list.Items)
		}
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/does-not-exist", a.Token, txPayload(d, "r"))).problem(http.StatusNotFound)
	})
}

func TestPersonalPasswordIsKeptWhenOmittedAndNeverShown(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		created, _ := s.create(tenant.Token, txPayload(d, "r"))
		id := created["id"].(string)
		// Send the read back as the next request: the password stays stored.
		res := s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, tenant.Token, created)).status(http.StatusCreated)
		noPassword(t, res.Body.String())
		tx, err := env.Store.GetTransaction(t.Context(), tenant.Org.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		if !tx.Participants[0].VerifyPersonalPassword("s3cret-Answer") || tx.Participants[0].VerifyPersonalPassword("wrong") {
			t.Fatal("the stored personal password does not verify")
		}
		list := s.do(api(http.MethodGet, "/api/v1/transactions", tenant.Token, nil)).status(http.StatusOK)
		noPassword(t, list.Body.String())
	})
}

func TestTransactionXFDFEndpoint(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		p := txPayload(d, "r")
		callerXFDF := `<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><highlight page="0" rect="1,2,3,4" name="mine"/></annots></xfdf>`
		at(p, "documents", 0).(obj)["xfdf"] = callerXFDF
		created, _ := s.create(tenant.Token, p)
		id := created["id"].(string)
		res := s.do(api(http.MethodGet, "/api/v1/transactions/"+id+"/documents/"+d.ID+"/xfdf", tenant.Token, nil)).status(http.StatusOK)
		if res.Header().Get("Content-Type") != "application/vnd.adobe.xfdf" {
			t.Fatalf("content type %q", res.Header().Get("Content-Type"))
		}
		x := res.Body.String()
		if x != at(created, "documents", 0, "xfdf") {
			t.Fatal("the XFDF endpoint and the response's xfdf differ")
		}
		if strings.Count(x, "<square") != 3 || !strings.Contains(x, `name="mine"`) || !strings.Contains(x, `rect="72,100,272,140"`) {
			t.Fatalf("XFDF lacks the tags or the caller's annotation: %s", x)
		}
		// Sending the merged XFDF back does not duplicate the generated annotations.
		at(p, "documents", 0).(obj)["xfdf"] = x
		var replaced obj
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+id, tenant.Token, p)).status(http.StatusCreated).json(&replaced)
		if at(replaced, "documents", 0, "xfdf") != x {
			t.Fatalf("a repeated PUT changed the XFDF:\n%s\n%s", x, at(replaced, "documents", 0, "xfdf"))
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+id+"/documents/unknown/xfdf", tenant.Token, nil)).problem(http.StatusNotFound)
	})
}

func TestListTransactionsFiltersAndPages(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		for i := 0; i < 5; i++ {
			p := txPayload(d, fmt.Sprint("ref-", i%2))
			if i == 4 {
				p["status"] = "esign_pending"
			}
			s.create(tenant.Token, p)
		}
		var page struct {
			Items      []obj  `json:"items"`
			NextCursor string `json:"nextCursor"`
		}
		s.do(api(http.MethodGet, "/api/v1/transactions?limit=2", tenant.Token, nil)).status(http.StatusOK).json(&page)
		seen := map[string]bool{}
		for pages := 0; ; pages++ {
			if len(page.Items) > 2 || pages > 5 {
				t.Fatalf("page too big or too many pages: %d items", len(page.Items))
			}
			for _, it := range page.Items {
				if seen[it["id"].(string)] {
					t.Fatalf("item %v listed twice", it["id"])
				}
				seen[it["id"].(string)] = true
			}
			if page.NextCursor == "" {
				break
			}
			cursor := page.NextCursor
			page.Items, page.NextCursor = nil, ""
			s.do(api(http.MethodGet, "/api/v1/transactions?limit=2&cursor="+cursor, tenant.Token, nil)).status(http.StatusOK).json(&page)
		}
		if len(seen) != 5 {
			t.Fatalf("paging saw %d transactions, want 5", len(seen))
		}
		s.do(api(http.MethodGet, "/api/v1/transactions?status=esign_pending", tenant.Token, nil)).status(http.StatusOK).json(&page)
		if len(page.Items) != 1 {
			t.Fatalf("status filter: %d items", len(page.Items))
		}
		s.do(api(http.MethodGet, "/api/v1/transactions?referenceId=ref-1", tenant.Token, nil)).status(http.StatusOK).json(&page)
		if len(page.Items) != 2 {
			t.Fatalf("referenceId filter: %d items", len(page.Items))
		}
		s.do(api(http.MethodGet, "/api/v1/transactions?status=bogus", tenant.Token, nil)).problem(http.StatusBadRequest)
		s.do(api(http.MethodGet, "/api/v1/transactions?limit=0", tenant.Token, nil)).problem(http.StatusBadRequest)
	})
}

// A transaction that names no invitation subject reads it back as the
// English default, at the top and on each participant, as before the default
// was stored as none; sent back, it stays the default (no subject of its own).
func TestDefaultInviteSubjectReadsInEnglish(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		payload := txPayload(s.upload(tenant.Token), "deal-2")
		delete(payload, "inviteEmailSubject")
		for _, p := range payload["participants"].(arr) {
			delete(p.(obj), "inviteEmailSubject")
		}
		created, _ := s.create(tenant.Token, payload)
		const english = "Please review and sign your documents"
		if created["inviteEmailSubject"] != english || at(created, "participants", 0, "inviteEmailSubject") != english {
			t.Fatalf("inviteEmailSubject = %v / %v", created["inviteEmailSubject"], at(created, "participants", 0, "inviteEmailSubject"))
		}
		stored := func() *string {
			var s *string
			if err := env.DB.DB.Raw("SELECT invite_email_subject FROM transactions WHERE id = ?", created["id"]).Row().Scan(&s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		if s := stored(); s != nil {
			t.Fatalf("stored %q", *s)
		}
		// The read sent back as it is: still the default, not those English words.
		read := s.do(api(http.MethodGet, "/api/v1/transactions/"+created["id"].(string), tenant.Token, nil)).status(http.StatusOK).Body.String()
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+created["id"].(string), tenant.Token, read)).status(http.StatusCreated)
		if s := stored(); s != nil {
			t.Fatalf("the read sent back stored %q", *s)
		}
		// A subject of its own is kept.
		var body obj
		if err := json.Unmarshal([]byte(read), &body); err != nil {
			t.Fatal(err)
		}
		body["inviteEmailSubject"] = "Your lease"
		for _, p := range body["participants"].(arr) {
			delete(p.(obj), "inviteEmailSubject")
		}
		b, _ := json.Marshal(body)
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+created["id"].(string), tenant.Token, string(b))).status(http.StatusCreated)
		if s := stored(); s == nil || *s != "Your lease" {
			t.Fatalf("a subject of its own stored %v", s)
		}
	})
}
