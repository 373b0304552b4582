package xfdf

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestMergeGolden(t *testing.T) {
	tests := []struct {
		name   string // golden file testdata/<name>.golden.xfdf
		input  string // file under testdata/; "" for none
		annots []Annotation
		parsed []string // element names Parse must find, in order
	}{
		{"fresh", "", sampleAnnotations(), []string{"square", "square", "square"}},
		{"caller", "caller.xfdf", sampleAnnotations(), []string{"highlight", "freetext", "square", "square", "square"}},
		{"regenerate", "regenerate.xfdf", sampleAnnotations(), []string{"ink", "square", "square", "square"}},
		{"prefixed", "prefixed.xfdf", sampleAnnotations(), []string{"square", "square", "square"}},
		{"remove", "regenerate.xfdf", nil, []string{"ink"}},
		{"fresh-empty", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := readTestdata(t, tt.input)
			got, err := Merge(input, tt.annots)
			if err != nil {
				t.Fatalf("Merge: %v", err)
			}
			golden := filepath.Join("testdata", tt.name+".golden.xfdf")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Merge output differs from %s (run go test -update after checking it)\n--- got ---\n%s\n--- want ---\n%s", golden, got, want)
			}
			if err := wellFormed(got); err != nil {
				t.Errorf("output is not well-formed for encoding/xml: %v", err)
			}
			if again, err := Merge(got, tt.annots); err != nil || !bytes.Equal(again, got) {
				t.Errorf("second Merge changed the output (err %v):\n%s", err, again)
			}
			if input != nil {
				if gv, iv := callerView(t, got), callerView(t, input); gv != iv {
					t.Errorf("caller content changed:\n got %s\nwant %s", gv, iv)
				}
			}
			parsed, err := Parse(got)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var elements []string
			for _, p := range parsed {
				elements = append(elements, p.Element)
			}
			if !equalStrings(elements, tt.parsed) {
				t.Errorf("Parse found %q, want %q", elements, tt.parsed)
			}
			generated := parsed[len(parsed)-len(tt.annots):]
			for i, a := range tt.annots {
				if g := generated[i]; !g.Generated() || g.Name != a.Name || g.Page != a.Page || g.Rect != a.Rect {
					t.Errorf("annotation %d parsed as %+v, want %+v", i, g, a)
				}
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
