package xfdf

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// layouts are caller documents in the shapes Merge must handle: no annots,
// compact, indented, mixed content, generated annotations in odd places.
var layouts = []struct{ name, doc string }{
	{"empty", ""},
	{"blank", " \n\t "},
	{"bom only", "\uFEFF\n"},
	{"self-closing root", `<xfdf/>`},
	{"no namespace", "<xfdf>\n  <fields/>\n</xfdf>"},
	{"compact", `<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text name="a"/></annots></xfdf>`},
	{"compact generated", `<xfdf><annots><square name="markuproom-tag-1"/><text name="a"/><square name="markuproom-tag-2"/></annots></xfdf>`},
	{"empty annots", "<xfdf>\n  <annots/>\n</xfdf>"},
	{"annots with whitespace", "<xfdf>\n  <annots>\n  </annots>\n</xfdf>"},
	{"only generated", "<xfdf>\n\t<annots>\n\t\t<square name=\"markuproom-tag-x\"/>\n\t</annots>\n</xfdf>"},
	{"generated first", "<xfdf>\n  <annots>\n      <square name=\"markuproom-tag-x\"/>\n    <text name=\"a\"/>\n  </annots>\n</xfdf>"},
	{"blank lines", "<xfdf>\n\n  <annots>\n\n    <text name=\"a\"/>\n\n  </annots>\n\n</xfdf>"},
	{"mixed content", "<xfdf><annots>x <square name=\"markuproom-tag-1\"/> y<!--c--><square name=\"markuproom-tag-2\"/>z</annots></xfdf>"},
	{"text after generated", "<xfdf><annots>x<square name=\"markuproom-tag-1\"/>\n  </annots></xfdf>"},
	{"two annots", "<xfdf>\n  <annots><text name=\"a\"/></annots>\n  <annots>\n    <square name=\"markuproom-tag-1\"/>\n  </annots>\n</xfdf>"},
	{"annots in another namespace", "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\" xmlns:o=\"urn:o\">\n  <o:annots><square name=\"markuproom-tag-1\"/></o:annots>\n</xfdf>"},
	{"nested generated name outside annots", "<xfdf><fields><field name=\"markuproom-tag-keep\"/></fields></xfdf>"},
	{"prefixed root", "<p:xfdf xmlns:p=\"http://ns.adobe.com/xfdf/\"><p:annots>\n</p:annots></p:xfdf>"},
	{"comments and pis", "<?xml version=\"1.0\"?>\n<!--a-->\n<?p x?>\n<xfdf><!--b--><annots><?q?></annots></xfdf>\n<!--c-->\n"},
	{"cdata", "<xfdf><annots><freetext name=\"n\"><contents><![CDATA[<b>]]>&amp;</contents></freetext></annots></xfdf>"},
	{"declared latin1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><xfdf><f href=\"café.pdf\"/></xfdf>"},
	{"crlf", "<xfdf>\r\n  <annots>\r\n    <text name=\"a\"/>\r\n  </annots>\r\n</xfdf>\r\n"},
}

func TestMergeIdempotent(t *testing.T) {
	for _, l := range layouts {
		for _, annots := range [][]Annotation{nil, sampleAnnotations()[:1], sampleAnnotations()} {
			once, err := Merge([]byte(l.doc), annots)
			if err != nil {
				t.Fatalf("%s: Merge: %v", l.name, err)
			}
			twice, err := Merge(once, annots)
			if err != nil {
				t.Fatalf("%s: second Merge: %v", l.name, err)
			}
			if !bytes.Equal(once, twice) {
				t.Errorf("%s, %d annotations: not idempotent\n--- once ---\n%s\n--- twice ---\n%s", l.name, len(annots), once, twice)
			}
			if again, _ := Merge([]byte(l.doc), annots); !bytes.Equal(again, once) {
				t.Errorf("%s: not deterministic", l.name)
			}
			if err := wellFormed(once); err != nil {
				t.Errorf("%s: output not well-formed: %v\n%s", l.name, err, once)
			}
			if strings.TrimSpace(l.doc) != "" && l.doc != "\uFEFF\n" {
				if got, want := callerView(t, once), callerView(t, []byte(l.doc)); got != want {
					t.Errorf("%s: caller content changed:\n got %s\nwant %s", l.name, got, want)
				}
			}
			// Removing the generated annotations leaves the same document
			// whichever set was merged before.
			cleared, err := Merge(once, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n := countGenerated(t, cleared); n != 0 {
				t.Errorf("%s: Merge(x, nil) left %d generated annotations", l.name, n)
			}
		}
	}
}

func countGenerated(t *testing.T, doc []byte) int {
	t.Helper()
	parsed, err := Parse(doc)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	n := 0
	for _, p := range parsed {
		if p.Generated() {
			n++
		}
	}
	return n
}

func TestMergeReplacesGenerated(t *testing.T) {
	first, err := Merge(nil, sampleAnnotations())
	if err != nil {
		t.Fatal(err)
	}
	moved := sampleAnnotations()[1:]
	moved[0].Rect = Rect{1, 2, 3, 4}
	second, err := Merge(first, moved)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := Parse(second)
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed) != 2 || parsed[0].Name != moved[0].Name || parsed[0].Rect != moved[0].Rect || parsed[1].Name != moved[1].Name {
		t.Errorf("got %+v", parsed)
	}
}

func TestMergeIgnoresDeclaredEncoding(t *testing.T) {
	out, err := Merge([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><xfdf><f href="café.pdf">ü</f></xfdf>`), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xfdf><f href=\"café.pdf\">ü</f></xfdf>\n"
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestMergeKeepsPrefixes(t *testing.T) {
	in := `<xfdf xmlns="http://ns.adobe.com/xfdf/" xmlns:a="urn:a" xml:space="preserve"><a:ext a:k="v" xml:lang="en"><b:x xmlns:b="urn:b" b:y="1"/></a:ext></xfdf>`
	out, err := Merge([]byte(in), sampleAnnotations()[:1])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<xfdf xmlns="http://ns.adobe.com/xfdf/" xmlns:a="urn:a" xml:space="preserve">`,
		`<a:ext a:k="v" xml:lang="en"><b:x xmlns:b="urn:b" b:y="1"></b:x></a:ext>`,
		"</a:ext><annots>\n    <square ",
		"</square>\n  </annots></xfdf>",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Count(string(out), "<?xml") != 1 {
		t.Errorf("want one XML declaration:\n%s", out)
	}
}

// hostile strings hold everything that could break XML written by hand.
var hostile = []string{
	``, `"`, `'`, `<`, `>`, `&`, `&amp;`, `]]>`, `<![CDATA[x]]>`, `<!--`, `-->`, `<?xml?>`,
	"\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1b[31m", "\x7f", "\t\n\r", "\r\n",
	"\xff", "\xc3\x28", "\xed\xa0\x80", "\xef\xbf\xbe", "\xef\xbf\xbf", "\uFFFD", "\u2028", "\U0001F600",
	`"/><script>alert(1)</script><x a="`, "a\x00b<c&d\"e'f]]>g\xffh",
	strings.Repeat("<&>", 1000),
}

func TestMergeHostileStrings(t *testing.T) {
	for i, s := range hostile {
		cd, err := json.Marshal(map[string]string{"v": s, "k" + s: "x"})
		if err != nil {
			t.Fatal(err)
		}
		raw := append([]byte(`{"raw":"`), append([]byte(s), `"}`...)...) // json.Valid accepts invalid UTF-8
		for _, customData := range []json.RawMessage{cd, raw} {
			if !json.Valid(customData) {
				continue // s holds a quote or a control character; cd covers it
			}
			a := Annotation{Name: GeneratedName(s, i), Page: 3, Rect: Rect{-1.5, 0, 1e6, 0.125}, Color: "#ABCDEF", Subject: s, Title: s + s, CustomData: customData}
			for _, existing := range []string{"", "<xfdf><annots><text name=\"keep\"/></annots></xfdf>"} {
				out, err := Merge([]byte(existing), []Annotation{a})
				if err != nil {
					t.Fatalf("%q: Merge: %v", s, err)
				}
				checkHostileOutput(t, s, out)
				parsed, err := Parse(out)
				if err != nil {
					t.Fatalf("%q: Parse: %v\n%s", s, err, out)
				}
				got := parsed[len(parsed)-1]
				if got.Subject != sanitize(s) || got.Title != sanitize(s+s) || got.Name != a.Name || got.Page != 3 || got.Rect != a.Rect {
					t.Errorf("%q: parsed back as %+v", s, got)
				}
				if !json.Valid(got.CustomData) || string(got.CustomData) != sanitize(string(customData)) {
					t.Errorf("%q: custom data parsed back as %q", s, got.CustomData)
				}
				if utf8.ValidString(string(customData)) && !strings.ContainsAny(string(customData), "\uFFFE\uFFFF") && string(got.CustomData) != string(customData) {
					t.Errorf("%q: valid custom data changed to %q", s, got.CustomData)
				}
				if again, err := Merge(out, []Annotation{a}); err != nil || !bytes.Equal(again, out) {
					t.Errorf("%q: not idempotent (err %v)", s, err)
				}
			}
		}
	}
}

// checkHostileOutput asserts that out is well-formed, valid UTF-8 and free
// of characters XML forbids, whichever parser reads it.
func checkHostileOutput(t *testing.T, s string, out []byte) {
	t.Helper()
	if err := wellFormed(out); err != nil {
		t.Fatalf("%q: output not well-formed: %v\n%s", s, err, out)
	}
	if err := Validate(out); err != nil {
		t.Fatalf("%q: Validate rejects the output: %v", s, err)
	}
	if !validChars(out) {
		t.Fatalf("%q: output holds invalid UTF-8 or a character XML forbids:\n%q", s, out)
	}
	if bytes.Contains(out, []byte("<script")) {
		t.Fatalf("%q: markup leaked into the output:\n%s", s, out)
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\x00b", "a\uFFFDb"},
		{"\x1b[0m", "\uFFFD[0m"},
		{"\xff\xfe", "\uFFFD\uFFFD"},
		{"\t\n\r", "\t\n\r"},
		{"\uFFFE\uFFFF\U0001F600", "\uFFFD\uFFFD\U0001F600"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
	}
	for _, tt := range tests {
		if got := sanitize(tt.in); got != tt.want {
			t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMergeInvalidAnnotations(t *testing.T) {
	good := sampleAnnotations()[0]
	tests := []struct {
		name   string
		change func(a *Annotation)
	}{
		{"empty name", func(a *Annotation) { a.Name = "" }},
		{"name without prefix", func(a *Annotation) { a.Name = "tag-1" }},
		{"prefix only", func(a *Annotation) { a.Name = GeneratedPrefix }},
		{"negative page", func(a *Annotation) { a.Page = -1 }},
		{"NaN", func(a *Annotation) { a.Rect.X1 = math.NaN() }},
		{"infinity", func(a *Annotation) { a.Rect.Y2 = math.Inf(1) }},
		{"inverted", func(a *Annotation) { a.Rect.X1, a.Rect.X2 = a.Rect.X2, a.Rect.X1 }},
		{"short colour", func(a *Annotation) { a.Color = "#FFF" }},
		{"named colour", func(a *Annotation) { a.Color = "red" }},
		{"bad hex", func(a *Annotation) { a.Color = "#GGGGGG" }},
		{"custom data not JSON", func(a *Annotation) { a.CustomData = json.RawMessage(`{"a":`) }},
		{"custom data an array", func(a *Annotation) { a.CustomData = json.RawMessage(`[1]`) }},
	}
	for _, tt := range tests {
		a := good
		tt.change(&a)
		if _, err := Merge(nil, []Annotation{a}); !errors.Is(err, ErrInvalidAnnotation) {
			t.Errorf("%s: err = %v, want ErrInvalidAnnotation", tt.name, err)
		}
	}
	if _, err := Merge(nil, []Annotation{good, good}); !errors.Is(err, ErrInvalidAnnotation) {
		t.Errorf("duplicate names: err = %v, want ErrInvalidAnnotation", err)
	}
	optional := Annotation{Name: GeneratedName("k", 0), Rect: Rect{math.Copysign(0, -1), 0, 0, 0}} // a negative zero prints as 0
	out, err := Merge(nil, []Annotation{optional})
	if err != nil {
		t.Fatal(err)
	}
	if want := `<square page="0" rect="0,0,0,0" name="` + optional.Name + `" flags="print"></square>`; !strings.Contains(string(out), want) {
		t.Errorf("output lacks %s:\n%s", want, out)
	}
}

func TestMergeMalformed(t *testing.T) {
	for _, tt := range malformed {
		if isBlank([]byte(tt.doc)) {
			continue // Merge starts a fresh document
		}
		if _, err := Merge([]byte(tt.doc), sampleAnnotations()); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", tt.name, err)
		}
	}
}

func TestGeneratedName(t *testing.T) {
	a, b := GeneratedName("tx/0", 1), GeneratedName("tx/0", 1)
	if a != b {
		t.Errorf("not stable: %s, %s", a, b)
	}
	if !strings.HasPrefix(a, GeneratedPrefix) || len(a) != len(GeneratedPrefix)+16 {
		t.Errorf("GeneratedName = %q", a)
	}
	// sha256("tx/0/1") starts with these 8 bytes.
	if want := GeneratedPrefix + "2cc0ef81995803ea"; a != want {
		t.Errorf("GeneratedName = %q, want %q", a, want)
	}
	seen := map[string]bool{}
	for _, k := range []string{"tx/0", "tx/1", "tx/0/1", "tx"} {
		for i := range 50 {
			n := GeneratedName(k, i)
			if seen[n] {
				t.Fatalf("collision at %s %d", k, i)
			}
			seen[n] = true
		}
	}
}
