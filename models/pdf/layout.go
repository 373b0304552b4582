package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/markuproom/markuproom/models/pdf/content"
	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// maxHeldGlyphs caps the glyphs ReadLayout keeps for a whole document.
const maxHeldGlyphs = 1_000_000

// The content interpreter's types and errors, under the names callers use.
type (
	// TextRun is a stretch of text on one line as drawn (content.TextRun).
	TextRun = content.TextRun
	// Widget is a form field's widget annotation on a page (content.Widget).
	Widget = content.Widget
	// Box is a rectangle in PDF user-space points (content.Box).
	Box = content.Box
	// Ticker tells the long loops that read hostile input when to stop
	// (content.Ticker).
	Ticker = content.Ticker
)

// Form field widget kinds (the field type /FT with its flags).
const (
	WidgetSignature  = content.WidgetSignature
	WidgetText       = content.WidgetText
	WidgetCheckbox   = content.WidgetCheckbox
	WidgetRadio      = content.WidgetRadio
	WidgetPushButton = content.WidgetPushButton
	WidgetChoice     = content.WidgetChoice
	// MaxFieldNameRunes caps a field's name, in runes (content.MaxFieldNameRunes).
	MaxFieldNameRunes = content.MaxFieldNameRunes
	// DefaultMaxLayoutTime is the wall-clock time reading one document's
	// layout may take (content.DefaultMaxLayoutTime).
	DefaultMaxLayoutTime = content.DefaultMaxLayoutTime
)

// ErrTooComplex reports a document whose page content passes the caps on
// the work of reading its layout (content.ErrTooComplex).
var ErrTooComplex = content.ErrTooComplex

// NewTicker returns a Ticker that stops when ctx ends.
func NewTicker(ctx context.Context) *Ticker { return content.NewTicker(ctx) }

// NewTickerAt is NewTicker reading the clock now (tests pass a clock that
// moves as they say).
func NewTickerAt(ctx context.Context, now func() time.Time) *Ticker {
	return content.NewTickerAt(ctx, now)
}

// CutRunes returns s cut to at most n runes (content.CutRunes).
func CutRunes(s string, n int) string { return content.CutRunes(s, n) }

// PageLayout is what one page shows: its text, the straight rules and
// rectangles it draws, and its form field widgets, all in user space and
// limited to what lies inside the page's CropBox.
type PageLayout struct {
	Page
	Runs []TextRun `json:"runs"`
	// Rules are horizontal lines (stroked segments and thin filled
	// rectangles) as boxes as thick as they are drawn.
	Rules []Box `json:"rules"`
	// VerticalRules are vertical lines, drawn the same ways.
	VerticalRules []Box `json:"verticalRules"`
	// Rects are rectangles drawn (stroked or filled) that are not rules.
	Rects   []Box    `json:"rects"`
	Widgets []Widget `json:"widgets"`
}

// Layout is the layout of every page of a document, in page order.
type Layout struct {
	Pages []PageLayout `json:"pages"`
}

// ReadLayout is DefaultLimits().ReadLayout.
func ReadLayout(ctx context.Context, content []byte) (Layout, error) {
	return DefaultLimits().ReadLayout(ctx, content)
}

// ReadLayout returns the text runs, rules, rectangles and form field widgets
// of every page, as EachPageLayout reads them; it fails with ErrTooComplex
// when the pages together hold more than a million glyphs.
func (l Limits) ReadLayout(ctx context.Context, content []byte) (Layout, error) {
	return l.ReadLayoutFrom(ctx, bytes.NewReader(content))
}

// ReadLayoutFrom is ReadLayout reading r (a stored file need not be copied
// into memory first).
func (l Limits) ReadLayoutFrom(ctx context.Context, r io.ReadSeeker) (Layout, error) {
	var out Layout
	held := 0
	_, err := l.InspectLayout(ctx, r, func(p PageLayout) error {
		for _, run := range p.Runs {
			held += len(run.Glyphs)
		}
		if held > maxHeldGlyphs {
			return fmt.Errorf("%w: more than %d glyphs to hold", ErrTooComplex, maxHeldGlyphs)
		}
		out.Pages = append(out.Pages, p)
		return nil
	})
	if err := LayoutCause(err); err != nil {
		return Layout{}, err
	}
	return out, nil
}

// EachPageLayout calls fn with the layout of each page in turn, and stops
// at the first error fn returns (which it returns). The document is first
// inspected within l (the structural checks and the decode pre-scan), so it
// fails with the errors Inspect returns; every stream read afterwards is
// decoded within l as well, and the interpretation of content streams is
// capped in operators, glyphs (runes), codes shown, forms drawn, bytes
// lexed and wall-clock time, l.MaxLayoutTime (ErrTooComplex). Only one page
// is held at a time.
func (l Limits) EachPageLayout(ctx context.Context, content []byte, fn func(PageLayout) error) error {
	_, err := l.InspectLayout(ctx, bytes.NewReader(content), fn)
	return LayoutCause(err)
}

// LayoutError is InspectLayout's error when the document passed Inspect's
// checks but its pages' layout could not be read (Err: ErrTooComplex, a
// damaged content stream, the context's end, or what fn returned).
type LayoutError struct{ Err error }

func (e *LayoutError) Error() string { return "read the page layout: " + e.Err.Error() }

// Unwrap gives the layout's error.
func (e *LayoutError) Unwrap() error { return e.Err }

// LayoutCause returns the error a *LayoutError wraps, and any other error
// as it is: for callers that read the layout alone, whose errors are the
// layout's.
func LayoutCause(err error) error {
	var le *LayoutError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// InspectLayout is Inspect that goes on, on the same read of r (no second
// copy of the document), to call fn with each page's layout as
// EachPageLayout does. When Inspect's checks fail it returns their error and
// no Info; when only the layout fails it returns the Info and a *LayoutError,
// so a caller can accept the document without its layout.
func (l Limits) InspectLayout(ctx context.Context, r io.ReadSeeker, fn func(PageLayout) error) (info Info, err error) {
	inspected := false
	defer func() {
		if p := recover(); p != nil {
			err = malformed("internal parser failure: %v", p)
			if inspected {
				err = &LayoutError{Err: err}
			} else {
				info = Info{}
			}
		}
	}()
	doc, err := l.read(ctx, r, MaxPages, false)
	if err != nil {
		return Info{}, err
	}
	inspected = true
	if err := l.eachPage(ctx, doc, fn); err != nil {
		return doc.info, &LayoutError{Err: err}
	}
	return doc.info, nil
}

// eachPage interprets each page of doc (read and checked by read) and calls fn with it.
func (l Limits) eachPage(ctx context.Context, doc *document, fn func(PageLayout) error) error {
	l = l.withDefaults()
	streams := newStreamReader(doc.pc.XRefTable, l)
	rd := content.NewReader(ctx, doc.pc.XRefTable, streams, l.MaxLayoutTime)
	for i, p := range doc.info.Pages {
		// Between pages, and so after fn's work on the last one.
		if err := rd.Check(); err != nil {
			return err
		}
		streams.endPage()
		node := doc.nodes[i]
		res := node.resources
		if res == nil {
			res = types.Dict{}
		}
		drawn, err := rd.Page(node.dict, res, p.CropBox)
		if err != nil {
			return err
		}
		pl := PageLayout{Page: p, Runs: drawn.Runs, Rules: drawn.Rules, VerticalRules: drawn.VerticalRules, Rects: drawn.Rects}
		if pl.Widgets, err = rd.Widgets(node.dict, p.CropBox); err != nil {
			return err
		}
		if err := fn(pl); err != nil {
			return err
		}
	}
	return nil
}

// maxKeptStreamBytes caps the decoded streams the layout reader keeps from
// page to page (forms and CMaps that several pages read).
const maxKeptStreamBytes = 32 << 20

// streamReader decodes streams within the decode caps. Forms and CMaps are
// read again (on the same page and on later ones), so they are kept; but a
// document whose every page draws a form of its own must not keep them all
// (a manual of 1,611 pages held 573 MB that way): at the end of each page
// the streams read on that page alone are dropped, and more until those
// kept are within maxKeptStreamBytes. A stream counts
// toward the whole-file cap once, however often it is decoded.
type streamReader struct {
	xrt     *model.XRefTable
	limits  Limits
	cache   map[int]*keptStream
	counted map[int]int64 // decoded size of each stream counted in total
	kept    int64         // bytes in cache
	maxKept int64         // maxKeptStreamBytes (tests lower it)
	page    int
	total   int64
	err     error // the first cap passed
}

// keptStream is a decoded stream kept, with the last page that read it and
// how many pages did.
type keptStream struct {
	data        []byte
	page, pages int
}

func newStreamReader(xrt *model.XRefTable, l Limits) *streamReader {
	return &streamReader{xrt: xrt, limits: l, cache: map[int]*keptStream{}, counted: map[int]int64{}, maxKept: maxKeptStreamBytes}
}

// endPage drops what no other page has read, and more until the rest is
// within maxKeptStreamBytes.
func (r *streamReader) endPage() {
	for nr, k := range r.cache {
		if k.pages < 2 || r.kept > r.maxKept {
			delete(r.cache, nr)
			r.kept -= int64(len(k.data))
		}
	}
	r.page++
}

// Stream returns the decoded data of the stream o (nil when o is not a
// readable stream), decoding at most max bytes of it. Streams read again
// (forms, CMaps) are kept when keep is true (see streamReader); page
// contents are not, so that reading page by page holds one page's content
// at a time. Every decoding counts toward the whole-file cap.
func (r *streamReader) Stream(o types.Object, max int64, keep bool) []byte {
	nr := -1
	if ref, ok := o.(types.IndirectRef); ok {
		nr = ref.ObjectNumber.Value()
		if k, ok := r.cache[nr]; ok {
			if k.page != r.page {
				k.page, k.pages = r.page, k.pages+1
			}
			return k.data
		}
	}
	sd, _, err := r.xrt.DereferenceStreamDict(o)
	if err != nil || sd == nil {
		return nil
	}
	before, again := r.counted[nr] // decoded on an earlier page (never for direct ones)
	limit := min(max, r.limits.MaxStreamBytes, r.limits.MaxFileBytes-r.total+before)
	if limit <= 0 {
		r.fail(nr, r.limits.MaxFileBytes, true)
		return nil
	}
	b, err := sd.DecodeLengthWithLimit(-1, limit)
	if errors.Is(err, filter.ErrDecodeLimitExceeded) {
		r.fail(nr, limit, limit < r.limits.MaxStreamBytes)
		return nil
	}
	if err != nil {
		return nil
	}
	if int64(len(b)) > limit {
		r.fail(nr, limit, limit < r.limits.MaxStreamBytes)
		return nil
	}
	r.total += int64(len(b)) - before
	if nr >= 0 {
		r.counted[nr] = int64(len(b))
		if keep {
			if cap(b) > len(b)+len(b)/4 {
				b = bytes.Clone(b) // not the decoder's spare capacity, up to as much again
			}
			k := &keptStream{data: b, page: r.page, pages: 1}
			if again {
				k.pages = 2 // an earlier page read it too
			}
			r.cache[nr] = k
			r.kept += int64(len(b))
		}
	}
	return b
}

// Err is the first decode cap passed, if any.
func (r *streamReader) Err() error { return r.err }

func (r *streamReader) fail(nr int, limit int64, whole bool) {
	if r.err == nil {
		r.err = &ExpandsError{Object: nr, Limit: limit, WholeFile: whole}
	}
}
