package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/anchor"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

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

// countingReads places anchors in lay as the PDF worker does, counting the
// reads of the document.
func countingReads(lay pdf.Layout, reads *int) func(context.Context, *Document, anchor.Request) (anchor.Result, error) {
	return func(ctx context.Context, _ *Document, req anchor.Request) (anchor.Result, error) {
		*reads++
		return anchor.Place(ctx, lay, req)
	}
}

// A document listed 100 times is read once, and each listing gets its tags.
func TestAnchorSearchReadsARepeatedDocumentOnce(t *testing.T) {
	t.Parallel()
	in := anchorInput(t, MaxDocuments, "Sign here", "Date")
	reads := 0
	s := anchorSearch{place: countingReads(pdftest.LinesLayout("Sign here:", "Date: today"), &reads), budget: MaxAnchorSearch}
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
	t.Parallel()
	line := strings.Repeat("lorem ipsum dolor sit amet ", 4000) // 108,000 characters
	anchors := make([]string, MaxAnchorTags)
	for i := range anchors {
		anchors[i] = fmt.Sprint("anchor ", i)
	}
	in := anchorInput(t, MaxDocuments, anchors...)
	reads := 0
	s := anchorSearch{place: countingReads(pdftest.LinesLayout(line), &reads), budget: MaxAnchorSearch}
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
	if !strings.Contains(ve.Errors[0].Message.String(), "108000") || reads != 1 {
		t.Errorf("message %v after %d reads", ve.Errors[0].Message, reads)
	}

	// The same request with the document listed a few times is searched.
	in = anchorInput(t, 3, anchors...)
	s = anchorSearch{place: countingReads(pdftest.LinesLayout(line), &reads), budget: MaxAnchorSearch}
	if err := s.expand(context.Background(), in, map[string]*Document{"doc": {}}); err != nil {
		t.Fatal(err)
	}
}

// Anchors that would place more tags than a document may hold stop at the
// first one past the cap; the request's anchors together stop at theirs.
func TestAnchorSearchStopsPlacingTagsAtTheCaps(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x ", MaxTagsPerDocument+500)
	in := anchorInput(t, 2, "x", "x")
	s := anchorSearch{place: countingReads(pdftest.LinesLayout(line), new(int)), budget: MaxAnchorSearch}
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
	s = anchorSearch{place: countingReads(pdftest.LinesLayout(line), new(int)), budget: MaxAnchorSearch}
	err = s.expand(context.Background(), in, map[string]*Document{"doc": {}})
	if !errors.As(err, &ve) || len(ve.Errors) != 1 || ve.Errors[0].Code != "too_many_tags" || ve.Errors[0].Pointer != "#/documents/10/anchorTags" {
		t.Fatalf("got %v, want too_many_tags at the 11th listing", err)
	}
}

// A search whose client has left stops with the context's error.
func TestAnchorSearchStopsWhenTheClientLeaves(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	in := anchorInput(t, 1, "Date")
	place := func(ctx context.Context, _ *Document, req anchor.Request) (anchor.Result, error) {
		cancel() // the client leaves while the layout is read
		return anchor.Place(ctx, pdftest.LinesLayout(strings.Repeat("a ", 100000)+"Date"), req)
	}
	s := anchorSearch{place: place, budget: MaxAnchorSearch}
	if err := s.expand(ctx, in, map[string]*Document{"doc": {}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if len(in.Documents[0].Tags) != 0 {
		t.Fatal("tags were placed after the client left")
	}
}
