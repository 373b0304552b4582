package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/markuproom/markuproom/models"
)

// A message to /mcp is read only as far as its method needs
// (docs/decisions.md, "MCP server", its bodies): an upload_document call may carry the
// base64 text of a file at the upload limit, the tools that carry an
// operation's body (create_markup_room, update_transaction) the API's JSON
// limit, and every other message — ping, initialize, tools/list, the reads
// — mcpMessageBytes. The method and the tool's name are read from the first
// mcpMessageBytes of the body with a bounded decoder before the rest is
// read, so a huge body of a small method costs one megabyte, not its size.

// mcpMessageBytes is the largest body of a message that carries no upload
// and no operation's body, and how much of any body is read before its
// method is known.
const mcpMessageBytes int64 = 1 << 20

// bodyLimit is the largest body a message of method calling tool may have.
func (m *mcpHandler) bodyLimit(method, tool string) int64 {
	if method == "tools/call" {
		if n, ok := m.toolBodies[tool]; ok {
			return n
		}
	}
	return mcpMessageBytes
}

// readBody reads the request's body up to the limit of its method: a body
// declared larger than any message may be is refused unread; otherwise the
// first mcpMessageBytes are read, and only a message whose method and tool
// (found in them) allow more reads on. An upload_document call's file is
// decoded from the body as it is read into a temporary file, and the body
// returned has "" in its place (mcp_upload_body.go); close the upload.
func (m *mcpHandler) readBody(r *http.Request, w http.ResponseWriter) ([]byte, *mcpUpload, error) {
	declared := r.ContentLength
	if declared > m.maxBody {
		return nil, nil, mcpTooLarge(models.Msg("problem.mcp.any_message"), m.maxBody)
	}
	head, err := readUpTo(r.Body, mcpMessageBytes+1, declared)
	if err != nil {
		return nil, nil, err
	}
	if isBatch(head) {
		return nil, nil, mcpBatchRefusal()
	}
	method, tool := peekMCPCall(head)
	if int64(len(head)) <= mcpMessageBytes {
		if method == "tools/call" && tool == uploadToolName {
			return m.extractUpload(bytes.NewReader(head), int64(len(head)))
		}
		return head, nil, nil
	}
	limit := m.bodyLimit(method, tool)
	if limit <= mcpMessageBytes || declared > limit {
		return nil, nil, mcpTooLarge(describeMCPCall(method, tool), limit)
	}
	rest := http.MaxBytesReader(w, r.Body, limit-int64(len(head)))
	if tool == uploadToolName {
		body, up, err := m.extractUpload(io.MultiReader(bytes.NewReader(head), rest), 64<<10)
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, nil, mcpTooLarge(describeMCPCall(method, tool), limit)
		}
		return body, up, err
	}
	size := limit
	if declared > 0 {
		size = declared
	}
	body := bytes.NewBuffer(make([]byte, 0, min(size, limit)+1))
	body.Write(head)
	if _, err := body.ReadFrom(rest); err != nil {
		if _, ok := err.(*http.MaxBytesError); ok {
			return nil, nil, mcpTooLarge(describeMCPCall(method, tool), limit)
		}
		return nil, nil, err
	}
	return body.Bytes(), nil, nil
}

// extractUpload reads an upload_document call from r, its file decoded into
// a temporary file (extractUpload in mcp_upload_body.go); size is a guess
// of the message's length without the file, for the buffer.
func (m *mcpHandler) extractUpload(r io.Reader, size int64) ([]byte, *mcpUpload, error) {
	out := bytes.NewBuffer(make([]byte, 0, size))
	up, err := extractUpload(r, out, "", m.api.cfg.MaxUploadBytes, mcpMessageBytes)
	if errors.Is(err, errUploadMessageTooLarge) {
		return nil, nil, mcpTooLarge(models.Msg("problem.mcp.upload_arguments"), mcpMessageBytes)
	}
	return out.Bytes(), up, err
}

// readUpTo reads at most n bytes of r, in one buffer when the body's
// length is declared (declared ≥ 0).
func readUpTo(r io.Reader, n, declared int64) ([]byte, error) {
	if declared < 0 {
		return io.ReadAll(io.LimitReader(r, n))
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(declared, n)+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(r, n))
	return buf.Bytes(), err
}

// isBatch tells whether a JSON-RPC body is a batch (an array).
func isBatch(body []byte) bool {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '['
}

// mcpBatchRefusal refuses a JSON-RPC batch: each message must be a request
// of its own, counted by the rate limit.
func mcpBatchRefusal() error {
	return models.Invalid("#", "batch_not_supported", "problem.mcp.batch")
}

// mcpTooLarge refuses a body over the limit of what it calls (413).
func mcpTooLarge(what models.Message, limit int64) error {
	return &models.ValidationError{Kind: models.KindTooLarge, Message: models.Msg("error.body_too_large"),
		Errors: []models.FieldError{{Pointer: "#", Code: "too_large", Message: models.Msg("problem.mcp.body_too_large", "what", what, "max", limit)}}}
}

// describeMCPCall names what a message calls, for a refusal.
func describeMCPCall(method, tool string) models.Message {
	switch {
	case method == "":
		return models.Msg("problem.mcp.no_method", "max", mcpMessageBytes)
	case method == "tools/call" && tool != "":
		return models.Msg("problem.mcp.tool_call", "tool", models.Quoted(tool))
	case method == "tools/call":
		return models.Msg("problem.mcp.tool_call_unnamed", "max", mcpMessageBytes)
	}
	return models.Msg("problem.mcp.method", "method", models.Quoted(method))
}

// peekMCPCall reads a JSON-RPC message's method and, inside params, the
// tool's name from the start of its body, stopping at a method other than
// tools/call (whose params do not matter) or at the tool's name. It walks the tokens of head
// (at most mcpMessageBytes+1 bytes) and stops at the first it cannot read,
// a truncated value among them: what it found before stays. Keys match
// exactly; a message that spells them otherwise, or names them only after
// a megabyte of arguments, gets the limit of a message of unknown method.
func peekMCPCall(head []byte) (method, tool string) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", ""
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return method, tool
		}
		switch k {
		case "method":
			method, err = stringToken(dec)
		case "params":
			tool, err = peekToolName(dec, method != "")
		default:
			err = skipValue(dec)
		}
		if err != nil || (method != "" && (method != "tools/call" || tool != "")) {
			return method, tool
		}
	}
	return method, tool
}

// peekToolName reads params' "name" (params being an object): it returns
// there when done, else it reads past the other members to find the method
// after params (an error after the name keeps the name).
func peekToolName(dec *json.Decoder, done bool) (name string, err error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	if t != json.Delim('{') {
		return "", skipRest(dec, t)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return name, err
		}
		if k == "name" && name == "" {
			if name, err = stringToken(dec); done {
				return name, err
			}
		} else {
			err = skipValue(dec)
		}
		if err != nil {
			return name, err
		}
	}
	_, err = dec.Token() // the closing brace
	return name, err
}

// stringToken reads one value, "" unless it is a string.
func stringToken(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	if s, ok := t.(string); ok {
		return s, nil
	}
	return "", skipRest(dec, t)
}

// skipValue reads past one value.
func skipValue(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	return skipRest(dec, t)
}

// skipRest reads past the rest of a value whose first token was t.
func skipRest(dec *json.Decoder, t json.Token) error {
	if t != json.Delim('{') && t != json.Delim('[') {
		return nil
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}
