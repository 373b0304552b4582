package anchor

import (
	"context"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models/pdf"
)

// Query is one anchor of a listing: where its tags go relative to each
// occurrence (offsets and size in points on the page as shown, x to the
// right, y up).
type Query struct {
	Anchor        string  `json:"anchor"`
	CaseSensitive bool    `json:"caseSensitive,omitempty"`
	WholeWord     bool    `json:"wholeWord,omitempty"`
	Occurrence    int     `json:"occurrence,omitempty"`
	IgnoreMissing bool    `json:"ignoreMissing,omitempty"`
	XOffset       float64 `json:"xOffset"`
	YOffset       float64 `json:"yOffset"`
	Width         float64 `json:"width"`
	Height        float64 `json:"height"`
}

// Listing is one listing of the document in a request: the tags it lists
// already and its anchors.
type Listing struct {
	Tags    int     `json:"tags"`
	Queries []Query `json:"queries"`
}

// Request is every listing of one document in a request, with what is left
// of the request's budget and caps.
type Request struct {
	Listings []Listing `json:"listings"`
	// Budget is what is left of the characters the request may scan.
	Budget int64 `json:"budget"`
	// Placed is how many tags the request's anchors placed before.
	Placed int `json:"placed"`
	// MaxTagsPerDocument caps one listing's tags; MaxPlaced the request's
	// placed tags together.
	MaxTagsPerDocument int `json:"maxTagsPerDocument"`
	MaxPlaced          int `json:"maxPlaced"`
}

// Problem codes of one anchor.
const (
	// ProblemNotFound: the anchor does not occur (and IgnoreMissing is false).
	ProblemNotFound = "anchor_not_found"
	// ProblemOffPage: the tag of occurrence Outcome.Occurrence, on
	// Outcome.Page, would leave its page.
	ProblemOffPage = "anchor_tag_off_page"
)

// Codes of a Stop.
const (
	// StopBudget: the listing would pass the request's budget of characters.
	StopBudget = "anchor_search_too_large"
	// StopTooManyTags: the request's anchors placed more than MaxPlaced tags.
	StopTooManyTags = "too_many_tags"
)

// Tag is a tag placed at an occurrence, in user space.
type Tag struct {
	Page       int     `json:"page"`
	Box        pdf.Box `json:"box"`
	Occurrence int     `json:"occurrence"`
}

// Outcome is what one anchor placed, or its problem.
type Outcome struct {
	Tags       []Tag  `json:"tags,omitempty"`
	Problem    string `json:"problem,omitempty"`
	Occurrence int    `json:"occurrence,omitempty"`
	Page       int    `json:"page,omitempty"`
}

// ListingResult is one listing's outcomes, one per anchor searched.
type ListingResult struct {
	Outcomes []Outcome `json:"outcomes"`
	// TooManyTags: the listing passed MaxTagsPerDocument at its last
	// outcome, and its further anchors were not searched.
	TooManyTags bool `json:"tooManyTags,omitempty"`
}

// Stop ends the whole request's search at a listing.
type Stop struct {
	Listing int    `json:"listing"`
	Code    string `json:"code"`
}

// Result is what Place found.
type Result struct {
	// TextSize is the characters of the document's text.
	TextSize int64           `json:"textSize"`
	Listings []ListingResult `json:"listings"`
	// Stop, when set, refuses the request; Listings are then incomplete.
	Stop *Stop `json:"stop,omitempty"`
	// Budget and Placed are the request's, after this document.
	Budget int64 `json:"budget"`
	Placed int   `json:"placed"`
}

// Place searches lay's text once prepared for each listing's anchors, in
// order. Each listing first spends its cost from the budget (its text once
// per anchor plus the anchor; the document's text once more for the first),
// then places each anchor's tags at its occurrences: up to Occurrence's
// one, else as many as the listing may still hold. A listing past
// MaxTagsPerDocument stops there; the request stops at the listing that
// passes the budget or MaxPlaced. It looks at ctx as it scans.
func Place(ctx context.Context, lay pdf.Layout, req Request) (Result, error) {
	text := NewText(lay)
	res := Result{TextSize: text.Size(), Budget: req.Budget, Placed: req.Placed, Listings: []ListingResult{}}
	if !res.spend(text.Size()) {
		res.Stop = &Stop{Listing: 0, Code: StopBudget}
		return res, nil
	}
	for i, l := range req.Listings {
		var cost int64
		for _, q := range l.Queries {
			cost += text.Size() + int64(utf8.RuneCountInString(q.Anchor))
		}
		if !res.spend(cost) {
			res.Stop = &Stop{Listing: i, Code: StopBudget}
			return res, nil
		}
		tags := l.Tags
		lr := ListingResult{Outcomes: []Outcome{}}
		for _, q := range l.Queries {
			o, err := place(ctx, text, q, req.MaxTagsPerDocument+1-tags)
			if err != nil {
				return Result{}, err
			}
			lr.Outcomes = append(lr.Outcomes, o)
			if o.Problem != "" {
				continue
			}
			tags += len(o.Tags)
			res.Placed += len(o.Tags)
			if res.Placed > req.MaxPlaced {
				res.Listings = append(res.Listings, lr)
				res.Stop = &Stop{Listing: i, Code: StopTooManyTags}
				return res, nil
			}
			if tags > req.MaxTagsPerDocument {
				lr.TooManyTags = true
				break
			}
		}
		res.Listings = append(res.Listings, lr)
	}
	return res, nil
}

// spend takes cost from the budget; false when too little is left.
func (r *Result) spend(cost int64) bool {
	if cost > r.Budget {
		return false
	}
	r.Budget -= cost
	return true
}

// place places q's tags in text (at most limit of them), or says why it cannot.
func place(ctx context.Context, text *Text, q Query, limit int) (Outcome, error) {
	if q.Occurrence > 0 {
		limit = q.Occurrence
	}
	matches, err := text.Find(ctx, q.Anchor, q.CaseSensitive, q.WholeWord, limit)
	if err != nil {
		return Outcome{}, err
	}
	if q.Occurrence > 0 {
		if q.Occurrence > len(matches) {
			matches = nil
		} else {
			matches = matches[q.Occurrence-1 : q.Occurrence]
		}
	}
	if len(matches) == 0 {
		if q.IgnoreMissing {
			return Outcome{}, nil
		}
		return Outcome{Problem: ProblemNotFound}, nil
	}
	tags := make([]Tag, 0, len(matches))
	for k, m := range matches {
		occurrence := k + 1
		if q.Occurrence > 0 {
			occurrence = q.Occurrence
		}
		page := text.lay.Pages[m.Page-1].Page
		x, y := m.Display.LLX+q.XOffset, m.Display.LLY+q.YOffset
		box := page.FromDisplay(pdf.Box{LLX: x, LLY: y, URX: x + q.Width, URY: y + q.Height})
		if !page.CropBox.Contains(box.LLX, box.LLY, box.Width(), box.Height()) {
			return Outcome{Problem: ProblemOffPage, Occurrence: occurrence, Page: m.Page}, nil
		}
		tags = append(tags, Tag{Page: m.Page, Box: box, Occurrence: occurrence})
	}
	return Outcome{Tags: tags}, nil
}
