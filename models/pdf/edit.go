package pdf

import (
	"bytes"
	"context"
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// DeletePage is DefaultLimits().DeletePage.
func DeletePage(ctx context.Context, content []byte, n int) ([]byte, Info, error) {
	return DefaultLimits().DeletePage(ctx, content, n)
}

// MovePage is DefaultLimits().MovePage.
func MovePage(ctx context.Context, content []byte, from, to int) ([]byte, Info, error) {
	return DefaultLimits().MovePage(ctx, content, from, to)
}

// DeletePage returns a copy of the PDF without page n (1-based) with its
// page geometry. The last page cannot go: a document needs one. The input
// (and the output) are inspected within l first, so a PDF that expands past
// l never reaches pdfcpu's page editing; the output stops as soon as it
// passes l.MaxOutputBytes (an *OutputTooLargeError).
func (l Limits) DeletePage(ctx context.Context, content []byte, n int) (_ []byte, _ Info, err error) {
	defer recoverEdit(&err)
	doc, err := l.read(ctx, bytes.NewReader(content), MaxPages, true)
	if err != nil {
		return nil, Info{}, err
	}
	info := doc.info
	if n < 1 || n > len(info.Pages) {
		return nil, Info{}, fmt.Errorf("%w: page %d of %d", ErrPageOutOfRange, n, len(info.Pages))
	}
	if len(info.Pages) == 1 {
		return nil, Info{}, ErrLastPage
	}
	kept := make([]int, 0, len(info.Pages)-1)
	for p := 1; p <= len(info.Pages); p++ {
		if p != n {
			kept = append(kept, p)
		}
	}
	out, err := l.collect(doc, kept)
	if err != nil {
		return nil, Info{}, fmt.Errorf("remove page %d: %w", n, err)
	}
	return l.inspected(ctx, out)
}

// MovePage returns a copy of the PDF with page from moved to position to
// (both 1-based), the pages between shifting by one, with its page geometry.
// Like DeletePage it inspects within l first.
func (l Limits) MovePage(ctx context.Context, content []byte, from, to int) (_ []byte, _ Info, err error) {
	defer recoverEdit(&err)
	doc, err := l.read(ctx, bytes.NewReader(content), MaxPages, true)
	if err != nil {
		return nil, Info{}, err
	}
	n := len(doc.info.Pages)
	if from < 1 || from > n || to < 1 || to > n {
		return nil, Info{}, fmt.Errorf("%w: move %d to %d of %d", ErrPageOutOfRange, from, to, n)
	}
	out, err := l.collect(doc, MovedOrder(n, from, to))
	if err != nil {
		return nil, Info{}, fmt.Errorf("reorder pages: %w", err)
	}
	return l.inspected(ctx, out)
}

// recoverEdit turns a panic in pdfcpu's page editing into ErrMalformed, as
// Inspect does for reading: a hostile upload must not take the request down.
func recoverEdit(err *error) {
	if p := recover(); p != nil {
		*err = malformed("internal parser failure: %v", p)
	}
}

// MovedOrder lists, for each new position, the old page number when page
// from of n moves to position to.
func MovedOrder(n, from, to int) []int {
	order := make([]int, 0, n)
	for p := 1; p <= n; p++ {
		if p != from {
			order = append(order, p)
		}
	}
	order = append(order[:to-1], append([]int{from}, order[to-1:]...)...)
	return order
}

// collect writes a new PDF of the pages of doc (read and checked by read)
// in order, as pdfcpu's page collection does, on the model already read:
// the document is parsed once per edit. The output stops at
// l.MaxOutputBytes.
func (l Limits) collect(doc *document, order []int) ([]byte, error) {
	selfContained(doc)
	pc := doc.pc
	pc.Conf.Cmd = model.COLLECT
	dest, err := pdfcpu.ExtractPages(pc, order, false)
	if err != nil {
		return nil, err
	}
	out := l.editOutput()
	if err := api.WriteContext(dest, out); err != nil {
		return nil, out.failed(fmt.Errorf("write the PDF: %w", err))
	}
	return out.buf.Bytes(), nil
}

// selfContained writes every page's effective MediaBox, CropBox, /Rotate and
// inherited /Resources into the page itself. pdfcpu's page edits rebuild the
// page tree and drop what pages inherit from the Pages nodes in between, which
// would silently change page sizes and rotation (and move every tag).
func selfContained(doc *document) {
	for i, p := range doc.info.Pages {
		d := doc.nodes[i].dict
		d["MediaBox"] = rectangle(p.MediaBox)
		d["CropBox"] = rectangle(p.CropBox)
		d["Rotate"] = types.Integer(p.Rotate)
		if _, ok := d["Resources"]; !ok && doc.nodes[i].resources != nil {
			d["Resources"] = doc.nodes[i].resources
		}
	}
}

// editOutput is the buffer a page edit writes into: it stops at
// l.MaxOutputBytes, when there is one.
func (l Limits) editOutput() *cappedBuffer {
	if l.MaxOutputBytes <= 0 {
		return &cappedBuffer{limit: math.MaxInt64}
	}
	return &cappedBuffer{limit: l.MaxOutputBytes, over: &OutputTooLargeError{Limit: l.MaxOutputBytes}}
}

func rectangle(b Box) types.Array {
	return types.NewRectangle(b.LLX, b.LLY, b.URX, b.URY).Array()
}

func (l Limits) inspected(ctx context.Context, b []byte) ([]byte, Info, error) {
	info, err := l.Inspect(ctx, bytes.NewReader(b))
	if err != nil {
		return nil, Info{}, fmt.Errorf("inspect the edited PDF: %w", err)
	}
	return b, info, nil
}
