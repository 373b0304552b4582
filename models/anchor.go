package models

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
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
		p.Add(o.at("anchor"), "empty", "The anchor must hold some text.")
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
			p.Add(o.at(f.name), "out_of_range", "The field %q must be greater than 0.", f.name)
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
			p.Add(o.at("occurrence"), "invalid_value", "occurrence is \"all\", \"first\" or a whole number from 1.")
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
// (however many times the request lists it), within a PDF slot and the
// decode caps, and searched within MaxAnchorSearch. An anchor with no
// occurrence (and ifMissing "error"), or whose tag would leave its page, is a
// 422 naming the anchor.
func (s *Store) expandAnchors(ctx context.Context, in *TransactionInput, docs map[string]*Document) error {
	search := anchorSearch{read: s.documentLayout, budget: MaxAnchorSearch}
	return search.expand(ctx, in, docs)
}

// documentLayout reads a stored document's text layout.
func (s *Store) documentLayout(ctx context.Context, doc *Document) (lay pdf.Layout, err error) {
	err = s.readStoredPDF(ctx, doc, func(content DocumentContent) error {
		lay, err = s.pdf.Limits().ReadLayoutFrom(ctx, content)
		return err
	})
	return lay, err
}

// anchorTags places anchor j's tags in text (at most limit of them), or says
// why it cannot (a problem code and detail).
func anchorTags(ctx context.Context, text *anchorText, j int, a AnchorTag, limit int) ([]TagInput, string, string, error) {
	if a.Occurrence > 0 {
		limit = a.Occurrence
	}
	matches, err := text.find(ctx, a.Anchor, a.CaseSensitive, a.WholeWord, limit)
	if err != nil {
		return nil, "", "", err
	}
	if a.Occurrence > 0 {
		if a.Occurrence > len(matches) {
			matches = nil
		} else {
			matches = matches[a.Occurrence-1 : a.Occurrence]
		}
	}
	if len(matches) == 0 {
		if a.IgnoreMissing {
			return nil, "", "", nil
		}
		return nil, "anchor_not_found", fmt.Sprintf("The anchor %q does not occur in the document's text%s.", truncateForDetail(a.Anchor), occurrenceNote(a)), nil
	}
	tt, _ := tagtype.ByCode(a.Type)
	w, h := orDefault(a.Width, tt.DefaultWidth), orDefault(a.Height, tt.DefaultHeight)
	tags := make([]TagInput, 0, len(matches))
	for k, m := range matches {
		page := text.lay.Pages[m.Page-1].Page
		x, y := m.Display.LLX+a.XOffset, m.Display.LLY+a.YOffset
		box := page.FromDisplay(pdf.Box{LLX: x, LLY: y, URX: x + w, URY: y + h})
		if !page.CropBox.Contains(box.LLX, box.LLY, box.Width(), box.Height()) {
			return nil, "anchor_tag_off_page", fmt.Sprintf("The tag placed at occurrence %d of the anchor, on page %d, would leave the page; change the offsets or the size.", occurrenceNumber(a, k), m.Page), nil
		}
		cd, _ := json.Marshal(struct {
			Anchor     string `json:"anchor"`
			Occurrence int    `json:"anchorOccurrence"`
		}{a.Anchor, occurrenceNumber(a, k)})
		tags = append(tags, TagInput{
			Type: a.Type, X: box.LLX, Y: box.LLY, Width: box.Width(), Height: box.Height(),
			SignerID: a.SignerID, CustomData: cd, Page: m.Page,
		})
	}
	return tags, "", "", nil
}

// occurrenceNumber is the 1-based number of the k-th placed match.
func occurrenceNumber(a AnchorTag, k int) int {
	if a.Occurrence > 0 {
		return a.Occurrence
	}
	return k + 1
}

func occurrenceNote(a AnchorTag) string {
	if a.Occurrence > 1 {
		return fmt.Sprintf(" %d times", a.Occurrence)
	}
	return ""
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
