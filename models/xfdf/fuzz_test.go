package xfdf

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMerge checks, for any caller document, any annotation strings and
// any page, rectangle and colour of the first annotation, that Merge either
// reports ErrInvalidAnnotation (exactly when the annotation breaks a rule:
// negative page, a coordinate that is not finite, corners out of order, a
// colour that is not #RRGGBB) or ErrMalformed (exactly when Validate does),
// or writes a well-formed, idempotent document that keeps the caller's
// content and parses back to the annotations given, page, rectangle and
// colour included. Seeds beyond these are in testdata/fuzz/FuzzMerge.
func FuzzMerge(f *testing.F) {
	for _, l := range layouts {
		f.Add([]byte(l.doc), "SIGNATURETEMPLATE", "signer-1", `{"a":1}`, 0, 72.0, 100.0, 216.0, 136.0, "#1A2B3C")
	}
	for _, m := range malformed[:20] {
		f.Add([]byte(m.doc), "", "", "", 1, 1.0, 2.0, 3.0, 4.0, "")
	}
	f.Add([]byte(layouts[0].doc), "s", "t", "c", -1, math.NaN(), math.Inf(1), math.Copysign(0, -1), 1e308, "#xyzxyz")
	f.Add([]byte(""), "s", "t", "c", 1<<40, -14400.0, -1e-300, 5e-324, 14400.0, "#ffffff")
	files, _ := filepath.Glob(filepath.Join("testdata", "*.xfdf"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "a\x00<&\"]]>", "\xff\x1b", "\uFFFE", 2, 0.5, 0.25, 0.5, 0.25, "#000000")
	}
	f.Fuzz(func(t *testing.T, existing []byte, subject, title, custom string, page int, x1, y1, x2, y2 float64, color string) {
		cd, _ := json.Marshal(map[string]string{"v": custom})
		rect := Rect{x1, y1, x2, y2}
		annots := []Annotation{
			{Name: GeneratedName(custom, 0), Page: page, Rect: rect, Color: color, Subject: subject, Title: title, CustomData: cd},
			{Name: GeneratedName(custom, 1), Subject: title, Title: subject},
		}
		out, err := Merge(existing, annots)
		verr := Validate(existing)
		finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
		validColor := color == "" || (len(color) == 7 && color[0] == '#' && strings.Trim(color[1:], "0123456789abcdefABCDEF") == "")
		badAnnotation := page < 0 || !finite(x1) || !finite(y1) || !finite(x2) || !finite(y2) || x1 > x2 || y1 > y2 || !validColor
		if errors.Is(err, ErrInvalidAnnotation) != badAnnotation {
			t.Fatalf("page %d rect %v colour %q: Merge error %v", page, rect, color, err)
		}
		if badAnnotation {
			return
		}
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Merge: %v", err)
			}
			if verr == nil {
				t.Fatalf("Validate accepts what Merge rejects: %v", err)
			}
			return
		}
		blank := isBlank(existing)
		if verr != nil && !blank {
			t.Fatalf("Merge accepts what Validate rejects: %v", verr)
		}
		checkHostileOutput(t, subject+title, out)
		if ref := mergeWithEncodingXML(t, existing, annots); !bytes.Equal(out, ref) {
			t.Fatalf("the one-pass writer differs from encoding/xml\n--- written ---\n%q\n--- encoding/xml ---\n%q", out, ref)
		}
		if text, err := MergeText(existing, annots); err != nil || text != string(out) {
			t.Fatalf("MergeText differs from Merge (err %v)", err)
		}
		again, err := Merge(out, annots)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent (err %v)\n--- once ---\n%q\n--- twice ---\n%q", err, out, again)
		}
		if !blank {
			if got, want := callerView(t, out), callerView(t, existing); got != want {
				t.Fatalf("caller content changed:\n got %s\nwant %s", got, want)
			}
		}
		parsed, err := Parse(out)
		if err != nil || len(parsed) < 2 {
			t.Fatalf("Parse: %v, %d annotations", err, len(parsed))
		}
		last := parsed[len(parsed)-2:]
		if last[0].Subject != sanitize(subject) || last[0].Title != sanitize(title) || last[1].Subject != sanitize(title) ||
			last[0].Name != annots[0].Name || last[1].Name != annots[1].Name || last[0].Rect != annots[0].Rect ||
			string(last[0].CustomData) != sanitize(string(cd)) || last[1].CustomData != nil ||
			last[0].Page != page || !sameRect(last[0].Rect, rect) || !strings.EqualFold(last[0].Color, color) {
			t.Fatalf("parsed back as %+v", last)
		}
	})
}

// sameRect compares rectangles as numbers (-0 and 0 are the same corner).
func sameRect(a, b Rect) bool {
	return a.X1 == b.X1 && a.Y1 == b.Y1 && a.X2 == b.X2 && a.Y2 == b.Y2
}

// mergeWithEncodingXML is Merge written the way it was before the one-pass
// writer: every generated annotation built as an element (Annotation.element)
// and the whole document encoded by encoding/xml's Encoder (encodeXML). The
// writer must give the same bytes.
func mergeWithEncodingXML(t *testing.T, existing []byte, annots []Annotation) []byte {
	t.Helper()
	doc := freshDocument()
	if !isBlank(existing) {
		var err error
		if doc, err = decode(existing); err != nil {
			t.Fatalf("decode: %v", err)
		}
	}
	place(doc.root, annots)
	var buf bytes.Buffer
	if err := encodeXML(&buf, doc); err != nil {
		t.Fatalf("encodeXML: %v", err)
	}
	return buf.Bytes()
}
