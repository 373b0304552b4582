package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// This file reads untrusted JSON request bodies field by field so that every
// problem is reported with a JSON Pointer: unknown fields, wrong types,
// missing required fields. The body is checked once with json.Valid and
// indexed in one pass (jsontree.go); nested values (customData) keep their
// exact bytes.

// jsonObject is one JSON object being read; call finish to report unknown fields.
type jsonObject struct {
	p    *Problems
	ptr  string
	node jsonNode
	used []bool
}

// parseBody reads a request body that must be one JSON object.
func parseBody(p *Problems, body []byte) (*jsonObject, bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		p.Add("#", "invalid_json", "problem.json.empty")
		return nil, false
	}
	if !json.Valid(trimmed) {
		p.AddMessage("#", "invalid_json", jsonSyntaxDetail(trimmed))
		return nil, false
	}
	if ptr, code := locateBadText(trimmed); code != "" {
		if code == "invalid_encoding" {
			p.Add(ptr, code, "problem.json.not_utf8")
		} else {
			p.Add(ptr, code, "problem.json.nul")
		}
		return nil, false
	}
	return readObject(p, "#", scanJSON(trimmed))
}

// jsonSyntaxDetail says where JSON parsing failed: the parser's reason
// (its own words, data here) and the byte.
func jsonSyntaxDetail(b []byte) Message {
	var v any
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return Msg("problem.json.syntax", "reason", se.Error(), "offset", se.Offset)
	}
	reason := "unknown error"
	if err != nil {
		reason = err.Error()
	}
	return Msg("problem.json.invalid", "reason", reason)
}

// readObject reads node as an object, recording a type problem otherwise.
func readObject(p *Problems, ptr string, node jsonNode) (*jsonObject, bool) {
	if node.kind != "object" {
		p.Add(ptr, "invalid_type", "problem.json.expected_object", "kind", node.kind)
		return nil, false
	}
	return &jsonObject{p: p, ptr: ptr, node: node, used: make([]bool, len(node.keys))}, true
}

// field finds a member by name (the last one wins, as with encoding/json)
// and marks every member of that name as read. Objects are small, so a scan
// beats building a map.
func (o *jsonObject) field(name string, markUsed bool) (jsonNode, bool) {
	found := -1
	for i, k := range o.node.keys {
		if string(k) == name {
			found = i
			if markUsed {
				o.used[i] = true
			}
		}
	}
	if found < 0 {
		return jsonNode{}, false
	}
	return o.node.vals[found], true
}

// pointer appends one escaped segment to a JSON Pointer.
func pointer(base string, segment any) string {
	var s string
	switch v := segment.(type) {
	case int:
		return base + "/" + strconv.Itoa(v)
	case string:
		s = v
	default:
		s = fmt.Sprint(v)
	}
	s = strings.ReplaceAll(s, "~", "~0")
	s = strings.ReplaceAll(s, "/", "~1")
	return base + "/" + s
}

// at returns the pointer of a field of this object.
func (o *jsonObject) at(name string) string { return pointer(o.ptr, name) }

// raw returns a field's value; JSON null counts as absent.
func (o *jsonObject) raw(name string) (jsonNode, bool) {
	v, ok := o.field(name, true)
	if !ok || v.kind == "null" {
		return jsonNode{}, false
	}
	return v, true
}

// has tells whether a field is present and not null.
func (o *jsonObject) has(name string) bool {
	v, ok := o.field(name, false)
	return ok && v.kind != "null"
}

func (o *jsonObject) missing(name string) {
	o.p.Add(o.at(name), "required", "problem.field.required", "field", Quoted(name))
}

// text reads a string field's value without checking it: nil when absent
// or null; a value of another JSON type is reported and refused.
func (o *jsonObject) text(name string) (v *string, refused bool) {
	s, ok, refused := o.textValue(name)
	if !ok {
		return nil, refused
	}
	return &s, false
}

// textValue is text without the pointer: ok is false when the field is
// absent, null or refused.
func (o *jsonObject) textValue(name string) (s string, ok, refused bool) {
	raw, ok := o.raw(name)
	if !ok {
		return "", false, false
	}
	if raw.kind != "string" {
		o.p.Add(o.at(name), "invalid_type", "problem.field.not_string", "field", Quoted(name), "kind", raw.kind)
		return "", false, true
	}
	return decodeJSONString(raw.raw), true, false
}

// num reads a number field's value without checking its range: nil when
// absent or null; a value of another JSON type, or one no float64 holds
// (1e999), is reported and refused.
func (o *jsonObject) num(name string) (v *float64, refused bool) {
	f, ok, refused := o.numValue(name)
	if !ok {
		return nil, refused
	}
	return &f, false
}

// numValue is num without the pointer: ok is false when the field is
// absent, null or refused.
func (o *jsonObject) numValue(name string) (f float64, ok, refused bool) {
	raw, ok := o.raw(name)
	if !ok {
		return 0, false, false
	}
	f, ok = raw.float()
	if raw.kind != "number" || !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		o.p.Add(o.at(name), "invalid_type", "problem.field.not_number", "field", Quoted(name), "kind", raw.kind)
		return 0, false, true
	}
	return f, true, false
}

// check returns the checker of this object's fields (field_check.go); a
// refused field is not reported missing.
func (o *jsonObject) check(name string, refused bool) fieldChecker {
	c := fieldChecker{p: o.p, base: o.ptr}
	if refused {
		c.refused = []string{name}
	}
	return c
}

// str reads a string field; required fields report their absence. Values are
// bounded by max characters (0 means no bound beyond the body limit) and may
// not contain NUL, which PostgreSQL text cannot store.
func (o *jsonObject) str(name string, required bool, max int) (string, bool) {
	v, refused := o.text(name)
	return o.check(name, refused).str(name, v, required, max)
}

// optStr reads an optional string field as a pointer (nil when absent or invalid).
func (o *jsonObject) optStr(name string, max int) *string {
	v, refused := o.text(name)
	return o.check(name, refused).optStr(name, v, max)
}

// headerStr reads an optional one-line string that ends up in a mail header:
// CR, LF and other control characters are refused (header injection).
func (o *jsonObject) headerStr(name string, max int) *string {
	v, refused := o.text(name)
	return o.check(name, refused).headerStr(name, v, max)
}

// email reads a required e-mail address field.
func (o *jsonObject) email(name string) string {
	v, refused := o.text(name)
	return o.check(name, refused).email(name, v)
}

// enum reads a string field that must be one of allowed.
func (o *jsonObject) enum(name string, required bool, allowed []string) (string, bool) {
	v, refused := o.text(name)
	return o.check(name, refused).enum(name, v, required, allowed)
}

// locale reads an optional language tag (fieldChecker.locale).
func (o *jsonObject) locale(name string) *string {
	v, refused := o.text(name)
	return o.check(name, refused).locale(name, v)
}

// boolean reads an optional boolean field as a pointer.
func (o *jsonObject) boolean(name string) *bool {
	raw, ok := o.raw(name)
	if !ok {
		return nil
	}
	if raw.kind != "boolean" {
		o.p.Add(o.at(name), "invalid_type", "problem.field.not_boolean", "field", Quoted(name), "kind", raw.kind)
		return nil
	}
	b := raw.boolean()
	return &b
}

// number reads a finite number field within [min, max].
func (o *jsonObject) number(name string, required bool, min, max float64) (float64, bool) {
	v, refused := o.num(name)
	return o.check(name, refused).number(name, v, required, min, max)
}

// integer reads a whole-number field within [min, max].
func (o *jsonObject) integer(name string, required bool, min, max int) (int, bool) {
	v, refused := o.num(name)
	return o.check(name, refused).integer(name, v, required, min, max)
}

// optInt reads an optional whole number as a pointer.
func (o *jsonObject) optInt(name string, min, max int) *int {
	v, refused := o.num(name)
	return o.check(name, refused).optInt(name, v, min, max)
}

// array reads an array field, bounded to max elements.
func (o *jsonObject) array(name string, required bool, max int) ([]jsonNode, bool) {
	raw, ok := o.raw(name)
	if !ok {
		if required {
			o.missing(name)
		}
		return nil, false
	}
	if raw.kind != "array" {
		o.p.Add(o.at(name), "invalid_type", "problem.field.not_array", "field", Quoted(name), "kind", raw.kind)
		return nil, false
	}
	if max > 0 && len(raw.vals) > max {
		o.p.Add(o.at(name), "too_many", "problem.field.too_many_elements", "field", Quoted(name), "elements", len(raw.vals), "max", max)
		return nil, false
	}
	return raw.vals, true
}

// object reads an object field.
func (o *jsonObject) object(name string, required bool) (*jsonObject, bool) {
	raw, ok := o.raw(name)
	if !ok {
		if required {
			o.missing(name)
		}
		return nil, false
	}
	return readObject(o.p, o.at(name), raw)
}

// finish reports every field that was never read as unknown, in name order.
func (o *jsonObject) finish() {
	var unknown []string
	for i, name := range o.node.keys {
		if !o.used[i] {
			unknown = append(unknown, string(name))
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		o.p.Add(o.at(name), "unknown_field", "problem.field.unknown", "field", Quoted(truncateForDetail(name)))
	}
}

// ignore marks fields as read without using them.
func (o *jsonObject) ignore(names ...string) {
	for _, n := range names {
		o.field(n, true)
	}
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
