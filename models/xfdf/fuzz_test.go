package xfdf

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzMerge checks, for any caller document and any annotation strings,
// that Merge either reports ErrMalformed (exactly when Validate does) or
// writes a well-formed, idempotent document that keeps the caller's content
// and parses back to the annotations given.
func FuzzMerge(f *testing.F) {
	for _, l := range layouts {
		f.Add([]byte(l.doc), "SIGNATURETEMPLATE", "signer-1", `{"a":1}`)
	}
	for _, m := range malformed[:20] {
		f.Add([]byte(m.doc), "", "", "")
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.xfdf"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "a\x00<&\"]]>", "\xff\x1b", "\uFFFE")
	}
	f.Fuzz(func(t *testing.T, existing []byte, subject, title, custom string) {
		cd, _ := json.Marshal(map[string]string{"v": custom})
		annots := []Annotation{
			{Name: GeneratedName(custom, 0), Page: 1, Rect: Rect{1, 2, 3, 4}, Color: "#000000", Subject: subject, Title: title, CustomData: cd},
			{Name: GeneratedName(custom, 1), Subject: title, Title: subject},
		}
		out, err := Merge(existing, annots)
		verr := Validate(existing)
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
			string(last[0].CustomData) != sanitize(string(cd)) || last[1].CustomData != nil {
			t.Fatalf("parsed back as %+v", last)
		}
	})
}
