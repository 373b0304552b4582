package apispec

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// nameMaps are the keys whose value maps names (of properties, schemas, status
// codes, headers, media types…) to objects, rather than fields to values: a
// property called "description" is not a description.
var nameMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true,
	"schemas": true, "responses": true, "parameters": true, "examples": true, "requestBodies": true,
	"headers": true, "securitySchemes": true, "links": true, "callbacks": true, "pathItems": true,
	"paths": true, "webhooks": true, "content": true, "encoding": true, "variables": true, "mapping": true,
}

// allowedFields lists the fields of the OpenAPI 3.1 objects that are small
// enough to be written as YAML flow mappings ({ description: …, schema: … }),
// where an unquoted comma in a text silently becomes a field of its own.
var allowedFields = map[string][]string{
	"headers":   {"$ref", "description", "required", "deprecated", "style", "explode", "schema", "example", "examples", "content"},
	"responses": {"$ref", "summary", "description", "headers", "content", "links"},
	"parameters": {"$ref", "summary", "name", "in", "description", "required", "deprecated", "allowEmptyValue",
		"style", "explode", "allowReserved", "schema", "example", "examples", "content"},
}

// nullable names the fields whose value may legitimately be JSON null.
var nullable = map[string]bool{"example": true, "default": true, "const": true}

// textFields must always hold a string.
var textFields = map[string]bool{"description": true, "summary": true, "title": true}

// booleanSchemas are the name maps whose entries may be the schemas true and false.
var booleanSchemas = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}

// structuralProblems walks an OpenAPI document (as JSON) and lists what a YAML
// slip produces and kin-openapi lets through: texts that are not strings, fields
// with a null value, and headers, responses or parameters with fields OpenAPI
// does not define (a flow mapping's "a, b: c" turns "b" into such a field).
func structuralProblems(doc []byte) ([]string, error) {
	var root any
	if err := json.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	var problems []string
	report := func(path, format string, args ...any) {
		problems = append(problems, path+": "+fmt.Sprintf(format, args...))
	}
	// entry checks one object of a container's kind (a header, a response…).
	var walk func(v any, path string, container string)
	entry := func(v any, path, container string) {
		switch obj := v.(type) {
		case map[string]any:
			if fields, ok := allowedFields[container]; ok {
				for _, f := range sortedKeys(obj) {
					if !strings.HasPrefix(f, "x-") && !slices.Contains(fields, f) {
						report(path, "%q is not a field of this object", f)
					}
				}
			}
		case string:
			if container != "mapping" {
				report(path, "a text where an object was expected")
			}
		case bool:
			if !booleanSchemas[container] {
				report(path, "a boolean where an object was expected")
			}
		default:
			report(path, "%T where an object was expected", v)
		}
		walk(v, path, "")
	}
	walk = func(v any, path string, container string) {
		switch n := v.(type) {
		case map[string]any:
			undefinedRequired(n, path, report)
			for _, k := range sortedKeys(n) {
				child := n[k]
				p := path + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
				if container != "" {
					entry(child, p, container) // k is a name, not a field
					continue
				}
				if child == nil && !nullable[k] {
					report(p, "null value")
				}
				if _, ok := child.(string); textFields[k] && !ok {
					report(p, "%T where a text was expected", child)
				}
				next := ""
				if nameMaps[k] {
					next = k
				}
				walk(child, p, next)
			}
		case []any:
			for i, e := range n {
				p := fmt.Sprintf("%s/%d", path, i)
				if container == "parameters" { // an operation's or a path's parameter list
					entry(e, p, container)
				} else {
					walk(e, p, "")
				}
			}
		}
	}
	walk(root, "#", "")
	return problems, nil
}

// undefinedRequired reports the names a schema lists as required without
// defining them among its properties (a schema that composes others is skipped:
// its properties may come from them).
func undefinedRequired(schema map[string]any, path string, report func(path, format string, args ...any)) {
	required, ok := schema["required"].([]any)
	if !ok {
		return // a parameter's or a request body's required: true
	}
	for _, k := range []string{"$ref", "allOf", "anyOf", "oneOf", "if", "dependentSchemas"} {
		if _, ok := schema[k]; ok {
			return
		}
	}
	props, _ := schema["properties"].(map[string]any)
	for _, r := range required {
		if name, ok := r.(string); ok {
			if _, ok := props[name]; !ok {
				report(path, "required property %q is not defined", name)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestServedDocumentIsWellFormed catches, without npm, the mistakes Redocly's
// lint (make lint-openapi) reported in the served document: YAML flow mappings
// cut by an unquoted comma (its struct rule) and required properties that are
// not defined (no-required-schema-properties-undefined).
func TestServedDocumentIsWellFormed(t *testing.T) {
	doc, err := JSON()
	if err != nil {
		t.Fatal(err)
	}
	problems, err := structuralProblems(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestStructuralProblemsCatchesAFlowMappingSlip proves the check above fails on
// the mistake it exists for: an unquoted comma in a flow mapping's description.
func TestStructuralProblemsCatchesAFlowMappingSlip(t *testing.T) {
	bad := []byte(`openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /x:
    get:
      parameters:
        - { name: q, in: query, description: One, two, schema: { type: string } }
      responses:
        '200':
          description: OK
          headers:
            ETag: { description: The version's tag, for If-Match., schema: { type: string } }
          content:
            application/json:
              schema:
                type: object
                required: [description, secret]
                properties:
                  description: { type: string }
                  title: { type: string, description: { nested: mapping } }
`)
	doc, err := yaml.YAMLToJSON(bad)
	if err != nil {
		t.Fatal(err)
	}
	problems, err := structuralProblems(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`#/paths/~1x/get/parameters/0/two: null value`,
		`#/paths/~1x/get/parameters/0: "two" is not a field of this object`,
		`#/paths/~1x/get/responses/200/headers/ETag/for If-Match.: null value`,
		`#/paths/~1x/get/responses/200/headers/ETag: "for If-Match." is not a field of this object`,
		`#/paths/~1x/get/responses/200/content/application~1json/schema/properties/title/description: map[string]interface {} where a text was expected`,
		`#/paths/~1x/get/responses/200/content/application~1json/schema: required property "secret" is not defined`,
	}
	for _, w := range want {
		if !slices.Contains(problems, w) {
			t.Errorf("missing problem %q; found:\n%s", w, strings.Join(problems, "\n"))
		}
	}
	if len(problems) != len(want) {
		t.Errorf("found %d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
}
