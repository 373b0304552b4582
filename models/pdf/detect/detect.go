package detect

import (
	"bytes"
	"context"
	"io"
	"math"

	"github.com/markuproom/markuproom/models/pdf"
)

// Sources of a DetectedTag.
const (
	SourceTextTag   = "text-tag"
	SourceFormField = "form-field"
	SourceLabel     = "label"
)

// DetectedTag is a tag found in a document, in the shape of the API's
// detected-tags response (issue #20, item 4) plus the options a text tag or
// form field carries.
type DetectedTag struct {
	Type string `json:"type"`
	// Page is 1-based.
	Page int `json:"page"`
	// X, Y is the bottom-left corner in user-space points; Width and Height
	// are in points: the box lies inside the page's CropBox.
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Signer is the 1-based participant position, nil when unassigned.
	Signer *int   `json:"signer"`
	Source string `json:"source"`
	// Text is the text tag as written, the form field's name, or the label.
	Text string `json:"text"`
	// Confidence is 1 for text tags and form fields, 0..1 for suggestions.
	Confidence float64 `json:"confidence"`
	Required   bool    `json:"required"`
	DateFormat string  `json:"dateFormat,omitempty"`
	FontSize   float64 `json:"fontSize,omitempty"`
}

// DetectProblem is a text tag that could not be read; it is reported, never
// dropped silently.
type DetectProblem struct {
	Page int `json:"page"`
	// Text is the tag as written.
	Text string `json:"text"`
	// Code is a stable snake_case word (the Problem* constants).
	Code string `json:"code"`
	// Args are the specifics the problem's words name (docs/words.md):
	// the handlers word Code with them, in the reader's language.
	Args ProblemArgs `json:"args"`
}

// ProblemArgs are a problem's specifics; which are set depends on its code.
type ProblemArgs struct {
	// Value is what the tag wrote where it went wrong: the type
	// (unknown_type), the signer (bad_signer), the option (unknown_option,
	// duplicate_option), the size's or font size's value (bad_size,
	// bad_font_size), at most MaxTextRunes runes.
	Value string `json:"value,omitempty"`
	// Key is the size option's name, w or h (bad_size), or the tag's type
	// code (date_format_not_allowed).
	Key string `json:"key,omitempty"`
	// Max is the limit that was passed: a size, a font size, the highest
	// participant position, or a cap per page (too_many_*).
	Max int `json:"max,omitempty"`
	// MaxDocument is the cap per document (too_many_*).
	MaxDocument int `json:"maxDocument,omitempty"`
	// Count is how many were dropped (too_many_*).
	Count int `json:"count,omitempty"`
	// TooComplex tells a layout that was too complex to read within the
	// limits from one that could not be read (layout_not_read).
	TooComplex bool `json:"tooComplex,omitempty"`
}

// Caps on what one document's detection keeps (docs/decisions.md, "Bounds
// on reading a PDF's content"): a real page has a handful of tags, a real
// document a few hundred at most. Past a cap the rest is dropped and one
// problem (ProblemTooManyTags, ProblemTooManyProblems) says how much.
const (
	// MaxTagsPerPage caps the tags kept per page (text tags first, then
	// form fields, then suggestions).
	MaxTagsPerPage = 500
	// MaxTagsPerDocument caps the tags kept per document.
	MaxTagsPerDocument = 5000
	// MaxProblemsPerPage caps the problems kept per page.
	MaxProblemsPerPage = 100
	// MaxProblemsPerDocument caps the problems kept per document.
	MaxProblemsPerDocument = 1000
	// MaxTextRunes caps a detected tag's or problem's text (the tag as
	// written, the form field's name, the label), in runes: longer ones are
	// cut; so is a problem's Args.Value. MaxDetailRunes caps a problem's
	// words, which quote the value.
	MaxTextRunes   = 255
	MaxDetailRunes = 1000
)

// DetectionFormat is the shape of a Detection made now: 2 since problems
// carry their specifics as Args instead of English words.
const DetectionFormat = 2

// Problem codes that name no one tag: what the caps dropped.
const (
	ProblemTooManyTags     = "too_many_tags"
	ProblemTooManyProblems = "too_many_problems"
)

// Detection is everything Detect finds in one document.
type Detection struct {
	// Format is DetectionFormat when the detection was made; a stored one
	// of an older format is made again (its problems had no Args).
	Format   int             `json:"format"`
	Tags     []DetectedTag   `json:"tags"`
	Problems []DetectProblem `json:"problems"`
	// work counts the comparisons suggestions made (see maxSuggestWork).
	work int
	// What the caps dropped, and from which page on.
	droppedTags, droppedProblems         int
	firstDroppedTag, firstDroppedProblem int
}

// Detect reads the document's layout within l, one page at a time, and
// finds its text tags, form fields and suggested fields. Errors are those of
// pdf.Limits.EachPageLayout: a document that is fine but too complex to
// read within the caps gives pdf.ErrTooComplex.
func Detect(ctx context.Context, l pdf.Limits, content []byte) (Detection, error) {
	_, d, err := InspectAndDetect(ctx, l, bytes.NewReader(content))
	return d, pdf.LayoutCause(err)
}

// InspectAndDetect is pdf.Limits.Inspect and Detect on one read of r (an
// upload is read once): it returns the document's Info and what it holds.
// Inspect's errors come back alone; when only the layout cannot be read it
// returns the Info and a *pdf.LayoutError (a document too complex to read
// within the caps, pdf.ErrTooComplex, is still a valid document).
func InspectAndDetect(ctx context.Context, l pdf.Limits, r io.ReadSeeker) (pdf.Info, Detection, error) {
	return InspectAndDetectEach(ctx, l, r, nil)
}

// InspectAndDetectEach is InspectAndDetect that also hands each page's
// layout, in order, to each (when not nil) on the same read: an upload's
// template fingerprint is taken from it (models/template_fingerprint.go).
func InspectAndDetectEach(ctx context.Context, l pdf.Limits, r io.ReadSeeker, each func(pdf.PageLayout)) (pdf.Info, Detection, error) {
	d := Detection{Format: DetectionFormat, Tags: []DetectedTag{}, Problems: []DetectProblem{}}
	n := 0
	clock := pdf.NewTicker(ctx)
	info, err := l.InspectLayout(ctx, r, func(p pdf.PageLayout) error {
		n++
		if each != nil {
			each(p)
		}
		return d.add(n, p, clock)
	})
	if err != nil {
		return info, Detection{}, err
	}
	d.finish()
	return info, d, nil
}

// FromLayout finds the tags of a layout read earlier.
func FromLayout(lay pdf.Layout) Detection {
	d := Detection{Format: DetectionFormat, Tags: []DetectedTag{}, Problems: []DetectProblem{}}
	clock := pdf.NewTicker(context.Background())
	for i, p := range lay.Pages {
		_ = d.add(i+1, p, clock) // a background context never ends
	}
	d.finish()
	return d
}

// add finds the tags of page n, within the caps; it stops with the
// context's error.
func (d *Detection) add(n int, p pdf.PageLayout, clock *pdf.Ticker) error {
	runs := displayRuns(p)
	found, err := textTags(n, p, runs, clock,
		max(0, min(MaxTagsPerPage, MaxTagsPerDocument-len(d.Tags))),
		max(0, min(MaxProblemsPerPage, MaxProblemsPerDocument-len(d.Problems))))
	if err != nil {
		return err
	}
	tags := found.tags
	d.drop(n, found.droppedTags, found.droppedProblems)
	fields := formFields(n, p)
	page := 0
	page = d.keepTags(n, page, tags)
	page = d.keepTags(n, page, fields)
	d.keepProblems(n, found.problems)
	if page >= MaxTagsPerPage || len(d.Tags) >= MaxTagsPerDocument {
		return nil // no room left for suggestions: none are looked for
	}
	taken := append(append([]DetectedTag(nil), tags...), fields...)
	suggested, err := suggestions(n, p, runs, taken, labelRules, &d.work, clock)
	if err != nil {
		return err
	}
	d.keepTags(n, page, suggested)
	return nil
}

// drop counts tags and problems of page n dropped by the caps.
func (d *Detection) drop(n, tags, problems int) {
	if tags > 0 && d.droppedTags == 0 {
		d.firstDroppedTag = n
	}
	if problems > 0 && d.droppedProblems == 0 {
		d.firstDroppedProblem = n
	}
	d.droppedTags += tags
	d.droppedProblems += problems
}

// keepTags adds tags of page n, of which page are kept already, within
// MaxTagsPerPage and MaxTagsPerDocument, their texts cut to MaxTextRunes;
// it returns the page's new count and counts what it drops.
func (d *Detection) keepTags(n, page int, tags []DetectedTag) int {
	for _, t := range tags {
		if page >= MaxTagsPerPage || len(d.Tags) >= MaxTagsPerDocument {
			d.drop(n, 1, 0)
			continue
		}
		t.Text = pdf.CutRunes(t.Text, MaxTextRunes)
		d.Tags = append(d.Tags, t)
		page++
	}
	return page
}

// keepProblems adds problems of page n within MaxProblemsPerPage and
// MaxProblemsPerDocument, their texts cut, and counts what it drops.
func (d *Detection) keepProblems(n int, problems []DetectProblem) {
	for i, p := range problems {
		if i >= MaxProblemsPerPage || len(d.Problems) >= MaxProblemsPerDocument {
			d.drop(n, 0, 1)
			continue
		}
		p.Text = pdf.CutRunes(p.Text, MaxTextRunes)
		p.Args.Value = pdf.CutRunes(p.Args.Value, MaxTextRunes)
		d.Problems = append(d.Problems, p)
	}
}

// finish adds one problem for each cap that dropped something.
func (d *Detection) finish() {
	if d.droppedTags > 0 {
		d.Problems = append(d.Problems, DetectProblem{Page: d.firstDroppedTag, Code: ProblemTooManyTags,
			Args: ProblemArgs{Count: d.droppedTags, Max: MaxTagsPerPage, MaxDocument: MaxTagsPerDocument}})
	}
	if d.droppedProblems > 0 {
		d.Problems = append(d.Problems, DetectProblem{Page: d.firstDroppedProblem, Code: ProblemTooManyProblems,
			Args: ProblemArgs{Count: d.droppedProblems, Max: MaxProblemsPerPage, MaxDocument: MaxProblemsPerDocument}})
	}
}

// place returns a tag of type t whose box is b (display space) on page p,
// moved and shrunk to lie inside the page, in user space, rounded to 1/100 point.
func place(p pdf.Page, t string, page int, b pdf.Box) DetectedTag {
	dw, dh := p.DisplaySize()
	w, h := math.Min(b.Width(), dw), math.Min(b.Height(), dh)
	x := math.Min(math.Max(b.LLX, 0), dw-w)
	y := math.Min(math.Max(b.LLY, 0), dh-h)
	u := p.FromDisplay(pdf.Box{LLX: x, LLY: y, URX: x + w, URY: y + h})
	// Round inward so that rounding never pushes the box out of the page.
	llx, lly := roundUp(u.LLX), roundUp(u.LLY)
	urx, ury := roundDown(u.URX), roundDown(u.URY)
	return DetectedTag{Type: t, Page: page, X: llx, Y: lly, Width: round(urx - llx), Height: round(ury - lly)}
}

func round(v float64) float64     { return math.Round(v*100) / 100 }
func roundUp(v float64) float64   { return math.Ceil(v*100-1e-6) / 100 }
func roundDown(v float64) float64 { return math.Floor(v*100+1e-6) / 100 }

// displayRuns returns the page's runs with their glyph boxes in display space.
func displayRuns(p pdf.PageLayout) []pdf.TextRun {
	out := make([]pdf.TextRun, len(p.Runs))
	for i, r := range p.Runs {
		g := make([]pdf.Box, len(r.Glyphs))
		for k, b := range r.Glyphs {
			g[k] = p.ToDisplay(b)
		}
		out[i] = pdf.TextRun{Text: r.Text, Box: p.ToDisplay(r.Box), Size: r.Size, Font: r.Font, Glyphs: g}
	}
	return out
}

// spanBox returns the union of the glyph boxes of runes [from, to) of r.
func spanBox(r pdf.TextRun, from, to int) pdf.Box {
	b := r.Glyphs[from]
	for _, g := range r.Glyphs[from+1 : to] {
		b = pdf.Box{LLX: math.Min(b.LLX, g.LLX), LLY: math.Min(b.LLY, g.LLY), URX: math.Max(b.URX, g.URX), URY: math.Max(b.URY, g.URY)}
	}
	return b
}

// overlap returns the area of the intersection of a and b over the area of
// the smaller one (0 when they do not meet).
func overlap(a, b pdf.Box) float64 {
	w := math.Min(a.URX, b.URX) - math.Max(a.LLX, b.LLX)
	h := math.Min(a.URY, b.URY) - math.Max(a.LLY, b.LLY)
	if w <= 0 || h <= 0 {
		return 0
	}
	small := math.Min(a.Width()*a.Height(), b.Width()*b.Height())
	if small <= 0 {
		return 0
	}
	return w * h / small
}
