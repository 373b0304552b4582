package handlers_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
)

// corpusPDF reads a real PDF of the repository's test corpus.
func corpusPDF(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "models", "pdf", "testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bearer adds an API token to every request of the MCP client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// agent is an MCP client session (the SDK's own client over HTTP) on the
// test server, with the tools' schemas read once.
type agent struct {
	t       *testing.T
	session *mcp.ClientSession
	outputs map[string]*jsonschema.Resolved
}

// mcpURL serves the router over HTTP for the test and returns /mcp's URL.
func (s *server) mcpURL() string {
	ts := httptest.NewServer(s.handler)
	s.t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// connectAgent connects an MCP client with token; the error is the SDK's.
func connectAgent(t *testing.T, url, token string) (*agent, error) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "markuproom-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &agent{t: t, session: cs}, nil
}

func mustConnect(t *testing.T, url, token string) *agent {
	t.Helper()
	a, err := connectAgent(t, url, token)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return a
}

// call calls a tool and fails the test on a protocol error.
func (a *agent) call(name string, args any) *mcp.CallToolResult {
	a.t.Helper()
	res, err := a.session.CallTool(a.t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed, checks its structured answer against
// the tool's output schema and decodes it into out.
func (a *agent) ok(name string, args, out any) {
	a.t.Helper()
	res := a.call(name, args)
	if res.IsError {
		a.t.Fatalf("%s refused: %s", name, text(a.t, res))
	}
	a.decodeAs(name, res, out)
}

// decodeAs checks a tool's structured answer against the tool's output
// schema and decodes it into out (when not nil).
func (a *agent) decodeAs(name string, res *mcp.CallToolResult, out any) {
	a.t.Helper()
	body, err := json.Marshal(res.StructuredContent)
	if err != nil {
		a.t.Fatal(err)
	}
	if text(a.t, res) != string(body) && !json.Valid([]byte(text(a.t, res))) {
		a.t.Fatalf("%s: text content is not the JSON answer", name)
	}
	if a.outputs == nil {
		a.readSchemas()
	}
	var v any
	_ = json.Unmarshal(body, &v)
	if err := a.outputs[name].Validate(v); err != nil {
		a.t.Fatalf("%s: the answer does not match the output schema: %v\n%s", name, err, truncate(string(body)))
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			a.t.Fatalf("%s: decode %s: %v", name, truncate(string(body)), err)
		}
	}
}

// refused calls a tool that must be refused with status and returns the
// problem its content carries.
func (a *agent) refused(name string, args any, status int) handlers.Problem {
	a.t.Helper()
	res := a.call(name, args)
	if !res.IsError {
		a.t.Fatalf("%s answered %s, want a refusal %d", name, truncate(text(a.t, res)), status)
	}
	p := a.problem(name, res)
	if p.Status != status {
		a.t.Fatalf("%s: problem = %+v, want status %d", name, p, status)
	}
	return p
}

// problem is the whole problem a tool's refusal carries.
func (a *agent) problem(name string, res *mcp.CallToolResult) handlers.Problem {
	a.t.Helper()
	var p handlers.Problem
	if err := json.Unmarshal([]byte(text(a.t, res)), &p); err != nil {
		a.t.Fatalf("%s: the refusal is not a problem: %s", name, text(a.t, res))
	}
	if p.Type == "" || p.Title == "" || p.RequestID == "" || p.Errors == nil || p.Instance != "/mcp#"+name {
		a.t.Fatalf("%s: problem = %+v, want a whole problem", name, p)
	}
	return p
}

func (a *agent) readSchemas() {
	a.t.Helper()
	a.outputs = map[string]*jsonschema.Resolved{}
	for tool, err := range a.session.Tools(a.t.Context(), nil) {
		if err != nil {
			a.t.Fatal(err)
		}
		var s jsonschema.Schema
		b, _ := json.Marshal(tool.OutputSchema)
		if err := json.Unmarshal(b, &s); err != nil {
			a.t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			a.t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
		}
		a.outputs[tool.Name] = r
	}
}

// text is a result's one text content.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content has %d parts, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// pdfArgs are upload_document's arguments for content.
func pdfArgs(name string, content []byte) obj {
	return obj{"filename": name, "content_base64": base64.StdEncoding.EncodeToString(content)}
}

// mcpTemplate is a template of one document (the uploaded lease) with
// two roles and one signature field, created through the API.
func mcpTemplate(location string) obj {
	return obj{
		"name": "Lease", "documents": arr{obj{"document": location}},
		"roles": arr{obj{"name": "Tenant"}, obj{"name": "Landlord"}},
		"tags": arr{obj{"type": "SIGNATURETEMPLATE", "x": 72, "y": 100, "width": 200, "height": 40, "role": "Tenant",
			"document": 0, "page": 1, "customData": obj{}}},
	}
}

func TestMCPListsToolsWithSchemas(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		a := mustConnect(t, s.mcpURL(), tenant.Token)
		init := a.session.InitializeResult()
		if init.ServerInfo.Name != "markuproom" || init.Instructions == "" || init.Capabilities.Tools == nil {
			t.Fatalf("initialize = %+v", init)
		}
		want := map[string][]string{ // each tool's required arguments
			"upload_document":    {"filename", "content_base64"},
			"get_detected_tags":  {"id"},
			"create_markup_room": {"senderId"},
			"get_transaction":    {"id"},
			"review_transaction": {"id"},
			"list_transactions":  nil,
			"update_transaction": {"documents", "participants", "status", "referenceId", "id"},
			"list_templates":     nil,
			"get_markup_room":    {"id"},
			"revise_document":    {"transactionId", "documentId", "revisedDocumentId"},
		}
		seen := map[string]bool{}
		for tool, err := range a.session.Tools(t.Context(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			seen[tool.Name] = true
			required, known := want[tool.Name]
			if !known {
				t.Errorf("unexpected tool %s", tool.Name)
				continue
			}
			var in, out struct {
				Type       string                    `json:"type"`
				Required   []string                  `json:"required"`
				Properties map[string]map[string]any `json:"properties"`
			}
			ib, _ := json.Marshal(tool.InputSchema)
			ob, _ := json.Marshal(tool.OutputSchema)
			if json.Unmarshal(ib, &in) != nil || json.Unmarshal(ob, &out) != nil {
				t.Fatalf("%s: schemas do not decode", tool.Name)
			}
			if in.Type != "object" || out.Type != "object" || len(out.Properties) == 0 || len(tool.Description) < 80 || tool.Annotations == nil {
				t.Errorf("%s: input %s, output %s, description %q", tool.Name, ib, truncate(string(ob)), tool.Description)
			}
			if !slices.Equal(in.Required, required) && !(len(required) == 0 && len(in.Required) == 0) {
				t.Errorf("%s: required %v, want %v", tool.Name, in.Required, required)
			}
			for name, p := range in.Properties {
				if p["description"] == nil && p["type"] != "object" && p["type"] != "array" && p["$ref"] == nil && p["oneOf"] == nil {
					// The API's body schemas describe what needs words; every argument of the tools' own types has them.
					if !strings.Contains(tool.Name, "transaction") || tool.Name == "get_transaction" || tool.Name == "list_transactions" {
						t.Errorf("%s: argument %s has no description", tool.Name, name)
					}
				}
			}
			if strings.Contains(string(ib), "#/components/") || strings.Contains(string(ob), "#/components/") {
				t.Errorf("%s: a schema still refers to the OpenAPI document", tool.Name)
			}
		}
		if len(seen) != len(want) {
			t.Fatalf("tools = %v, want %v", seen, want)
		}
	})
}

func TestMCPPreparesADocumentEndToEnd(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		a := mustConnect(t, s.mcpURL(), tenant.Token)
		lease := corpusPDF(t, "lease-initials.pdf")

		var doc struct {
			ID, Location, Title string
			Pages               int
			DetectedTags        *int  `json:"detectedTags"`
			TemplateMatches     []obj `json:"templateMatches"`
		}
		a.ok("upload_document", pdfArgs("lease-initials.pdf", lease), &doc)
		if doc.Title != "lease-initials" || doc.Pages < 1 || doc.DetectedTags == nil || *doc.DetectedTags == 0 || doc.TemplateMatches == nil {
			t.Fatalf("upload = %+v", doc)
		}
		var rest obj
		s.do(api(http.MethodGet, "/api/v1/documents/"+doc.ID, tenant.Token, nil)).status(http.StatusOK).json(&rest)
		if rest["location"] != doc.Location || rest["sha256"] == "" {
			t.Fatalf("the API reads %v", rest)
		}
		var detected struct{ Tags, Problems []obj }
		a.ok("get_detected_tags", obj{"id": doc.ID}, &detected)
		if len(detected.Tags) != *doc.DetectedTags || detected.Problems == nil {
			t.Fatalf("detected = %+v, want %d tags", detected, *doc.DetectedTags)
		}

		tmpl, _ := s.createTemplate(tenant.Token, mcpTemplate(doc.Location))
		var again struct {
			ID              string
			TemplateMatches []struct {
				TemplateID string  `json:"templateId"`
				Score      float64 `json:"score"`
			} `json:"templateMatches"`
		}
		args := pdfArgs("lease.pdf", lease)
		args["title"] = "Lease for 12 Elm Street"
		a.ok("upload_document", args, &again)
		if len(again.TemplateMatches) != 1 || again.TemplateMatches[0].TemplateID != tmpl["id"] || again.TemplateMatches[0].Score < 0.95 {
			t.Fatalf("the second upload matches %+v, want template %v", again.TemplateMatches, tmpl["id"])
		}
		var templates struct{ Items []obj }
		a.ok("list_templates", obj{"q": "lea", "limit": 10}, &templates)
		if len(templates.Items) != 1 || templates.Items[0]["id"] != tmpl["id"] || templates.Items[0]["tags"] != float64(1) {
			t.Fatalf("templates = %v", templates.Items)
		}

		body := obj{
			"senderId": strconv.FormatInt(tenant.Sender.ID, 10), "documents": arr{doc.Location}, "templateId": tmpl["id"],
			"participants": arr{obj{"firstName": "Pat", "lastName": "Tenant", "email": "pat@example.com"}},
		}
		var room struct{ ID, URL, TransactionID, Status string }
		a.ok("create_markup_room", body, &room)
		if !strings.HasPrefix(room.URL, testBaseURL+"/markup-room/") || room.ID == "" || room.TransactionID == "" || room.Status != "open" {
			t.Fatalf("room = %+v", room)
		}
		var read obj
		a.ok("get_markup_room", obj{"id": room.ID}, &read)
		if read["transactionId"] != room.TransactionID || read["url"] != nil || read["status"] != "open" {
			t.Fatalf("get_markup_room = %v", read)
		}
		var restRoom obj
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+room.ID, tenant.Token, nil)).status(http.StatusOK).json(&restRoom)
		if !reflect.DeepEqual(restRoom, read) {
			t.Fatalf("the tool answers %v, the API %v", read, restRoom)
		}

		var tx obj
		a.ok("get_transaction", obj{"id": room.TransactionID}, &tx)
		tags := at(tx, "documents", 0, "tags").([]any)
		pat := at(tx, "participants", 0, "id")
		placed := false
		for _, tag := range tags {
			placed = placed || (at(tag, "type") == "SIGNATURETEMPLATE" && at(tag, "signerId") == pat && at(tag, "x") == float64(72))
		}
		if !placed {
			t.Fatalf("the template's tag is not on the document: %v", tags)
		}
		var restTx obj
		s.do(api(http.MethodGet, "/api/v1/transactions/"+room.TransactionID, tenant.Token, nil)).status(http.StatusOK).json(&restTx)
		if !reflect.DeepEqual(restTx, tx) {
			t.Fatalf("the tool answers %v, the API %v", tx, restTx)
		}

		var list struct {
			Items      []obj
			NextCursor string
		}
		a.ok("list_transactions", obj{"status": "draft", "limit": 1}, &list)
		if len(list.Items) != 1 || list.Items[0]["id"] != room.TransactionID || list.NextCursor != "" {
			t.Fatalf("list = %+v", list)
		}

		// update_transaction: what get_transaction read, changed, sent back.
		update := clone(tx)
		update["referenceId"] = "lease-12-elm"
		update["ifVersion"] = tx["version"]
		var updated obj
		a.ok("update_transaction", update, &updated)
		if updated["referenceId"] != "lease-12-elm" || updated["version"] != tx["version"].(float64)+1 ||
			len(at(updated, "documents", 0, "tags").([]any)) != len(tags) {
			t.Fatalf("updated = %v", updated)
		}
		// Its answer carries the pre-send check, as operation A's does.
		if _, ok := updated["review"].([]any); !ok {
			t.Fatalf("update_transaction answered no review: %v", updated)
		}
		a.ok("list_transactions", obj{"referenceId": "lease-12-elm"}, &list)
		if len(list.Items) != 1 {
			t.Fatalf("by referenceId: %+v", list)
		}
		// The version read before is stale now: 412.
		update["referenceId"] = "lost update"
		a.refused("update_transaction", update, http.StatusPreconditionFailed)
	})
}
