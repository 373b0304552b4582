package handlers

import (
	"bytes"
	"encoding/json"
	"sort"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models"
)

// mcpArgs reads the arguments of an MCP tool that takes a few plain fields
// (an id, a list's filters), reporting every problem at once with its
// pointer into the arguments, as the API reports a body's: unknown fields,
// wrong types, missing or too long values, text that is not text. Tools that
// take an API body pass it to the models' own parser instead.
type mcpArgs struct {
	p      models.Problems
	fields map[string]json.RawMessage
}

// readMCPArgs reads the arguments object; names lists the fields the tool
// knows, any other is an unknown_field. No arguments read as {}.
func readMCPArgs(raw json.RawMessage, names ...string) *mcpArgs {
	a := &mcpArgs{fields: map[string]json.RawMessage{}}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return a
	}
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &a.fields) != nil {
		a.p.Add("#", "invalid_type", "problem.mcp.arguments_object")
		return a
	}
	unknown := make([]string, 0)
	for name := range a.fields {
		known := false
		for _, n := range names {
			known = known || n == name
		}
		if !known {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		a.p.Add("#/"+name, "unknown_field", "problem.mcp.unknown_argument", "field", models.Quoted(name))
	}
	return a
}

// str reads a string field of at most max characters ("" when absent).
func (a *mcpArgs) str(name string, required bool, max int) string {
	raw, ok := a.fields[name]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if required {
			a.p.Add("#/"+name, "required", "problem.field.required", "field", models.Quoted(name))
		}
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		a.p.Add("#/"+name, "invalid_type", "problem.mcp.not_string", "field", models.Quoted(name))
		return ""
	}
	switch {
	case !isText(s):
		a.p.Add("#/"+name, "invalid_encoding", "problem.mcp.not_text", "field", models.Quoted(name))
	case required && s == "":
		a.p.Add("#/"+name, "required", "problem.mcp.empty", "field", models.Quoted(name))
	case max > 0 && utf8.RuneCountInString(s) > max:
		a.p.Add("#/"+name, "too_long", "problem.mcp.too_long", "field", models.Quoted(name), "max", max)
	}
	return s
}

// integer reads an optional whole number (0 when absent).
func (a *mcpArgs) integer(name string) int {
	raw, ok := a.fields[name]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return 0
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || f != float64(int(f)) {
		a.p.Add("#/"+name, "invalid_type", "problem.field.not_integer", "field", models.Quoted(name))
		return 0
	}
	return int(f)
}

// err is the 400 of every problem found, or nil.
func (a *mcpArgs) err() error {
	return a.p.Err(models.KindInvalid, "problem.summary.mcp_arguments")
}
