package anchor

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// The linear matcher finds exactly what detect.FindText (the definition)
// finds: random lines and anchors over a small alphabet with spaces, case
// pairs, a non-ASCII case pair and letters of words next to non-word marks.
func TestTextFindsWhatFindTextFinds(t *testing.T) {
	alphabet := []rune("aAbB ßẞ\t-1")
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		r := make([]rune, n)
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(r)
	}
	for round := range 400 {
		var lines []string
		for range 1 + rng.IntN(4) {
			lines = append(lines, word(rng.IntN(40)))
		}
		lay := pdftest.LinesLayout(lines...)
		text := NewText(lay)
		for range 10 {
			anchor := word(1 + rng.IntN(4))
			if strings.TrimSpace(anchor) == "" {
				continue
			}
			for _, cs := range []bool{false, true} {
				for _, ww := range []bool{false, true} {
					want := detect.FindText(lay, anchor, cs, ww)
					got, err := text.Find(context.Background(), anchor, cs, ww, 1000)
					if err != nil || !reflect.DeepEqual(got, want) {
						t.Fatalf("round %d, lines %q, anchor %q, caseSensitive %v, wholeWord %v:\ngot  %v (%v)\nwant %v", round, lines, anchor, cs, ww, got, err, want)
					}
				}
			}
		}
	}
}

// BenchmarkTextFind is the matcher's worst case for a naive search: a
// text of one repeated letter and a long anchor that fails at its last rune.
func BenchmarkTextFind(b *testing.B) {
	text := NewText(pdftest.LinesLayout(strings.Repeat("a", 1<<20)))
	anchor := strings.Repeat("a", 199) + "b"
	b.SetBytes(text.Size())
	for b.Loop() {
		if _, err := text.Find(context.Background(), anchor, false, false, 1); err != nil {
			b.Fatal(err)
		}
	}
}
