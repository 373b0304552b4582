package pdf

// What this package requires of a PDF, and what it leaves to viewers.
//
// The strict check verifies what the product uses: the file's structure
// (structure.go: header, end, cross-reference chain, every object at its
// offset), the decode caps (scan.go), that pdfcpu parses the objects read,
// the page tree with each page's boxes, rotation, resources and content
// streams (pagetree.go), and the page count the tree announces. Those
// failures refuse the upload. pdfcpu's validation (relaxed mode) checks
// every other dictionary against PDF 32000-1 as well: page transitions,
// annotations of every kind, attached files, fonts, patterns, outlines,
// structure trees. Viewers (poppler, pdf.js) ignore what they cannot use
// in those, so a failure there is no reason to refuse a document people
// open every day, and reading for the check and the layout does not run
// it. Page edits do, for what pdfcpu's page collection relies on (the form
// and named destinations it records, the small repairs of relaxed mode),
// but its verdict does not refuse the edit: when it fails, the model is
// read again and completed the way a successful validation leaves it. See
// docs/decisions.md, "Intake that accepts what viewers open".

import (
	"fmt"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/validate"
)

// validateAdvisory runs pdfcpu's validation of pc and returns its verdict,
// a panic included: the caller decides with its own checks.
func validateAdvisory(pc *model.Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("validation failure: %v", p)
		}
	}()
	return validate.XRefTable(pc)
}

// completeModel records in pc what a successful validation records and
// this package's readers and edits rely on, whether or not it was
// validated: the page count (pages, as the page tree walk counted them)
// and the interactive form.
func completeModel(pc *model.Context, pages int) {
	xrt := pc.XRefTable
	xrt.PageCount = pages
	if xrt.Form != nil {
		return
	}
	root, err := xrt.Catalog()
	if err != nil || root == nil {
		return
	}
	if o, ok := root.Find("AcroForm"); ok {
		if form, err := xrt.DereferenceDict(o); err == nil && form != nil {
			xrt.Form = form
		}
	}
}

// resourcesOf returns the resources of page tree node nr: its own
// /Resources, or inherited when it sets none (or null); it fails when they
// are something other than a dictionary: they are what its content draws
// with.
func resourcesOf(xrt *model.XRefTable, d types.Dict, inherited types.Dict, nr int) (types.Dict, error) {
	o, ok := d.Find("Resources")
	if !ok {
		return inherited, nil
	}
	r, err := xrt.Dereference(o)
	if err != nil {
		return nil, malformed("object %d: unreadable /Resources: %v", nr, err)
	}
	switch r := r.(type) {
	case nil:
		return inherited, nil
	case types.Dict:
		return r, nil
	}
	return nil, malformed("object %d: /Resources is not a dictionary", nr)
}

// checkContents fails when page nr's /Contents is neither a stream nor an
// array of streams (null elements allowed, as are an empty string, an empty
// dictionary and an empty array for "no content", which pdfcpu's relaxed
// validation also accepts).
func checkContents(xrt *model.XRefTable, d types.Dict, nr int) error {
	o, ok := d.Find("Contents")
	if !ok {
		return nil
	}
	c, err := xrt.Dereference(o)
	if err != nil {
		return malformed("page object %d: unreadable /Contents: %v", nr, err)
	}
	switch c := c.(type) {
	case nil, types.StreamDict:
		return nil
	case types.Array:
		for i, e := range c {
			s, err := xrt.Dereference(e)
			if err != nil {
				return malformed("page object %d: unreadable /Contents element %d: %v", nr, i, err)
			}
			switch s.(type) {
			case nil, types.StreamDict:
			default:
				return malformed("page object %d: /Contents element %d is not a stream", nr, i)
			}
		}
		return nil
	case types.StringLiteral:
		if strings.TrimSpace(c.Value()) == "" {
			return nil
		}
	case types.Dict:
		if len(c) == 0 {
			return nil
		}
	}
	return malformed("page object %d: /Contents is neither a stream nor an array of streams", nr)
}

// keepWhatEditsCarry leaves in the catalog of the model in memory only what
// a page edit carries into the file it writes (pdfcpu.ExtractPages builds a
// new catalog): the page tree, the form, the named destinations and the
// version. Validating the rest (a structure tree of 400,000 elements, the
// outline, metadata, attached files) would parse objects the edit drops:
// 680 MB of heap for that structure tree.
func keepWhatEditsCarry(xrt *model.XRefTable) {
	root, err := xrt.Catalog()
	if err != nil || root == nil {
		return
	}
	for k := range root {
		switch k {
		case "Type", "Pages", "AcroForm", "Version", "Dests":
		case "Names":
			names, err := xrt.DereferenceDict(root[k])
			if err != nil || names == nil {
				delete(root, k)
				continue
			}
			if dests, ok := names["Dests"]; ok {
				root[k] = types.Dict{"Dests": dests}
			} else {
				delete(root, k)
			}
		default:
			delete(root, k)
		}
	}
}
