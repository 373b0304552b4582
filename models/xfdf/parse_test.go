package xfdf

import (
	"encoding/json"
	"testing"
)

func TestParseRoundTrip(t *testing.T) {
	want := sampleAnnotations()
	out, err := Merge(nil, want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("Parse found %d annotations, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Element != "square" || g.Name != w.Name || g.Page != w.Page || g.Rect != w.Rect ||
			g.Color != w.Color || g.Subject != w.Subject || g.Title != w.Title || string(g.CustomData) != string(w.CustomData) || !g.Generated() {
			t.Errorf("annotation %d: got %+v, want %+v", i, g, w)
		}
	}
}

func TestParseCallerAnnotations(t *testing.T) {
	doc := `<x:xfdf xmlns:x="http://ns.adobe.com/xfdf/">
  <x:annots>
    <x:highlight name="h" page="2" rect=" 1.5, 2 ,3,4 " color="#FF0000" subject="Highlight" title="Ann"/>
    <x:text name="no-page"/>
    <x:text name="bad" page="-3" rect="1,2,3"/>
    <x:square name="nan" page="x" rect="NaN,1,2,3"><x:trn-custom-data bytes='{"a":1}'/></x:square>
    <other:square xmlns:other="urn:other" name="foreign"/>
  </x:annots>
  <x:fields><x:field name="not-an-annotation"/></x:fields>
  <annots><text name="no-namespace annots is not the XFDF one"/></annots>
</x:xfdf>`
	got, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []ParsedAnnotation{
		{Element: "highlight", Name: "h", Page: 2, Rect: Rect{1.5, 2, 3, 4}, Color: "#FF0000", Subject: "Highlight", Title: "Ann"},
		{Element: "text", Name: "no-page", Page: -1},
		{Element: "text", Name: "bad", Page: -1},
		{Element: "square", Name: "nan", Page: -1, CustomData: json.RawMessage(`{"a":1}`)},
		{Element: "square", Name: "foreign", Page: -1},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Element != w.Element || g.Name != w.Name || g.Page != w.Page || g.Rect != w.Rect || g.Color != w.Color ||
			g.Subject != w.Subject || g.Title != w.Title || string(g.CustomData) != string(w.CustomData) || g.Generated() {
			t.Errorf("annotation %d: got %+v, want %+v", i, g, w)
		}
	}
}
