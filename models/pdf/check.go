package pdf

// What this package requires of a PDF, and what it leaves to viewers.
//
// The strict check verifies what the product uses: the file's structure
// (structure.go: header, end, cross-reference chain, every object at its
// offset), the decode caps (scan.go), that pdfcpu parses every object, the
// page tree with each page's boxes, rotation, resources and content streams
// (pagetree.go), and the page count the tree announces. Those failures
// refuse the upload. pdfcpu's validation (relaxed mode) also checks every
// other dictionary against PDF 32000-1: page transitions, annotations of
// every kind, attached files, fonts, patterns, outlines, metadata. Viewers
// (poppler, pdf.js) ignore what they cannot use in those, so a failure
// there is not a reason to refuse a document people open every day (slide
// decks with transitions outside the table, attachments with odd dates). It
// still runs, because pdfcpu's page edits rely on what it records (the form,
// named destinations) and on the small repairs relaxed mode makes; when it
// fails the model is completed here the way a successful validation leaves
// it. See docs/decisions.md, "Intake that accepts what viewers open".

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
// this package's readers rely on, for a model that was not validated: the
// page count (pages, as the page tree walk counted them) and the
// interactive form.
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

// checkResources fails when the page tree node nr sets /Resources to
// something other than a dictionary (or null): the resources are what its
// content draws with.
func checkResources(xrt *model.XRefTable, d types.Dict, nr int) error {
	o, ok := d.Find("Resources")
	if !ok {
		return nil
	}
	r, err := xrt.Dereference(o)
	if err != nil {
		return malformed("object %d: unreadable /Resources: %v", nr, err)
	}
	switch r.(type) {
	case nil, types.Dict:
		return nil
	}
	return malformed("object %d: /Resources is not a dictionary", nr)
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
