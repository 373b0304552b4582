package templatematch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A query scores only the entries that share a band with it: among 1,000
// documents of one office (a shared letterhead, their own text), a copy of
// one of them meets a handful, not the thousand.
func TestQueryLooksOnlyAtCandidates(t *testing.T) {
	text := func(seed uint64, name string) string {
		r := rand.New(rand.NewPCG(seed, 2))
		words := make([]string, 300)
		for i := range words {
			words[i] = fmt.Sprintf("w%c%c%c", 'a'+r.IntN(26), 'a'+r.IntN(26), 'a'+r.IntN(5))
		}
		return "HARBOR AND PRAIRIE REALTY GROUP 200 Main Street phone " + strings.Join(words, " ") + " signed by " + name
	}
	var x Index[int]
	for i := range 1000 {
		x.Add(i, FingerprintOf([]Page{{Width: 612, Height: 792, Text: text(uint64(i), "Li Wei")}}))
	}
	q := FingerprintOf([]Page{{Width: 612, Height: 792, Text: text(77, "Jonathan Whitfield")}})
	found := x.candidates(q)
	if len(found) > 20 {
		t.Fatalf("%d candidates of 1,000", len(found))
	}
	if got := x.Query(q, 5, 0.6); len(got) != 1 || got[0].Key != 77 {
		t.Fatalf("query: %v", got)
	}
	t.Logf("%d candidates of 1,000 scored", len(found))
}
