package pdf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Page is one page's geometry in PDF user-space points.
type Page struct {
	// MediaBox is the full page, as given by the page or inherited.
	MediaBox Box `json:"mediaBox"`
	// CropBox is the visible region: the page's CropBox clipped to the
	// MediaBox, or the MediaBox when the page has none.
	CropBox Box `json:"cropBox"`
	// Rotate is the clockwise display rotation: 0, 90, 180 or 270.
	Rotate int `json:"rotate"`
}

// Info is what Inspect learns about a document; len(Pages) is the page count.
type Info struct {
	Pages []Page `json:"pages"`
}

// Inspect is DefaultLimits().Inspect.
func Inspect(ctx context.Context, r io.ReadSeeker) (Info, error) {
	return DefaultLimits().Inspect(ctx, r)
}

// Inspect checks that r holds a complete, unencrypted PDF of at most MaxPages
// pages whose streams decode within l, and returns the geometry of its pages.
//
// Errors wrap ErrNotPDF, ErrEncrypted, ErrMalformed, ErrTooManyPages or
// ErrExpandsTooMuch when the content is at fault, the context's error when
// ctx ends first, and are plain I/O errors otherwise. Inspect reads r through
// Seek and Read only and leaves its position anywhere.
func (l Limits) Inspect(ctx context.Context, r io.ReadSeeker) (Info, error) {
	return l.inspect(ctx, r, MaxPages)
}

// inspect is Inspect with the page limit as a parameter, for tests.
func inspect(ctx context.Context, r io.ReadSeeker, maxPages int) (Info, error) {
	return DefaultLimits().inspect(ctx, r, maxPages)
}

// inspect is Inspect with the page limit as a parameter.
func (l Limits) inspect(ctx context.Context, r io.ReadSeeker, maxPages int) (info Info, err error) {
	defer func() {
		// pdfcpu is not hardened against every hostile input; a panic while
		// reading an upload means the upload is unusable, not that the server is.
		if p := recover(); p != nil {
			info, err = Info{}, malformed("internal parser failure: %v", p)
		}
	}()
	doc, err := l.read(ctx, r, maxPages, false)
	if err != nil {
		return Info{}, err
	}
	return doc.info, nil
}

// document is a PDF read and checked by read: pdfcpu's model of it, its
// pages' geometry, and each page's dictionary with its resources.
type document struct {
	pc    *model.Context
	info  Info
	nodes []pageNode
}

// read is inspect returning pdfcpu's model of the document as well, for
// callers that go on reading it (ReadLayout, the page edits); they recover
// pdfcpu's panics. forEdit runs pdfcpu's validation for what pdfcpu's page
// edits rely on (readPages).
func (l Limits) read(ctx context.Context, r io.ReadSeeker, maxPages int, forEdit bool) (*document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errors.New("pdf: Inspect called with a nil reader")
	}
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("pdf: seek: %w", err)
	}
	if size == 0 {
		return nil, ErrNotPDF
	}
	src := &source{r: r, size: size}
	base, err := findHeader(src)
	if err != nil {
		return nil, err
	}
	start, err := findStartXRef(src)
	if err != nil {
		return nil, err
	}
	xr, err := walkXRef(ctx, src, base, start, l)
	if xr != nil && xr.encrypted {
		return nil, ErrEncrypted
	}
	if err != nil {
		return nil, err
	}
	if n, limit := len(xr.inUse)+len(xr.compressed), l.withDefaults().MaxObjects; n > limit {
		return nil, &ObjectsError{Objects: n, Limit: limit}
	}
	if err := verifyOffsets(ctx, src, base, xr.inUse); err != nil {
		return nil, err
	}
	if err := l.scanStreams(ctx, src, base, xr.inUse, nil); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return readPages(ctx, r, maxPages, l, forEdit)
}

// readPages lets pdfcpu read the document, checks what this package needs
// of it (check.go: the page tree, each page's boxes, resources and
// content) and collects the page geometry. pdfcpu's validation of the rest
// (every dictionary against PDF 32000-1) runs only forEdit, for what
// pdfcpu's page edits rely on, and its verdict does not refuse the
// document either way; reading for the check and the layout skips it, and
// with it the parsing of every object the pages do not reach (a tagged
// document's structure tree: 400,000 elements cost 380 MB parsed).
func readPages(ctx context.Context, r io.ReadSeeker, maxPages int, l Limits, forEdit bool) (*document, error) {
	pc, err := pdfcpu.ReadWithContext(ctx, r, newConfig(l))
	if err != nil {
		return nil, classify(ctx, err)
	}
	xrt := pc.XRefTable
	if xrt.Encrypt != nil || pc.E != nil {
		return nil, ErrEncrypted
	}
	count := announcedPages(xrt)
	if count > maxPages {
		return nil, fmt.Errorf("%w (it announces %d)", ErrTooManyPages, count)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if forEdit {
		defaultFormDA(xrt)
		keepWhatEditsCarry(xrt)
		verr := validateAdvisory(pc)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if verr != nil {
			// A failed validation can leave the model half rewritten
			// (pdfcpu drops a page tree node's /Kids when a page below it
			// fails), so the document is read again and used as written.
			pc, xrt = nil, nil
			if pc, err = pdfcpu.ReadWithContext(ctx, r, newConfig(l)); err != nil {
				return nil, classify(ctx, err)
			}
			xrt = pc.XRefTable
		}
	}
	pages, nodes, err := collectPages(xrt, maxPages)
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, malformed("the document has no pages")
	}
	if count >= 0 && count != len(pages) {
		return nil, malformed("the page tree announces %d pages but holds %d", count, len(pages))
	}
	completeModel(pc, len(pages))
	return &document{pc: pc, info: Info{Pages: pages}, nodes: nodes}, nil
}

// defaultDA is the default appearance a form without one is read with, the
// one Acrobat assumes (Helvetica, auto size, black).
const defaultDA = "/Helv 0 Tf 0 g"

// defaultFormDA gives an AcroForm without a usable /DA the default one, in
// the model in memory only (the stored file stays the uploader's). pdfcpu's
// validation otherwise requires a /DA on every text field, which poppler,
// pdf.js and Acrobat do not (jsPDF's forms have none); see docs/decisions.md.
func defaultFormDA(xrt *model.XRefTable) {
	root, err := xrt.Catalog()
	if err != nil || root == nil {
		return
	}
	o, ok := root.Find("AcroForm")
	if !ok {
		return
	}
	form, err := xrt.DereferenceDict(o)
	if err != nil || form == nil {
		return
	}
	if da, ok := form.Find("DA"); ok {
		if s, err := xrt.DereferenceStringOrHexLiteral(da, model.V10, nil); err == nil && strings.TrimSpace(s) != "" {
			return
		}
	}
	form["DA"] = types.StringLiteral(defaultDA)
}

// announcedPages returns the /Count of the page tree root, or -1.
func announcedPages(xrt *model.XRefTable) int {
	root, err := xrt.Pages()
	if err != nil || root == nil {
		return -1
	}
	d, err := xrt.DereferenceDict(*root)
	if err != nil || d == nil {
		return -1
	}
	o, ok := d.Find("Count")
	if !ok {
		return -1
	}
	c, err := xrt.DereferenceInteger(o)
	if err != nil || c == nil {
		return -1
	}
	return c.Value()
}

// classify maps a pdfcpu error to this package's errors.
func classify(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if errors.Is(err, pdfcpu.ErrWrongPassword) || errors.Is(err, pdfcpu.ErrEncrypted) {
		return ErrEncrypted
	}
	return fmt.Errorf("%w: %v", ErrMalformed, err)
}
