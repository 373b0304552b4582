package handlers_test

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// sameProblem fails unless the tool's problem is the API route's: status,
// type, title, detail and every field error with its pointer and code.
func sameProblem(t *testing.T, tool, rest handlers.Problem) {
	t.Helper()
	if tool.Status != rest.Status || tool.Type != rest.Type || tool.Title != rest.Title || tool.Detail != rest.Detail ||
		describeErrors(tool.Errors) != describeErrors(rest.Errors) {
		t.Fatalf("the tool's problem differs from the API's:\ntool %+v%s\napi  %+v%s", tool, describeErrors(tool.Errors), rest, describeErrors(rest.Errors))
	}
}

func TestMCPRefusalsCarryTheAPIProblems(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		a := mustConnect(t, s.mcpURL(), tenant.Token)
		d := s.upload(tenant.Token)

		// 400: every problem of the body, with its pointer and code.
		bad := roomBody(tenant, d)
		bad["participants"] = arr{obj{"firstName": "Pat", "lastName": "Buyer"}, obj{"firstName": 7, "lastName": "Seller", "email": "nope"}}
		bad["colour"] = "red"
		p := a.refused("create_markup_room", bad, http.StatusBadRequest)
		hasError(t, p, "#/participants/0/email", "required")
		hasError(t, p, "#/colour", "unknown_field")
		sameProblem(t, p, s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, bad)).problem(http.StatusBadRequest))

		// 422: a reference the organization does not have.
		unknown := roomBody(tenant, d)
		unknown["templateId"] = uuid.NewString()
		p = a.refused("create_markup_room", unknown, http.StatusUnprocessableEntity)
		hasError(t, p, "#/templateId", "unknown_template")
		sameProblem(t, p, s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, unknown)).problem(http.StatusUnprocessableEntity))

		// update_transaction: the API's problems of operation A, pointers unchanged.
		var room roomResp
		a.ok("create_markup_room", roomBody(tenant, d), &room)
		var tx obj
		a.ok("get_transaction", obj{"id": room.TransactionID}, &tx)
		replace := clone(tx)
		tags := at(replace, "documents", 0, "tags").([]any)
		replace["documents"].([]any)[0].(obj)["tags"] = append(tags, obj{"type": "SIGNATURETEMPLATE", "x": 10, "y": 10,
			"width": 100, "height": 30, "page": 9, "signerId": "nobody", "customData": obj{}})
		p = a.refused("update_transaction", replace, http.StatusUnprocessableEntity)
		sameProblem(t, p, s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+room.TransactionID, tenant.Token, replace)).problem(http.StatusUnprocessableEntity))
		delete(replace, "id")
		hasError(t, a.refused("update_transaction", replace, http.StatusBadRequest), "#/id", "required")
		replace = clone(tx)
		replace["ifVersion"] = "two"
		hasError(t, a.refused("update_transaction", replace, http.StatusBadRequest), "#/ifVersion", "invalid_type")

		// The list filters and plain arguments: pointers into the arguments.
		p = a.refused("list_transactions", obj{"status": "signed", "cursor": "not-a-cursor", "limit": 1000, "page": 2}, http.StatusBadRequest)
		hasError(t, p, "#/page", "unknown_field")
		p = a.refused("list_transactions", obj{"status": "signed", "cursor": "not-a-cursor", "limit": 1000}, http.StatusBadRequest)
		hasError(t, p, "#/status", "invalid_enum")
		hasError(t, p, "#/cursor", "invalid_cursor")
		hasError(t, p, "#/limit", "out_of_range")
		hasError(t, a.refused("list_templates", obj{"q": strings.Repeat("x", 300)}, http.StatusBadRequest), "#/q", "too_long")
		hasError(t, a.refused("get_transaction", obj{"id": 7}, http.StatusBadRequest), "#/id", "invalid_type")
		hasError(t, a.refused("get_transaction", obj{}, http.StatusBadRequest), "#/id", "required")
		hasError(t, a.refused("get_markup_room", obj{"id": "a\x00b"}, http.StatusBadRequest), "#/id", "invalid_encoding")

		// Not found: an id nobody has, and one that cannot be an id.
		for _, tool := range []string{"get_transaction", "get_markup_room", "get_detected_tags"} {
			a.refused(tool, obj{"id": uuid.NewString()}, http.StatusNotFound)
			a.refused(tool, obj{"id": "../etc"}, http.StatusNotFound)
		}

		// Uploads: arguments, base64 and the PDF checks, at #/content_base64.
		hasError(t, a.refused("upload_document", obj{"content_base64": "JVBERi0="}, http.StatusBadRequest), "#/filename", "required")
		hasError(t, a.refused("upload_document", obj{"filename": "a.pdf", "content_base64": "JVBE*i0x"}, http.StatusBadRequest), "#/content_base64", "invalid_base64")
		p = a.refused("upload_document", pdfArgs("notes.pdf", []byte("just some text, no PDF at all")), http.StatusUnprocessableEntity)
		hasError(t, p, "#/content_base64", "not_pdf")
		hasError(t, a.refused("upload_document", pdfArgs("empty.pdf", nil), http.StatusBadRequest), "#/content_base64", "required")
	})
}

func TestMCPKeepsOrganizationsApart(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other")
		url := s.mcpURL()
		a, b := mustConnect(t, url, acme.Token), mustConnect(t, url, other.Token)
		d := s.upload(acme.Token)
		var room roomResp
		a.ok("create_markup_room", roomBody(acme, d), &room)
		var tx obj
		a.ok("get_transaction", obj{"id": room.TransactionID}, &tx)

		b.refused("get_transaction", obj{"id": room.TransactionID}, http.StatusNotFound)
		b.refused("get_markup_room", obj{"id": room.ID}, http.StatusNotFound)
		b.refused("get_detected_tags", obj{"id": d.ID}, http.StatusNotFound)
		update := clone(tx)
		update["referenceId"] = "taken over"
		b.refused("update_transaction", update, http.StatusNotFound)
		// Acme's document is not Other's to use: the API's 422, at the same pointer.
		body := roomBody(other, d)
		p := b.refused("create_markup_room", body, http.StatusUnprocessableEntity)
		hasError(t, p, "#/documents/0", "unknown_document")
		sameProblem(t, p, s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", other.Token, body)).problem(http.StatusUnprocessableEntity))
		var list struct{ Items []obj }
		b.ok("list_transactions", obj{}, &list)
		if len(list.Items) != 0 {
			t.Fatalf("Other lists Acme's transactions: %v", list.Items)
		}
		a.ok("get_transaction", obj{"id": room.TransactionID}, &tx)
		if tx["referenceId"] == "taken over" {
			t.Fatal("Other replaced Acme's transaction")
		}
	})
}

func TestMCPRefusesLargeUploadsBeforeDecoding(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withMaxUpload(20_000))
		tenant := env.NewTenant(t, "Acme")
		a := mustConnect(t, s.mcpURL(), tenant.Token)
		a.ok("upload_document", pdfArgs("lease.pdf", corpusPDF(t, "lease-initials.pdf")), nil)
		big := corpusPDF(t, "long-contract.pdf")
		p := a.refused("upload_document", pdfArgs("long.pdf", big), http.StatusRequestEntityTooLarge)
		hasError(t, p, "#/content_base64", "file_too_large")
		if !strings.Contains(p.Errors[0].Detail, strconv.Itoa(len(big))) {
			t.Fatalf("detail %q does not name the decoded size %d", p.Errors[0].Detail, len(big))
		}
		// Text that is not even base64 is refused for its size first: nothing is decoded.
		hasError(t, a.refused("upload_document", obj{"filename": "x.pdf", "content_base64": strings.Repeat("*", 40_000)},
			http.StatusRequestEntityTooLarge), "#/content_base64", "file_too_large")
	})
}

// postMCP sends one JSON-RPC message to /mcp as a client would.
func (s *server) postMCP(token, body string) *response {
	req := api(http.MethodPost, "/mcp", token, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return s.do(req)
}

const mcpToolsList = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

func TestMCPRefusesBadTokensBeforeAnyTool(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		url := s.mcpURL()
		a := mustConnect(t, url, tenant.Token)
		_, second, err := env.Store.CreateAPIToken(t.Context(), tenant.Org.ID, "second")
		if err != nil {
			t.Fatal(err)
		}
		d := s.upload(tenant.Token)

		if err := env.Store.RevokeAPIToken(t.Context(), tenant.TokenID); err != nil {
			t.Fatal(err)
		}
		if _, err := a.session.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_markup_room", Arguments: roomBody(tenant, d)}); err == nil ||
			!strings.Contains(err.Error(), http.StatusText(http.StatusUnauthorized)) {
			t.Fatalf("a revoked token's call: %v, want an HTTP 401", err)
		}
		var list struct{ Items []obj }
		mustConnect(t, url, second).ok("list_transactions", obj{}, &list)
		if len(list.Items) != 0 {
			t.Fatalf("the revoked token's call ran: %v", list.Items)
		}
		if _, err := connectAgent(t, url, tenant.Token); err == nil {
			t.Fatal("a revoked token connected")
		}
		res := s.postMCP(tenant.Token, mcpToolsList)
		p := res.problem(http.StatusUnauthorized)
		if !strings.Contains(p.Detail, "revoked") || !strings.Contains(res.Header().Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Fatalf("revoked: %+v, WWW-Authenticate %q", p, res.Header().Get("WWW-Authenticate"))
		}
		s.postMCP("", mcpToolsList).problem(http.StatusUnauthorized)
		hasError(t, s.postMCP(second, "["+mcpToolsList+","+mcpToolsList+"]").problem(http.StatusBadRequest), "#", "batch_not_supported")

		// An organization whose API access is off is refused as the API refuses it.
		if err := env.Store.SetOrganizationAPIEnabled(t.Context(), tenant.Org.ID, false); err != nil {
			t.Fatal(err)
		}
		p = s.postMCP(second, mcpToolsList).problem(http.StatusUnauthorized)
		if want := s.do(api(http.MethodGet, "/api/v1/transactions", second, nil)).problem(http.StatusUnauthorized); p.Detail != want.Detail {
			t.Fatalf("API access off: %q, the API says %q", p.Detail, want.Detail)
		}
	})
}

func TestMCPIsRateLimitedAsTheAPI(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withRateLimits(handlers.RateLimits{API: models.RateLimit{PerSecond: 0.01, Burst: 4}, UploadsPerMinute: 1}))
		tenant := env.NewTenant(t, "Acme")
		a := mustConnect(t, s.mcpURL(), tenant.Token) // initialize and its notification: 2 requests
		lease := corpusPDF(t, "lease-initials.pdf")
		if res := a.call("upload_document", pdfArgs("lease.pdf", lease)); res.IsError { // 3
			t.Fatalf("the first upload: %s", text(t, res))
		}
		p := a.refused("upload_document", pdfArgs("lease.pdf", lease), http.StatusTooManyRequests)
		hasError(t, p, "", "rate_limited")
		if !strings.Contains(p.Detail, "Too many uploads") {
			t.Fatalf("upload refusal: %q", p.Detail)
		}
		// The burst of 4 is spent by now or within a call or two (how many
		// requests a connection takes is the SDK's business): then the HTTP
		// request is refused before the SDK reads it.
		var err error
		for i := 0; i < 3 && err == nil; i++ {
			_, err = a.session.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_templates"})
		}
		if err == nil || !strings.Contains(err.Error(), http.StatusText(http.StatusTooManyRequests)) {
			t.Fatalf("over the token's limit: %v, want an HTTP 429", err)
		}
		res := s.postMCP(tenant.Token, mcpToolsList)
		hasError(t, res.problem(http.StatusTooManyRequests), "", "rate_limited")
		if res.Header().Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
	})
}

// actorRecorder is the real store, noting the audit actor in the context
// of each change a tool makes.
type actorRecorder struct {
	handlers.Store
	mu     sync.Mutex
	actors map[string]models.AuditActor
}

func (r *actorRecorder) note(ctx context.Context, op string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.actors[op] = models.AuditActorFrom(ctx)
}

func (r *actorRecorder) SaveDocument(ctx context.Context, u *models.StagedUpload, in models.NewDocument) (*models.Document, error) {
	r.note(ctx, "SaveDocument")
	return r.Store.SaveDocument(ctx, u, in)
}

func (r *actorRecorder) CreateRoom(ctx context.Context, actor models.Actor, in *models.RoomInput) (*models.CreatedRoom, error) {
	r.note(ctx, "CreateRoom")
	return r.Store.CreateRoom(ctx, actor, in)
}

func (r *actorRecorder) ReplaceTransaction(ctx context.Context, actor models.Actor, id string, in *models.TransactionInput, ifMatch string) (*models.Transaction, error) {
	r.note(ctx, "ReplaceTransaction")
	return r.Store.ReplaceTransaction(ctx, actor, id, in, ifMatch)
}

func TestMCPChangesNameTheTokenViaMCP(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		rec := &actorRecorder{actors: map[string]models.AuditActor{}}
		s := newServer(t, env, withStore(func(st handlers.Store) handlers.Store { rec.Store = st; return rec }))
		tenant := env.NewTenant(t, "Acme")
		a := mustConnect(t, s.mcpURL(), tenant.Token)
		var doc uploadedDoc
		a.ok("upload_document", pdfArgs("lease.pdf", corpusPDF(t, "lease-initials.pdf")), &doc)
		var room roomResp
		a.ok("create_markup_room", roomBody(tenant, doc), &room)
		var tx obj
		a.ok("get_transaction", obj{"id": room.TransactionID}, &tx)
		a.ok("update_transaction", tx, nil)
		want := models.AuditActor{Kind: models.AuditActorAPIToken, ID: strconv.FormatInt(tenant.TokenID, 10), Name: "test", Via: "mcp", Address: "127.0.0.1"}
		for _, op := range []string{"SaveDocument", "CreateRoom", "ReplaceTransaction"} {
			if got := rec.actors[op]; got != want {
				t.Errorf("%s ran as %+v, want %+v", op, got, want)
			}
		}
	})
}
