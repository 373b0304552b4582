package models

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/markuproom/markuproom/models/pdf/anchor"
	"github.com/markuproom/markuproom/models/tagtype"
)

// Limits of anchorTags (an extension of the transaction replace: AnchorTag in
// the OpenAPI document; docs/decisions.md, "Anchor strings and placement in
// rooms").
const (
	// MaxAnchorTags is how many anchors one document may list.
	MaxAnchorTags = 100
	// MaxAnchorLength bounds an anchor string (finding it costs its length per glyph of text).
	MaxAnchorLength = 200
)

// AnchorTag places a tag at occurrences of a string in a document's text
// (DocuSign-style anchor tabs): the tag's bottom-left corner is the
// occurrence's bottom-left corner plus the offsets, in points on the page as
// it is shown (x to the right, y up).
type AnchorTag struct {
	Anchor           string
	Type             string
	SignerID         string
	XOffset, YOffset float64
	// Width and Height are the tag's size as shown; zero means the type's default size.
	Width, Height float64
	// Occurrence is 0 for every occurrence, else which one (1-based; "first" is 1).
	Occurrence    int
	CaseSensitive bool
	WholeWord     bool
	// IgnoreMissing is ifMissing "ignore": no occurrence places no tag
	// (else the request is refused with anchor_not_found).
	IgnoreMissing bool
}

// parseAnchorTag reads one entry of a document's anchorTags.
func parseAnchorTag(p *Problems, ptr string, raw jsonNode, tagTypeCodes []string) (AnchorTag, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return AnchorTag{}, false
	}
	var a AnchorTag
	a.Anchor, _ = o.str("anchor", true, MaxAnchorLength)
	if o.has("anchor") && strings.TrimSpace(a.Anchor) == "" {
		p.Add(o.at("anchor"), "empty", "problem.anchor.empty")
	}
	a.Type, _ = o.enum("type", true, tagTypeCodes)
	a.SignerID, _ = o.str("signerId", true, MaxShortTextLength)
	a.XOffset, _ = o.number("xOffset", false, -MaxCoordinate, MaxCoordinate)
	a.YOffset, _ = o.number("yOffset", false, -MaxCoordinate, MaxCoordinate)
	for _, f := range []struct {
		name string
		v    *float64
	}{{"width", &a.Width}, {"height", &a.Height}} {
		*f.v, _ = o.number(f.name, false, 0, MaxCoordinate)
		if o.has(f.name) && *f.v == 0 {
			p.Add(o.at(f.name), "out_of_range", "problem.field.positive", "field", Quoted(f.name))
		}
	}
	if occ, ok := o.raw("occurrence"); ok {
		switch {
		case occ.kind == "string" && decodeJSONString(occ.raw) == "all":
		case occ.kind == "string" && decodeJSONString(occ.raw) == "first":
			a.Occurrence = 1
		case occ.kind == "number":
			a.Occurrence, _ = o.integer("occurrence", false, 1, 100000)
		default:
			p.Add(o.at("occurrence"), "invalid_value", "problem.anchor.occurrence")
		}
	}
	if b := o.boolean("caseSensitive"); b != nil {
		a.CaseSensitive = *b
	}
	a.WholeWord = true
	if b := o.boolean("wholeWord"); b != nil {
		a.WholeWord = *b
	}
	if v, ok := o.enum("ifMissing", false, []string{"error", "ignore"}); ok {
		a.IgnoreMissing = v == "ignore"
	}
	o.finish()
	return a, true
}

// expandAnchors turns every document's anchorTags into ordinary tags,
// appended after the tags the request lists, each with customData naming the
// anchor it came from; the anchors themselves are then dropped (they are not
// stored). Each distinct document with anchors is read once per request
// (however many times the request lists it) and searched in a PDF worker,
// within MaxAnchorSearch. An anchor with no occurrence (and ifMissing
// "error"), or whose tag would leave its page, is a 422 naming the anchor.
func (s *Store) expandAnchors(ctx context.Context, in *TransactionInput, docs map[string]*Document) error {
	search := anchorSearch{place: s.placeAnchors, budget: MaxAnchorSearch}
	return search.expand(ctx, in, docs)
}

// placeAnchors places one document's anchors, read in a PDF worker.
func (s *Store) placeAnchors(ctx context.Context, doc *Document, req anchor.Request) (res anchor.Result, err error) {
	err = s.withStoredFile(ctx, doc, func(path string) error {
		res, err = s.pdf.placeAnchors(ctx, req, path)
		return err
	})
	return res, err
}

// anchorQuery is what the search needs of a, its size resolved.
func anchorQuery(a AnchorTag) anchor.Query {
	tt, _ := tagtype.ByCode(a.Type)
	return anchor.Query{Anchor: a.Anchor, CaseSensitive: a.CaseSensitive, WholeWord: a.WholeWord, Occurrence: a.Occurrence,
		IgnoreMissing: a.IgnoreMissing, XOffset: a.XOffset, YOffset: a.YOffset,
		Width: orDefault(a.Width, tt.DefaultWidth), Height: orDefault(a.Height, tt.DefaultHeight)}
}

// anchoredTags are the tags a placed at its occurrences, each with
// customData naming the anchor and the occurrence.
func anchoredTags(a AnchorTag, placed []anchor.Tag) []TagInput {
	tags := make([]TagInput, 0, len(placed))
	for _, t := range placed {
		cd, _ := json.Marshal(struct {
			Anchor     string `json:"anchor"`
			Occurrence int    `json:"anchorOccurrence"`
		}{a.Anchor, t.Occurrence})
		tags = append(tags, TagInput{
			Type: a.Type, X: t.Box.LLX, Y: t.Box.LLY, Width: t.Box.Width(), Height: t.Box.Height(),
			SignerID: a.SignerID, CustomData: cd, Page: t.Page,
		})
	}
	return tags
}

// anchorNotFound is the message of an anchor string the document's text
// does not hold (as often as asked).
func anchorNotFound(a AnchorTag) Message {
	if a.Occurrence > 1 {
		return Msg("problem.anchor.not_found_times", "anchor", Quoted(truncateForDetail(a.Anchor)), "times", a.Occurrence)
	}
	return Msg("problem.anchor.not_found", "anchor", Quoted(truncateForDetail(a.Anchor)))
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
