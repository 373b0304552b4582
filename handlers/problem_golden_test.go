package handlers_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// goldenProblems is the file of the API's English refusals: their type,
// title, detail and field errors, byte for byte (docs/words.md).
var goldenProblems = filepath.Join("testdata", "problems_en.golden.json")

// goldenProblem is what the golden file keeps of a problem: all of it but
// the request id (new each time).
type goldenProblem struct {
	Type   string     `json:"type"`
	Title  string     `json:"title"`
	Status int        `json:"status"`
	Detail string     `json:"detail,omitempty"`
	Errors [][]string `json:"errors"`
}

// TestEnglishProblemsAreGolden: the words of the API's refusals, made by
// the problem writer from the catalogs with each problem's arguments, are
// the English sentences the API always wrote (testdata/problems_en.golden.json;
// UPDATE_GOLDEN=1 rewrites it, which a change of words must never need).
func TestEnglishProblemsAreGolden(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		got := map[string]goldenProblem{}
		record := func(name string, req *http.Request, status int) {
			t.Helper()
			p := s.do(req).problem(status)
			g := goldenProblem{Type: p.Type, Title: p.Title, Status: p.Status, Detail: p.Detail, Errors: [][]string{}}
			for _, f := range p.Errors {
				g.Errors = append(g.Errors, []string{f.Pointer, f.Code, f.Detail})
			}
			got[name] = g
		}

		// Operation A with a wrong type, an unknown field, a bad e-mail and enum.
		bad := clone(txPayload(d, "golden-1"))
		bad["signingOrder"] = "yes"
		bad["colour"] = "blue"
		at(bad, "documents", 0).(obj)["pages"] = "three"
		at(bad, "participants", 0).(obj)["email"] = "pat(at)example.com"
		at(bad, "participants", 1).(obj)["authenticationType"] = "retina"
		at(bad, "participants", 1).(obj)["firstName"] = "   "
		tag := at(bad, "documents", 0).(obj)["tags"].(arr)[0].(obj)
		tag["x"] = "left"
		tag["width"] = -3
		record("transaction_invalid", jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, bad), http.StatusBadRequest)

		// Operation A that names pages, signers and uploads that are not there.
		un := clone(txPayload(d, "golden-2"))
		tags := at(un, "documents", 0).(obj)["tags"].(arr)
		tags[0].(obj)["page"] = 5
		tags[1].(obj)["signerId"] = "ghost"
		tags[2].(obj)["x"] = 600
		at(un, "documents", 0).(obj)["pages"] = 4
		record("transaction_unprocessable", jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, un), http.StatusUnprocessableEntity)
		unknown := clone(txPayload(d, "golden-3"))
		at(unknown, "documents", 0).(obj)["gcsRefId"] = "gs://nowhere/x.pdf"
		delete(at(unknown, "documents", 0).(obj), "id")
		record("transaction_unknown_document", jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, unknown), http.StatusUnprocessableEntity)

		// Bodies that are not JSON objects.
		record("transaction_not_json", jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, `{"status":`), http.StatusBadRequest)
		record("transaction_empty", jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, ``), http.StatusBadRequest)
		record("transaction_array", jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, `[]`), http.StatusBadRequest)
		plain := api(http.MethodPost, "/api/v1/transactions", tenant.Token, strings.NewReader(`{}`))
		plain.Header.Set("Content-Type", "text/plain")
		record("transaction_media_type", plain, http.StatusUnsupportedMediaType)

		// Operation B.
		room := roomBody(tenant, d)
		room["documents"] = arr{"not-a-location", 7}
		at(room, "participants", 0).(obj)["email"] = "pat(at)example.com"
		at(room, "participants", 1).(obj)["email"] = "PAT(at)example.com"
		room["locale"] = "xx"
		record("room_invalid", jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, room), http.StatusBadRequest)
		room = roomBody(tenant, d)
		room["documents"] = arr{"/api/v1/documents/doc_nowhere"}
		record("room_unknown_document", jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, room), http.StatusUnprocessableEntity)

		// Templates.
		tp := templatePayload(d)
		tp["roles"] = arr{obj{"name": "Buyer"}, obj{"name": "Buyer"}}
		tpTags := tp["tags"].(arr)
		tpTags[0].(obj)["role"] = "Nobody"
		tpTags[1].(obj)["document"] = 5
		tpTags[0].(obj)["page"] = 9
		record("template_unprocessable", jsonReq(http.MethodPost, "/api/v1/templates", tenant.Token, tp), http.StatusUnprocessableEntity)

		// Webhooks.
		record("webhook_invalid", jsonReq(http.MethodPost, "/api/v1/webhooks", tenant.Token, obj{"url": "ftp://example.com/x", "events": arr{"nope", "nope"}}), http.StatusBadRequest)

		// Query parameters.
		record("list_limit", api(http.MethodGet, "/api/v1/transactions?limit=0", tenant.Token, nil), http.StatusBadRequest)
		record("list_status", api(http.MethodGet, "/api/v1/transactions?status=signed", tenant.Token, nil), http.StatusBadRequest)
		record("list_cursor", api(http.MethodGet, "/api/v1/transactions?cursor=zzz", tenant.Token, nil), http.StatusBadRequest)
		record("audit_since", api(http.MethodGet, "/api/v1/audit-events?since=yesterday", tenant.Token, nil), http.StatusBadRequest)
		record("audit_limit", api(http.MethodGet, "/api/v1/audit-events?limit=5000", tenant.Token, nil), http.StatusBadRequest)

		// Uploads.
		record("upload_not_pdf", uploadReq(tenant.Token, "notes.txt", []byte("hello, not a PDF"), ""), http.StatusUnprocessableEntity)
		record("upload_empty", uploadReq(tenant.Token, "empty.pdf", nil, ""), http.StatusUnprocessableEntity)

		// Credentials, addresses, records.
		record("no_token", api(http.MethodGet, "/api/v1/transactions", "", nil), http.StatusUnauthorized)
		record("unknown_token", api(http.MethodGet, "/api/v1/transactions", "mr_nope", nil), http.StatusUnauthorized)
		record("no_such_transaction", api(http.MethodGet, "/api/v1/transactions/tx_nowhere", tenant.Token, nil), http.StatusNotFound)
		record("no_such_address", api(http.MethodGet, "/api/v1/nothing-here", tenant.Token, nil), http.StatusNotFound)
		idem := jsonReq(http.MethodPost, "/api/v1/transactions", tenant.Token, txPayload(d, "golden-4"))
		idem.Header.Set("Idempotency-Key", strings.Repeat("k", 300))
		record("idempotency_key", idem, http.StatusBadRequest)

		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
		if os.Getenv("UPDATE_GOLDEN") != "" {
			if err := os.WriteFile(goldenProblems, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(goldenProblems)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != string(b) {
			var wantMap map[string]goldenProblem
			_ = json.Unmarshal(want, &wantMap)
			for name, g := range got {
				gb, _ := json.Marshal(g)
				wb, _ := json.Marshal(wantMap[name])
				if string(gb) != string(wb) {
					t.Errorf("%s:\n got  %s\n want %s", name, gb, wb)
				}
			}
			t.Fatalf("the English problems differ from %s", goldenProblems)
		}
	})
}
