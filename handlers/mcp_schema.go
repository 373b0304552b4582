package handlers

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// openAPISchemas gives the MCP tools the JSON Schemas of the API's bodies
// and answers, taken from the OpenAPI document (handlers/apispec), so a
// tool's schema is the REST route's and cannot drift from it. OpenAPI 3.1
// schemas are JSON Schema 2020-12; each is handed out with its
// `#/components/schemas/…` references written in place, since several MCP
// clients do not follow references.
type openAPISchemas struct {
	components map[string]any
}

// newOpenAPISchemas reads the components of the OpenAPI document (as JSON).
func newOpenAPISchemas(openAPI []byte) (*openAPISchemas, error) {
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		return nil, fmt.Errorf("read the OpenAPI document's schemas: %w", err)
	}
	if len(doc.Components.Schemas) == 0 {
		return nil, fmt.Errorf("the OpenAPI document has no component schemas")
	}
	return &openAPISchemas{components: doc.Components.Schemas}, nil
}

// schema returns the named component schema with every reference written
// in place; a name the document lacks, or a reference cycle, is an error.
func (o *openAPISchemas) schema(name string) (map[string]any, error) {
	v, err := o.inline(map[string]any{"$ref": "#/components/schemas/" + name}, nil)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return v.(map[string]any), nil
}

// list is the schema of a page of a list answer: {items, nextCursor}.
func (o *openAPISchemas) list(item, description string) (map[string]any, error) {
	items, err := o.schema(item)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"type": "object", "required": []any{"items"}, "description": description,
		"properties": map[string]any{
			"items": map[string]any{"type": "array", "items": items},
			"nextCursor": map[string]any{"type": "string",
				"description": "Present when more items follow: pass it as cursor to read the next page."},
		},
	}, nil
}

// inline copies v, replacing each component reference by a copy of the
// component (the reference's sibling keywords, such as a description, win).
func (o *openAPISchemas) inline(v any, seen []string) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		if ref, ok := t["$ref"].(string); ok {
			name, found := strings.CutPrefix(ref, "#/components/schemas/")
			target, known := o.components[name]
			if !found || !known {
				return nil, fmt.Errorf("unknown reference %q", ref)
			}
			for _, s := range seen {
				if s == name {
					return nil, fmt.Errorf("reference cycle through %s", name)
				}
			}
			resolved, err := o.inline(target, append(seen, name))
			if err != nil {
				return nil, err
			}
			for k, val := range resolved.(map[string]any) {
				out[k] = val
			}
		}
		for k, val := range t {
			if k == "$ref" {
				continue
			}
			c, err := o.inline(val, seen)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, val := range t {
			c, err := o.inline(val, seen)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	default:
		return v, nil
	}
}

// inferredSchema is the JSON Schema of a tool's arguments type, inferred
// from its Go fields (descriptions from the jsonschema struct tags).
func inferredSchema[T any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, fmt.Errorf("infer the schema of %T: %w", *new(T), err)
	}
	return s, nil
}
