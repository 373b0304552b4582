package handlers

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// openAPISchemas gives the MCP tools the JSON Schemas of the API's bodies
// and answers, taken from the OpenAPI document (handlers/apispec), so a
// tool's schema is the REST route's and cannot drift from it. OpenAPI 3.1
// schemas are JSON Schema 2020-12, read as the SDK's typed schemas; each is
// handed out with its `#/components/schemas/…` references written in place,
// since several MCP clients do not follow references.
type openAPISchemas struct {
	components map[string]*jsonschema.Schema
}

// newOpenAPISchemas reads the components of the OpenAPI document (as JSON).
func newOpenAPISchemas(openAPI []byte) (*openAPISchemas, error) {
	var doc struct {
		Components struct {
			Schemas map[string]*jsonschema.Schema `json:"schemas"`
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

// schema returns a copy of the named component schema with every reference
// written in place; a name the document lacks, or a reference cycle, is an
// error.
func (o *openAPISchemas) schema(name string) (*jsonschema.Schema, error) {
	s, err := o.inline(&jsonschema.Schema{Ref: componentRef + name}, nil)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return s, nil
}

// list is the schema of a page of a list answer: {items, nextCursor}.
func (o *openAPISchemas) list(item, description string) (*jsonschema.Schema, error) {
	items, err := o.schema(item)
	if err != nil {
		return nil, err
	}
	return &jsonschema.Schema{
		Type: "object", Required: []string{"items"}, Description: description,
		Properties: map[string]*jsonschema.Schema{
			"items": {Type: "array", Items: items},
			"nextCursor": {Type: "string",
				Description: "Present when more items follow: pass it as cursor to read the next page."},
		},
		PropertyOrder: []string{"items", "nextCursor"},
	}, nil
}

// componentRef begins a reference to a component schema.
const componentRef = "#/components/schemas/"

var (
	schemaPtr   = reflect.TypeFor[*jsonschema.Schema]()
	schemaSlice = reflect.TypeFor[[]*jsonschema.Schema]()
	schemaMap   = reflect.TypeFor[map[string]*jsonschema.Schema]()
)

// inline copies s, replacing each component reference by a copy of the
// component (a description beside the reference wins; other keywords beside
// it are refused, as the document has none). Every schema of the copy is
// new, so a caller may change it without touching the components.
func (o *openAPISchemas) inline(s *jsonschema.Schema, seen []string) (*jsonschema.Schema, error) {
	if s == nil {
		return nil, nil
	}
	if s.Ref != "" {
		name, found := strings.CutPrefix(s.Ref, componentRef)
		target, known := o.components[name]
		if !found || !known {
			return nil, fmt.Errorf("unknown reference %q", s.Ref)
		}
		if slices.Contains(seen, name) {
			return nil, fmt.Errorf("reference cycle through %s", name)
		}
		out, err := o.inline(target, append(seen, name))
		if err != nil {
			return nil, err
		}
		rest := *s
		rest.Ref, rest.Description = "", ""
		if len(rest.Extra) == 0 {
			rest.Extra = nil
		}
		if !reflect.DeepEqual(rest, jsonschema.Schema{}) {
			return nil, fmt.Errorf("keywords beside the reference %q: only a description is read there", s.Ref)
		}
		if s.Description != "" {
			out.Description = s.Description
		}
		return out, nil
	}
	out := *s
	out.Required = slices.Clone(s.Required)
	v := reflect.ValueOf(&out).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Type() {
		case schemaPtr:
			c, err := o.inline(f.Interface().(*jsonschema.Schema), seen)
			if err != nil {
				return nil, err
			}
			f.Set(reflect.ValueOf(c))
		case schemaSlice:
			list := f.Interface().([]*jsonschema.Schema)
			if list == nil {
				continue
			}
			copied := make([]*jsonschema.Schema, len(list))
			for j, c := range list {
				var err error
				if copied[j], err = o.inline(c, seen); err != nil {
					return nil, err
				}
			}
			f.Set(reflect.ValueOf(copied))
		case schemaMap:
			m := f.Interface().(map[string]*jsonschema.Schema)
			if m == nil {
				continue
			}
			copied := make(map[string]*jsonschema.Schema, len(m))
			for k, c := range m {
				var err error
				if copied[k], err = o.inline(c, seen); err != nil {
					return nil, err
				}
			}
			f.Set(reflect.ValueOf(copied))
		}
	}
	return &out, nil
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
