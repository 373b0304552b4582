package models

import "testing"

func TestCarriesTemplate(t *testing.T) {
	t.Parallel()
	d := TransactionDocument{Tags: []Tag{
		{CustomData: RawJSON(`{"note":"tpl-1"}`)},
		{CustomData: RawJSON(`{"x":1,"template":"tpl-2","templateVersion":3}`)},
		{},
	}}
	for _, tc := range []struct {
		id   string
		want bool
	}{{"tpl-2", true}, {"tpl-1", false}, {"tpl-3", false}, {"", false}} {
		if got := d.CarriesTemplate(tc.id); got != tc.want {
			t.Errorf("CarriesTemplate(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestHasTemplateTags(t *testing.T) {
	t.Parallel()
	d := TransactionDocument{Tags: []Tag{
		{Type: "SIGNATURETEMPLATE", Page: 1, X: 72, Y: 100, Width: 144, Height: 36},
		{Type: "DATETEMPLATE", Page: 1, X: 300.25, Y: 100, Width: 120, Height: 20},
	}}
	sig := TemplateTag{Type: "SIGNATURETEMPLATE", Page: 1, X: 72.2, Y: 100, Width: 144, Height: 36}
	date := TemplateTag{Type: "DATETEMPLATE", Page: 1, X: 300, Y: 100, Width: 120, Height: 20}
	other := TemplateTag{Type: "SIGNATURETEMPLATE", Page: 2, X: 72, Y: 100, Width: 144, Height: 36, Document: 1}
	for _, tc := range []struct {
		name string
		tags []TemplateTag
		doc  int
		want bool
	}{
		{"every tag, within half a point", []TemplateTag{sig, date}, 0, true},
		{"another document's tags do not count", []TemplateTag{sig, date, other}, 0, true},
		{"a template document without tags: nothing to add", []TemplateTag{sig}, 1, true},
		{"a tag moved", []TemplateTag{sig, {Type: "DATETEMPLATE", Page: 1, X: 301, Y: 100, Width: 120, Height: 20}}, 0, false},
		{"another type", []TemplateTag{{Type: "INITIALSTEMPLATE", Page: 1, X: 72, Y: 100, Width: 144, Height: 36}}, 0, false},
		{"another page", []TemplateTag{{Type: "SIGNATURETEMPLATE", Page: 2, X: 72, Y: 100, Width: 144, Height: 36}}, 0, false},
		{"no tags at all", nil, 0, true},
	} {
		if got := d.HasTemplateTags(tc.tags, tc.doc); got != tc.want {
			t.Errorf("%s: HasTemplateTags = %v, want %v", tc.name, got, tc.want)
		}
	}
}
