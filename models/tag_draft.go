package models

import (
	"slices"
	"strings"

	"github.com/markuproom/markuproom/models/tagtype"
)

// TagDraft is one tag as a client sent it, read into typed fields but not
// yet checked; nil is an absent field. Three decoders fill it — the API's
// JSON (readTagJSON, for a transaction replace), a room batch's JSON
// (readBatchTag) and the room's tag form (RoomTagForm.draft) — and one
// validator, checkTag, applies the rules of the OpenAPI document's Tag
// schema to it, whichever way it came.
type TagDraft struct {
	Type, SignerID          *string
	Page, X, Y              *float64
	Width, Height           *float64
	Required                *bool
	StateFormat, DateFormat *string
	FontSize                *float64
	// CustomData is the API's customData with the lifted fields moved out;
	// the room's form and batch send none ({}).
	CustomData RawJSON

	// refused names the fields sent with a value of the wrong JSON type
	// (the decoder reported it).
	refused []string
	// unreadable names the fields whose text is no value of the field's
	// type: a form's "left" for x, a batch's 1e999; checkTag reports them.
	unreadable []string
	// nested names the lifted fields the API read from inside customData.
	nested []string
}

// tagRules are the rules a tag is checked with that depend on where it is placed.
type tagRules struct {
	// typeCodes are the allowed tag types.
	typeCodes []string
	// unassigned lets a tag have no signer: a Markup Room's draft may hold
	// such tags (an empty signerId). A signer id is then only bounded in
	// length; the room checks it against its participants.
	unassigned bool
}

// roomTagRules are the rules of a tag placed in the Markup Room.
func roomTagRules() tagRules {
	return tagRules{typeCodes: tagtype.Codes(), unassigned: true}
}

// checkTag is the one validator of a tag's own fields (400-class problems,
// below base). What it returns is meaningful only when it recorded nothing.
func checkTag(p *Problems, base string, d TagDraft, rules tagRules) TagInput {
	c := fieldChecker{p: p, base: base, refused: slices.Concat(d.refused, d.unreadable), nested: d.nested}
	for _, name := range d.unreadable {
		if name == "required" {
			p.Add(c.at(name), "invalid_type", "problem.tag.required_boolean")
		} else {
			p.Add(c.at(name), "invalid_type", "problem.field.decimal", "field", Quoted(name))
		}
	}
	var t TagInput
	t.Type, _ = c.enum("type", d.Type, true, rules.typeCodes)
	t.X, _ = c.number("x", d.X, true, -MaxCoordinate, MaxCoordinate)
	t.Y, _ = c.number("y", d.Y, true, -MaxCoordinate, MaxCoordinate)
	t.Width, _ = c.number("width", d.Width, true, 0, MaxCoordinate)
	t.Height, _ = c.number("height", d.Height, true, 0, MaxCoordinate)
	for _, f := range []struct {
		name string
		v    *float64
	}{{"width", d.Width}, {"height", d.Height}} {
		if f.v != nil && *f.v == 0 {
			p.Add(c.at(f.name), "out_of_range", "problem.field.positive", "field", Quoted(f.name))
		}
	}
	if rules.unassigned {
		if d.SignerID != nil {
			t.SignerID = *d.SignerID
		}
		if len(t.SignerID) > MaxShortTextLength {
			p.Add(c.at("signerId"), "too_long", "problem.tag.signer_too_long")
		}
	} else {
		t.SignerID, _ = c.str("signerId", d.SignerID, true, MaxShortTextLength)
	}
	t.CustomData = d.CustomData
	t.Page, _ = c.integer("page", d.Page, true, 1, 100000)
	t.Required = d.Required
	t.StateFormat = c.optStr("stateFormat", d.StateFormat, MaxStateFormatLength)
	// Each value kept is copied before its address is taken, so an absent
	// one costs no allocation.
	if v, ok := c.enum("dateFormat", d.DateFormat, false, DateFormats()); ok {
		kept := v
		t.DateFormat = &kept
	}
	if v, ok := c.number("fontSize", d.FontSize, false, 1, MaxTagFontSize); ok {
		kept := v
		t.FontSize = &kept
	}
	return t
}

// draft decodes a posted tag form: an empty field is absent (the type and
// the signer are always sent: an empty type is blank, an empty signer
// unassigned); numbers are plain decimals (parseFormNumber); required is
// "true"/"on" or "false"/"off".
func (f RoomTagForm) draft() TagDraft {
	d := TagDraft{Type: &f.Type, SignerID: &f.SignerID, CustomData: RawJSON("{}")}
	for _, n := range []struct {
		name  string
		value string
		to    **float64
	}{{"page", f.Page, &d.Page}, {"x", f.X, &d.X}, {"y", f.Y, &d.Y}, {"width", f.Width, &d.Width}, {"height", f.Height, &d.Height}, {"fontSize", f.FontSize, &d.FontSize}} {
		v := strings.TrimSpace(n.value)
		if v == "" {
			continue
		}
		if num, ok := parseFormNumber(v); ok {
			*n.to = &num
		} else {
			d.unreadable = append(d.unreadable, n.name)
		}
	}
	switch f.Required {
	case "":
	case "false", "off":
		d.Required = new(bool)
	case "true", "on":
		yes := true
		d.Required = &yes
	default:
		d.unreadable = append(d.unreadable, "required")
	}
	if f.DateFormat != "" {
		d.DateFormat = &f.DateFormat
	}
	if f.StateFormat != "" {
		d.StateFormat = &f.StateFormat
	}
	return d
}
