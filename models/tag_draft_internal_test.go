package models

import (
	"reflect"
	"testing"

	"github.com/markuproom/markuproom/models/tagtype"
)

// TestTagDecodersShareOneValidator: the same bad tag sent as the API's
// JSON, a batch entry and a room form gets the same problems (pointer,
// code, message) from checkTag, and a value that is no number gets one
// problem, not also "required".
func TestTagDecodersShareOneValidator(t *testing.T) {
	t.Parallel()
	const good = `"type":"SIGNATURETEMPLATE","signerId":"p_1","page":2,"x":72,"y":100,"width":144,"height":36`
	form := func(change func(*RoomTagForm)) RoomTagForm {
		f := RoomTagForm{Type: "SIGNATURETEMPLATE", SignerID: "p_1", Page: "2", X: "72", Y: "100", Width: "144", Height: "36"}
		change(&f)
		return f
	}
	api := func(fields string) []FieldError {
		var p Problems
		parseTagInput(&p, "#", scanJSON([]byte(`{`+good+`,"customData":{}`+fields+`}`)), tagtype.Codes())
		return p.list
	}
	batch := func(fields string) []FieldError {
		b, err := ParseTagBatch([]byte(`{"create":[{"documentPosition":0,` + good + fields + `}]}`))
		if err != nil {
			t.Fatalf("batch refused at parse: %v", err)
		}
		var p Problems
		checkTag(&p, "#", b.Create[0].Form, roomTagRules()) // below "#", as the form
		return p.list
	}
	fromForm := func(f RoomTagForm) []FieldError {
		var p Problems
		checkTag(&p, "#", f.draft(), roomTagRules())
		return p.list
	}
	for _, c := range []struct {
		name       string
		json       string
		form       RoomTagForm
		pointer    string
		code       string
		detail     string
		apiDiffers bool // the API reads the number itself: a 1e999 is refused as it is decoded
	}{
		{"unknown type", `,"type":"STAMP"`, form(func(f *RoomTagForm) { f.Type = "STAMP" }), "#/type", "invalid_enum", "", false},
		{"zero width", `,"width":0`, form(func(f *RoomTagForm) { f.Width = "0" }), "#/width", "out_of_range", "problem.field.positive{field=width}", false},
		{"x out of range", `,"x":1e9`, form(func(f *RoomTagForm) { f.X = "1000000000" }), "#/x", "out_of_range", "", false},
		{"page not whole", `,"page":2.5`, form(func(f *RoomTagForm) { f.Page = "2.5" }), "#/page", "not_integer", "problem.field.not_integer{field=page}", false},
		{"bad date format", `,"dateFormat":"YY"`, form(func(f *RoomTagForm) { f.DateFormat = "YY" }), "#/dateFormat", "invalid_enum", "", false},
		{"font too small", `,"fontSize":0.5`, form(func(f *RoomTagForm) { f.FontSize = "0.5" }), "#/fontSize", "out_of_range", "", false},
		{"blank type", `,"type":""`, form(func(f *RoomTagForm) { f.Type = "" }), "#/type", "required", "problem.field.blank{field=type}", false},
		{"number that is none", `,"x":1e999`, form(func(f *RoomTagForm) { f.X = "1e999" }), "#/x", "invalid_type",
			"problem.field.decimal{field=x}", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			fromForm := fromForm(c.form)
			if len(fromForm) != 1 || fromForm[0].Pointer != c.pointer || fromForm[0].Code != c.code || (c.detail != "" && fromForm[0].Message.String() != c.detail) {
				t.Fatalf("form: %+v, want one %s %s %q", fromForm, c.pointer, c.code, c.detail)
			}
			if got := batch(c.json); !reflect.DeepEqual(got, fromForm) {
				t.Errorf("batch: %+v, form: %+v", got, fromForm)
			}
			if got := api(c.json); !c.apiDiffers && !reflect.DeepEqual(got, fromForm) {
				t.Errorf("API: %+v, form: %+v", got, fromForm)
			} else if c.apiDiffers && (len(got) != 1 || got[0].Pointer != c.pointer || got[0].Code != c.code) {
				t.Errorf("API: %+v, want one %s %s", got, c.pointer, c.code)
			}
		})
	}

	// A lifted field read from inside customData is checked there.
	var p Problems
	parseTagInput(&p, "#", scanJSON([]byte(`{"type":"SIGNATURETEMPLATE","signerId":"p_1","x":72,"y":100,"width":144,"height":36,"customData":{"page":0}}`)), tagtype.Codes())
	if len(p.list) != 1 || p.list[0].Pointer != "#/customData/page" || p.list[0].Code != "out_of_range" {
		t.Fatalf("page 0 inside customData: %+v", p.list)
	}
}
