package pdf

import (
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// maxTreeDepth caps the nesting of the page tree.
const maxTreeDepth = 64

// inherited holds the inheritable page attributes in effect at a tree node.
// MediaBox, CropBox and Rotate are inherited independently of each other
// (ISO 32000-1, 7.7.3.4), the way pdf.js resolves them.
type inherited struct {
	media, crop *Box // nil when no ancestor sets the box
	rotate      int
	resources   types.Dict // nil when no ancestor sets them
}

// pageNode is a page's dictionary with the resources its content draws
// with: its own, or its nearest ancestor's (nil when none sets them).
type pageNode struct {
	dict      types.Dict
	resources types.Dict
}

// pageWalker collects the geometry of every page in document order.
type pageWalker struct {
	xrt     *model.XRefTable
	limit   int
	visited map[int]bool
	pages   []Page
	nodes   []pageNode
}

// collectPages walks the page tree of xrt and returns each page's geometry
// and its dictionary with its resources (the readers of pages use these,
// not pdfcpu's PageDict, which walks the tree from its root for every page),
// failing with ErrTooManyPages as soon as more than limit pages are found,
// and with ErrMalformed when a node's boxes, resources or a page's content
// streams are unusable (check.go).
// pdfcpu's PageBoundaries is not used because it lets a box set on one Pages
// node leak into later siblings and drops an inherited CropBox when a page
// sets its own MediaBox.
func collectPages(xrt *model.XRefTable, limit int) ([]Page, []pageNode, error) {
	root, err := xrt.Pages()
	if err != nil || root == nil {
		return nil, nil, malformed("the catalog has no page tree")
	}
	w := &pageWalker{xrt: xrt, limit: limit, visited: map[int]bool{}}
	if err := w.node(*root, inherited{}, 0); err != nil {
		return nil, nil, err
	}
	return w.pages, w.nodes, nil
}

// node visits one page tree node.
func (w *pageWalker) node(ref types.IndirectRef, inh inherited, depth int) error {
	if depth > maxTreeDepth {
		return malformed("the page tree is nested more than %d levels deep", maxTreeDepth)
	}
	nr := ref.ObjectNumber.Value()
	if w.visited[nr] {
		return malformed("page tree object %d appears twice", nr)
	}
	w.visited[nr] = true
	d, err := w.xrt.DereferenceDict(ref)
	if err != nil || d == nil {
		return malformed("page tree object %d is not a dictionary", nr)
	}
	if inh, err = w.attrs(d, inh, nr); err != nil {
		return err
	}
	if inh.resources, err = resourcesOf(w.xrt, d, inh.resources, nr); err != nil {
		return err
	}
	kidsObj, hasKids := d.Find("Kids")
	kind := ""
	if t := d.Type(); t != nil {
		kind = *t
	}
	switch {
	case kind == "Pages" || (kind == "" && hasKids):
		kids, err := w.xrt.DereferenceArray(kidsObj)
		if err != nil {
			return malformed("page tree object %d has unreadable /Kids", nr)
		}
		for _, k := range kids {
			kref, ok := k.(types.IndirectRef)
			if !ok {
				return malformed("page tree object %d has a kid that is not a reference", nr)
			}
			if err := w.node(kref, inh, depth+1); err != nil {
				return err
			}
		}
		return nil
	case kind == "Page" || kind == "":
		if err := checkContents(w.xrt, d, nr); err != nil {
			return err
		}
		if err := w.page(inh, nr); err != nil {
			return err
		}
		w.nodes = append(w.nodes, pageNode{dict: d, resources: inh.resources})
		return nil
	default:
		return malformed("page tree object %d has /Type /%s", nr, kind)
	}
}

// attrs returns inh updated with the attributes d sets.
func (w *pageWalker) attrs(d types.Dict, inh inherited, nr int) (inherited, error) {
	if o, ok := d.Find("MediaBox"); ok {
		b, err := w.box(o)
		if err != nil {
			return inh, malformed("object %d: bad /MediaBox: %v", nr, err)
		}
		inh.media = &b
	}
	if o, ok := d.Find("CropBox"); ok {
		b, err := w.box(o)
		if err != nil {
			return inh, malformed("object %d: bad /CropBox: %v", nr, err)
		}
		inh.crop = &b
	}
	if o, ok := d.Find("Rotate"); ok {
		if r, err := w.xrt.Dereference(o); err != nil || r != nil {
			// A page turned other than by quarter turns cannot be shown
			// with its tags (pdf.js draws it unturned): refused, as
			// pdfcpu's validation refused it. 90.0 is 90.
			v, err := w.xrt.DereferenceNumber(o)
			if err != nil || v != math.Trunc(v) || math.Abs(v) >= 1e6 || int(v)%90 != 0 {
				return inh, malformed("object %d: /Rotate is not a multiple of 90", nr)
			}
			inh.rotate = int(v)
		}
	}
	return inh, nil
}

// box reads a rectangle array.
func (w *pageWalker) box(o types.Object) (Box, error) {
	a, err := w.xrt.DereferenceArray(o)
	if err != nil {
		return Box{}, err
	}
	if len(a) != 4 {
		return Box{}, fmt.Errorf("%d numbers instead of 4", len(a))
	}
	var v [4]float64
	for i, e := range a {
		if v[i], err = w.xrt.DereferenceNumber(e); err != nil {
			return Box{}, err
		}
	}
	return Box{LLX: v[0], LLY: v[1], URX: v[2], URY: v[3]}.Normalized(), nil
}

// page records a leaf with the attributes in effect.
func (w *pageWalker) page(inh inherited, nr int) error {
	n := len(w.pages) + 1
	if n > w.limit {
		return fmt.Errorf("%w (limit %d)", ErrTooManyPages, w.limit)
	}
	if inh.media == nil {
		return malformed("page %d (object %d) has no /MediaBox", n, nr)
	}
	media := *inh.media
	if media.Width() <= 0 || media.Height() <= 0 {
		return malformed("page %d (object %d) has an empty /MediaBox", n, nr)
	}
	crop := media
	if inh.crop != nil {
		// The effective CropBox is its intersection with the MediaBox; an
		// empty intersection falls back to the MediaBox, as in pdf.js.
		if c, ok := inh.crop.Intersect(media); ok {
			crop = c
		}
	}
	w.pages = append(w.pages, Page{MediaBox: media, CropBox: crop, Rotate: normalizeRotate(inh.rotate)})
	return nil
}

// normalizeRotate maps a /Rotate value to 0, 90, 180 or 270; values that are
// not multiples of 90 (attrs refuses them) count as 0, as in pdf.js.
func normalizeRotate(r int) int {
	if r%90 != 0 {
		return 0
	}
	r %= 360
	if r < 0 {
		r += 360
	}
	return r
}
