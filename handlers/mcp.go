package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

// mcpServerVersion is the version the MCP server reports at initialization.
const mcpServerVersion = "1.0.0"

// mcpHandler serves the MCP endpoint (route.MCP; docs/decisions.md, "MCP
// server"): the official Go SDK's Streamable HTTP transport, stateless, each
// POST authenticated by requireToken (the API's bearer tokens, rate limits
// and organization checks) before the SDK reads it. Its tools call the same
// store methods and build the same JSON as the API's handlers; a refusal is
// a tool result with isError whose content is the API's problem body.
type mcpHandler struct {
	api     *apiHandler
	limiter *rateLimiter
	log     *slog.Logger
	http    http.Handler
	// toolBodies are the body limits of the tools whose calls may be
	// larger than mcpMessageBytes (mcp_body.go); maxBody is the largest
	// body of any message.
	toolBodies map[string]int64
	maxBody    int64
}

// newMCPHandler builds the MCP server with its tools.
func newMCPHandler(api *apiHandler, limiter *rateLimiter, log *slog.Logger, openAPI []byte) (*mcpHandler, error) {
	schemas, err := newOpenAPISchemas(openAPI)
	if err != nil {
		return nil, err
	}
	m := &mcpHandler{api: api, limiter: limiter, log: log, toolBodies: map[string]int64{}, maxBody: mcpMessageBytes}
	tools, err := m.tools(schemas)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t.maxBody > mcpMessageBytes {
			m.toolBodies[t.name] = t.maxBody
			m.maxBody = max(m.maxBody, t.maxBody)
		}
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "markuproom", Title: "Markup Room", Version: mcpServerVersion},
		&mcp.ServerOptions{Instructions: mcpInstructions})
	for _, t := range tools {
		server.AddTool(t.definition(), m.toolHandler(t))
	}
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       log,
		// A bearer token authenticates every request, so a page that a
		// DNS rebinding points at a loopback listener has nothing to send;
		// behind a reverse proxy on the same host the check would refuse
		// every request (its Host is the public name).
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        m.maxBody,
	})
	verify := func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		c, ok := r.Context().Value(mcpCallerKey{}).(*mcpCaller)
		if !ok {
			return nil, auth.ErrInvalidToken // not reached: requireToken ran first
		}
		return &auth.TokenInfo{UserID: "api-token:" + strconv.FormatInt(c.principal.Token.ID, 10),
			Extra: map[string]any{mcpCallerExtra: c}}, nil
	}
	m.http = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(streamable)
	return m, nil
}

// mcpInstructions tell an agent how the tools fit together.
const mcpInstructions = "Markup Room prepares PDF documents for e-signature. " +
	"Typical flow: upload_document (a PDF as base64) → look at its detectedTags and templateMatches → " +
	"create_markup_room with the document's location (and a templateId from templateMatches or list_templates) → " +
	"give the room's url to the person who places the signature fields. " +
	"A refused call returns isError with an RFC 9457 problem: fix each entry of its errors (pointer, code) and call again."

// mcpCaller is who calls a tool: the token's principal, the client's
// address and the HTTP request's id.
type mcpCaller struct {
	principal *models.Principal
	address   string
	requestID string
	// upload is the file of an upload_document call, decoded from the body
	// as it was read (nil for any other call).
	upload *mcpUpload
}

// historyActor is the caller as the history names it: its token, by MCP.
func (c *mcpCaller) historyActor() models.Actor {
	a := c.principal.Actor()
	a.Via = "mcp"
	return a
}

type mcpCallerKey struct{}

// mcpCallerExtra is the key of the caller in the SDK's TokenInfo.Extra.
const mcpCallerExtra = "markuproom.caller"

// serve hands an authenticated POST to the SDK, its body read only as far
// as its method allows (readBody), with the caller in the request's context
// for the token check the SDK runs (verify above). A JSON-RPC batch (older protocol versions allow them) is refused: each
// message must be a request of its own, counted by the rate limit.
func (m *mcpHandler) serve(c *gin.Context) error {
	body, upload, err := m.readBody(c.Request, c.Writer)
	if err != nil {
		return err
	}
	defer upload.close()
	c.Request.Body = io.NopCloser(bytes.NewReader(body))
	caller := &mcpCaller{principal: principalFrom(c), address: c.ClientIP(), requestID: requestIDFrom(c), upload: upload}
	c.Header("Cache-Control", "no-store")
	m.http.ServeHTTP(c.Writer, c.Request.WithContext(context.WithValue(c.Request.Context(), mcpCallerKey{}, caller)))
	return nil
}

// callerOf reads the caller of a tool call.
func callerOf(req *mcp.CallToolRequest) (*mcpCaller, bool) {
	if req.Extra == nil || req.Extra.TokenInfo == nil {
		return nil, false
	}
	c, ok := req.Extra.TokenInfo.Extra[mcpCallerExtra].(*mcpCaller)
	return c, ok
}

// toolHandler runs a tool for its caller, under the caller's audit actor
// (via "mcp"), and turns its answer or refusal into the tool's result.
func (m *mcpHandler) toolHandler(t mcpTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		caller, ok := callerOf(req)
		if !ok {
			return nil, errors.New("the call carries no authenticated caller")
		}
		p := caller.principal
		ctx = models.WithAuditActor(ctx, p.AuditActor("mcp", caller.address))
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		out, err := t.run(ctx, caller, args)
		if err != nil {
			return m.refusal(ctx, caller, t, err), nil
		}
		body, err := json.Marshal(out)
		if err != nil {
			return m.refusal(ctx, caller, t, err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(body)}},
			StructuredContent: json.RawMessage(body)}, nil
	}
}

// refusal is a refused call's result: isError, and as its content the
// problem body the API's route answers for err (problemFromError), its
// pointers moved into the tool's arguments where they differ (t.pointer).
func (m *mcpHandler) refusal(ctx context.Context, caller *mcpCaller, t mcpTool, err error) *mcp.CallToolResult {
	p := problemFromError(err)
	p.Instance = route.MCP.String() + "#" + t.name
	p.RequestID = caller.requestID
	if t.pointer != nil {
		for i := range p.Errors {
			p.Errors[i].Pointer = t.pointer(p.Errors[i].Pointer)
		}
	}
	if p.Status >= http.StatusInternalServerError {
		m.log.Log(ctx, statusLogLevel(p.Status), "MCP tool failed", "tool", t.name, "error", err.Error(),
			"status", p.Status, "request_id", caller.requestID)
	}
	body, mErr := json.Marshal(p)
	if mErr != nil {
		body = []byte(`{"type":"/problems/internal","title":"Internal server error","status":500,"errors":[]}`)
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}
}

// queryPointers moves a list filter's pointer ("query:status", the API's)
// to the tool's argument ("#/status").
func queryPointers(ptr string) string {
	if name, ok := strings.CutPrefix(ptr, "query:"); ok {
		return "#/" + name
	}
	return ptr
}
