// Package content is the content-stream interpreter behind pdf.ReadLayout:
// it lexes a page's content streams, follows the graphics and text state far
// enough to place every glyph (fonts, encodings, ToUnicode CMaps) and every
// straight line, groups the glyphs into text runs, reads the page's form
// field widgets, and bounds all of that work (operators, glyphs, codes,
// forms, bytes lexed, time). Package pdf reads and checks the document and
// hands each page to a Reader; callers use pdf's entry points.
package content

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Caps on the work of reading a document's layout, beyond the decode caps of
// pdf.Limits (which bound every stream read here too, through Streams).
const (
	// maxLayoutOps caps the content stream operators interpreted per
	// document, form XObjects counted each time they are drawn and each
	// element of a TJ array counted as one more (about a second of work).
	maxLayoutOps = 4_000_000
	// maxLayoutGlyphs caps the glyphs placed per document, counted in runes
	// (a code whose ToUnicode text is several runes gets a box per rune).
	maxLayoutGlyphs = 5_000_000
	// maxPageGlyphs caps the glyphs of one page, in runes (what is held at
	// once while pages are read one by one).
	maxPageGlyphs = 200_000
	// maxLayoutCodes caps the character codes shown per document, placed or
	// not: text at font size 0, or codes without text, are work as well.
	maxLayoutCodes = 10_000_000
	// maxFormDepth caps the nesting of form XObjects.
	maxFormDepth = 12
	// maxFormDraws caps the form XObjects drawn per document.
	maxFormDraws = 100_000
	// maxGraphicsDepth caps the q/Q nesting that is remembered.
	maxGraphicsDepth = 256
	// maxPathPoints caps the points kept of one path (all its subpaths).
	maxPathPoints = 100_000
	// maxShapesPerPage caps the rules and rectangles kept per page.
	maxShapesPerPage = 20_000
)

// TextRun is a stretch of text on one line as drawn: glyphs of one size and
// direction that follow each other with at most about an em between them (a
// wider gap starts a new run; a gap of more than a fifth of an em between
// two glyphs that are not spaces reads as a space).
type TextRun struct {
	Text string `json:"text"`
	// Box is the run's bounding box in user space: from the descent of its
	// font to one em above it, along the advance widths of its glyphs.
	Box Box `json:"box"`
	// Size is the font size in user-space points.
	Size float64 `json:"size"`
	// Font is the font's base name without a subset prefix.
	Font string `json:"font"`
	// Glyphs holds the box of each rune of Text, in order.
	Glyphs []Box `json:"-"`
}

// Form field widget kinds (the field type /FT with its flags).
const (
	WidgetSignature  = "signature"
	WidgetText       = "text"
	WidgetCheckbox   = "checkbox"
	WidgetRadio      = "radio"
	WidgetPushButton = "pushbutton"
	WidgetChoice     = "choice"
)

// Widget is a form field's widget annotation on a page.
type Widget struct {
	// Name is the field's fully qualified name ("parent.child").
	Name string `json:"name"`
	// Kind is one of the Widget* constants.
	Kind string `json:"kind"`
	// Box is the widget's /Rect in user space.
	Box Box `json:"box"`
	// Required and ReadOnly are the field's flags.
	Required bool `json:"required"`
	ReadOnly bool `json:"readOnly"`
}

// ErrTooComplex reports a document whose page content passes the caps on
// the work of reading its layout (operators, glyphs, codes shown, forms
// drawn, bytes lexed, time). The document itself may be fine: only its
// layout is not read.
var ErrTooComplex = errors.New("the PDF's page content is too complex to read within the limits")

// errLayoutTooBig reports a document whose content passes one of the caps.
func errLayoutTooBig(what string, limit int) error {
	return fmt.Errorf("%w: more than %d %s", ErrTooComplex, limit, what)
}

// Streams decodes the streams the interpreter reads (page contents, form
// XObjects, CMaps) within the document's decode caps.
type Streams interface {
	// Stream returns the decoded data of the stream o (nil when o is not a
	// readable stream), decoding at most max bytes of it; keep tells whether
	// a stream read again (forms, CMaps) is worth keeping.
	Stream(o types.Object, max int64, keep bool) []byte
	// Err is the first decode cap passed, if any.
	Err() error
}

// Page is what one page's content streams draw, in user space and limited
// to what lies inside the page's CropBox.
type Page struct {
	Runs          []TextRun
	Rules         []Box
	VerticalRules []Box
	Rects         []Box
}

// Reader interprets the pages of one document in turn, sharing fonts and
// decoded streams between them and one work budget across them.
type Reader struct {
	xrt  *model.XRefTable
	work *budget
	in   *interpreter
}

// NewReader starts reading the pages of the document xrt, with at most
// maxTime of work (past it, ErrTooComplex) and until ctx ends.
func NewReader(ctx context.Context, xrt *model.XRefTable, streams Streams, maxTime time.Duration) *Reader {
	work := newBudget(ctx, maxTime)
	return &Reader{xrt: xrt, work: work, in: &interpreter{
		work: work,
		xrt:  xrt,
		read: streams,
		fonts: &fontCache{xrt: xrt, read: streams, work: work,
			fonts: map[int]*textFont{}, direct: map[fontKey]*textFont{}, cmaps: map[int]map[uint32]string{}},
	}}
}

// Check reads the clock and the context now: the first reason to stop, if
// any (between pages, and so after the caller's work on the last one).
func (r *Reader) Check() error { return r.work.check(true) }

// Page interprets the content of the page dictionary d with resources res.
func (r *Reader) Page(d, res types.Dict, crop Box) (Page, error) {
	return r.in.page(d, res, crop)
}

// Widgets lists the visible form field widgets of the page dictionary d
// that lie inside crop.
func (r *Reader) Widgets(d types.Dict, crop Box) ([]Widget, error) {
	return widgets(r.xrt, d, crop, r.work)
}
