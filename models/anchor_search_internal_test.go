package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
)

// textLayout is a one-page layout whose runs are lines, each glyph 6 points
// wide on its line (a long line wraps onto itself every 60 glyphs, so every
// tag placed stays on the page).
func textLayout(lines ...string) pdf.Layout {
	page := pdf.PageLayout{Page: pdf.Page{MediaBox: pdf.Box{URX: 612, URY: 792}, CropBox: pdf.Box{URX: 612, URY: 792}}}
	for i, line := range lines {
		y := 700 - 14*float64(i)
		run := pdf.TextRun{Text: line, Size: 10}
		for k := range []rune(line) {
			x := 50 + 6*float64(k%60)
			run.Glyphs = append(run.Glyphs, pdf.Box{LLX: x, LLY: y, URX: x + 6, URY: y + 10})
		}
		page.Runs = append(page.Runs, run)
	}
	return pdf.Layout{Pages: []pdf.PageLayout{page}}
}

// The linear matcher finds exactly what detect.FindText (the definition)
// finds: random lines and anchors over a small alphabet with spaces, case
// pairs, a non-ASCII case pair and letters of words next to non-word marks.
func TestAnchorTextFindsWhatFindTextFinds(t *testing.T) {
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
		lay := textLayout(lines...)
		text := newAnchorText(lay)
		for range 10 {
			anchor := word(1 + rng.IntN(4))
			if strings.TrimSpace(anchor) == "" {
				continue
			}
			for _, cs := range []bool{false, true} {
				for _, ww := range []bool{false, true} {
					want := detect.FindText(lay, anchor, cs, ww)
					got, err := text.find(context.Background(), anchor, cs, ww, 1000)
					if err != nil || !reflect.DeepEqual(got, want) {
						t.Fatalf("round %d, lines %q, anchor %q, caseSensitive %v, wholeWord %v:\ngot  %v (%v)\nwant %v", round, lines, anchor, cs, ww, got, err, want)
					}
				}
			}
		}
	}
}

// anchorInput is a parsed transaction listing one document n times, each
// listing with the same anchors.
func anchorInput(t *testing.T, n int, anchors ...string) *TransactionInput {
	t.Helper()
	var list []map[string]any
	for _, a := range anchors {
		list = append(list, map[string]any{"anchor": a, "type": "SIGNATURETEMPLATE", "signerId": "p1", "ifMissing": "ignore"})
	}
	var docs []map[string]any
	for i := range n {
		docs = append(docs, map[string]any{"gcsRefId": "doc", "title": fmt.Sprint("Copy ", i), "sessionType": "esign", "type": "acknowledgment",
			"tags": []any{}, "anchorTags": list})
	}
	body, _ := json.Marshal(map[string]any{"status": "draft", "referenceId": "r", "participants": []any{}, "documents": docs})
	in, err := ParseTransactionInput(body)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// countingReads reads lay, counting the reads.
func countingReads(lay pdf.Layout, reads *int) func(context.Context, *Document) (pdf.Layout, error) {
	return func(context.Context, *Document) (pdf.Layout, error) {
		*reads++
		return lay, nil
	}
}

// A document listed 100 times is read once, and each listing gets its tags.
func TestAnchorSearchReadsARepeatedDocumentOnce(t *testing.T) {
	in := anchorInput(t, MaxDocuments, "Sign here", "Date")
	reads := 0
	s := anchorSearch{read: countingReads(textLayout("Sign here:", "Date: today"), &reads), budget: MaxAnchorSearch}
	if err := s.expand(context.Background(), in, map[string]*Document{"doc": {}}); err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("the document was read %d times, want once", reads)
	}
	for i, d := range in.Documents {
		if len(d.Tags) != 2 || d.AnchorTags != nil {
			t.Fatalf("listing %d: %d tags, anchors %v", i, len(d.Tags), d.AnchorTags)
		}
	}
}

// Past the budget of characters scanned the request is refused at the
// listing that crosses it, before that listing is searched.
func TestAnchorSearchStopsAtItsBudget(t *testing.T) {
	line := strings.Repeat("lorem ipsum dolor sit amet ", 4000) // 108,000 characters
	anchors := make([]string, MaxAnchorTags)
	for i := range anchors {
		anchors[i] = fmt.Sprint("anchor ", i)
	}
	in := anchorInput(t, MaxDocuments, anchors...)
	reads := 0
	s := anchorSearch{read: countingReads(textLayout(line), &reads), budget: MaxAnchorSearch}
	err := s.expand(context.Background(), in, map[string]*Document{"doc": {}})
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Kind != KindUnprocessable || len(ve.Errors) != 1 || ve.Errors[0].Code != "anchor_search_too_large" {
		t.Fatalf("got %v, want one anchor_search_too_large", err)
	}
	// Each listing scans 100 × 108,000 characters: the budget holds 12 of them.
	perListing := int64(MaxAnchorTags) * (int64(len(line)) + 10)
	crossing := int((MaxAnchorSearch - int64(len(line))) / perListing)
	if want := anchorsPointer(crossing); ve.Errors[0].Pointer != want {
		t.Errorf("refused at %s, want %s", ve.Errors[0].Pointer, want)
	}
	if !strings.Contains(ve.Errors[0].Detail, "108000") || reads != 1 {
		t.Errorf("detail %q after %d reads", ve.Errors[0].Detail, reads)
	}

	// The same request with the document listed a few times is searched.
	in = anchorInput(t, 3, anchors...)
	s = anchorSearch{read: countingReads(textLayout(line), &reads), budget: MaxAnchorSearch}
	if err := s.expand(context.Background(), in, map[string]*Document{"doc": {}}); err != nil {
		t.Fatal(err)
	}
}

// Anchors that would place more tags than a document may hold stop at the
// first one past the cap; the request's anchors together stop at theirs.
func TestAnchorSearchStopsPlacingTagsAtTheCaps(t *testing.T) {
	line := strings.Repeat("x ", MaxTagsPerDocument+500)
	in := anchorInput(t, 2, "x", "x")
	s := anchorSearch{read: countingReads(textLayout(line), new(int)), budget: MaxAnchorSearch}
	err := s.expand(context.Background(), in, map[string]*Document{"doc": {}})
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Errors) != 2 || ve.Errors[0].Code != "too_many_tags" || ve.Errors[1].Pointer != "#/documents/1/anchorTags" {
		t.Fatalf("got %v, want too_many_tags at each listing", err)
	}
	if n := len(in.Documents[0].Tags); n != MaxTagsPerDocument+1 {
		t.Errorf("%d tags placed, want the search to stop at %d", n, MaxTagsPerDocument+1)
	}

	line = strings.Repeat("x ", MaxTagsPerDocument-10)
	in = anchorInput(t, 11, "x")
	s = anchorSearch{read: countingReads(textLayout(line), new(int)), budget: MaxAnchorSearch}
	err = s.expand(context.Background(), in, map[string]*Document{"doc": {}})
	if !errors.As(err, &ve) || len(ve.Errors) != 1 || ve.Errors[0].Code != "too_many_tags" || ve.Errors[0].Pointer != "#/documents/10/anchorTags" {
		t.Fatalf("got %v, want too_many_tags at the 11th listing", err)
	}
}

// A search whose client has left stops with the context's error.
func TestAnchorSearchStopsWhenTheClientLeaves(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	in := anchorInput(t, 1, "Date")
	read := func(context.Context, *Document) (pdf.Layout, error) {
		cancel() // the client leaves while the layout is read
		return textLayout(strings.Repeat("a ", 100000) + "Date"), nil
	}
	s := anchorSearch{read: read, budget: MaxAnchorSearch}
	if err := s.expand(ctx, in, map[string]*Document{"doc": {}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if len(in.Documents[0].Tags) != 0 {
		t.Fatal("tags were placed after the client left")
	}
}

// BenchmarkAnchorTextFind is the matcher's worst case for a naive search: a
// text of one repeated letter and a long anchor that fails at its last rune.
func BenchmarkAnchorTextFind(b *testing.B) {
	text := newAnchorText(textLayout(strings.Repeat("a", 1<<20)))
	anchor := strings.Repeat("a", MaxAnchorLength-1) + "b"
	b.SetBytes(text.size())
	for b.Loop() {
		if _, err := text.find(context.Background(), anchor, false, false, 1); err != nil {
			b.Fatal(err)
		}
	}
}
