package models

import (
	"context"
	"errors"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/anchor"
)

// Limits of one request's anchor search (docs/decisions.md, "Anchor search
// within a budget").
const (
	// MaxAnchorSearch bounds the characters of text one request's anchors
	// may scan: each anchor costs its document's text plus itself, each
	// distinct document its text once more (reading and preparing it). The
	// search scans about 500 million characters a second, so this is a
	// quarter of a second of work; a 300-page contract (about a million
	// characters) with 100 anchors fits. Past it the request is a 422
	// anchor_search_too_large.
	MaxAnchorSearch int64 = 128 << 20
	// MaxAnchorPlacedTags bounds the tags one request's anchors place in all
	// its documents together (about what the largest JSON body can list).
	MaxAnchorPlacedTags = 10 * MaxTagsPerDocument
)

// anchorSearch expands the anchors of one request.
type anchorSearch struct {
	// place places one document's anchors (Store.placeAnchors, in a PDF worker).
	place func(context.Context, *Document, anchor.Request) (anchor.Result, error)
	// budget is what is left of MaxAnchorSearch.
	budget int64
	// placed counts the tags placed so far.
	placed int
}

// expand places every listed document's anchors. Listings of one document
// share one read of its layout and one prepared text; problems are reported
// in the order of the listings. The search stops at the first listing past
// the budget (or past MaxAnchorPlacedTags), with that one problem, and at
// ctx's end with its error.
func (a *anchorSearch) expand(ctx context.Context, in *TransactionInput, docs map[string]*Document) error {
	var order []*Document
	listings := map[*Document][]int{}
	for i := range in.Documents {
		d := &in.Documents[i]
		doc := docs[d.GCSRefID]
		if len(d.AnchorTags) == 0 || doc == nil {
			d.AnchorTags = nil
			continue // an unknown document is reported by checkReferences
		}
		if _, ok := listings[doc]; !ok {
			order = append(order, doc)
		}
		listings[doc] = append(listings[doc], i)
	}
	found := make([]Problems, len(in.Documents))
	for _, doc := range order {
		if err := a.searchDocument(ctx, in, doc, listings[doc], found); err != nil {
			return err
		}
	}
	var problems Problems
	for i := range in.Documents {
		in.Documents[i].AnchorTags = nil
		problems.list = append(problems.list, found[i].list...)
	}
	return problems.Err(KindUnprocessable, "problem.summary.tx_unprocessable")
}

// searchDocument reads doc once and places the anchors of each of its
// listings (indexes into in.Documents), recording problems in found.
func (a *anchorSearch) searchDocument(ctx context.Context, in *TransactionInput, doc *Document, listings []int, found []Problems) error {
	req := anchor.Request{Budget: a.budget, Placed: a.placed, MaxTagsPerDocument: MaxTagsPerDocument, MaxPlaced: MaxAnchorPlacedTags}
	for _, i := range listings {
		d := &in.Documents[i]
		l := anchor.Listing{Tags: len(d.Tags), Queries: make([]anchor.Query, len(d.AnchorTags))}
		for j, at := range d.AnchorTags {
			l.Queries[j] = anchorQuery(at)
		}
		req.Listings = append(req.Listings, l)
	}
	res, err := a.place(ctx, doc, req)
	if errors.Is(err, pdf.ErrTooComplex) {
		for _, i := range listings {
			found[i].Add(anchorsPointer(i), "anchor_text_unreadable", "problem.anchor.unreadable")
		}
		return nil
	}
	if err != nil {
		return err
	}
	a.budget, a.placed = res.Budget, res.Placed
	if st := res.Stop; st != nil {
		ptr := anchorsPointer(listings[st.Listing])
		if st.Code == anchor.StopBudget {
			return Unprocessable(ptr, "anchor_search_too_large", "problem.anchor.search_too_large", "max", MaxAnchorSearch, "size", res.TextSize)
		}
		return Unprocessable(ptr, "too_many_tags", "problem.anchor.too_many_placed", "max", MaxAnchorPlacedTags)
	}
	for k, lr := range res.Listings {
		i := listings[k]
		d := &in.Documents[i]
		ptr := anchorsPointer(i)
		for j, o := range lr.Outcomes {
			at := d.AnchorTags[j]
			switch o.Problem {
			case anchor.ProblemNotFound:
				found[i].AddMessage(pointer(ptr, j), "anchor_not_found", anchorNotFound(at))
			case anchor.ProblemOffPage:
				found[i].Add(pointer(ptr, j), "anchor_tag_off_page", "problem.anchor.off_page", "occurrence", o.Occurrence, "page", o.Page)
			default:
				d.Tags = append(d.Tags, anchoredTags(at, o.Tags)...)
			}
		}
		if lr.TooManyTags {
			found[i].Add(ptr, "too_many_tags", "problem.anchor.too_many_tags", "max", MaxTagsPerDocument)
		}
	}
	return nil
}

// anchorsPointer is the JSON pointer of document i's anchorTags.
func anchorsPointer(i int) string { return pointer(pointer("#/documents", i), "anchorTags") }
