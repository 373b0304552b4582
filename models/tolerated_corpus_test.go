package models_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// corpusFile is a file the upload must accept with poppler's page count.
type corpusFile struct {
	name, what string
	pdf        []byte
	pages      int
}

// toleratedCorpus is every file of pdftest.ToleratedFiles (documents viewers
// open whose entries pdfcpu's validation refuses: docs/decisions.md,
// "Intake that accepts what viewers open") and, unless -short, of
// pdftest.BigFiles (big files the old decode caps refused: "Bounded PDF
// work").
func toleratedCorpus(t *testing.T) []corpusFile {
	var files []corpusFile
	for _, f := range pdftest.ToleratedFiles() {
		files = append(files, corpusFile{name: f.Name, what: f.What, pdf: f.PDF, pages: f.Pages})
	}
	if testing.Short() {
		t.Log("-short: without the big files (pdftest.BigFiles)")
		return files
	}
	for _, f := range pdftest.BigFiles() {
		files = append(files, corpusFile{name: f.Name, what: f.What, pdf: f.Doc.Build(), pages: f.Doc.Pages()})
	}
	return files
}

// Each file of a cause the upload once refused although viewers open it is
// accepted through the upload with the page count poppler reads (pdfinfo
// runs on each when installed; CI installs it).
func TestToleratedCorpus(t *testing.T) {
	t.Parallel()
	files := toleratedCorpus(t)
	for _, f := range files {
		if n, ok, known := pdftest.PopplerPages(t, f.pdf); known && (!ok || n != f.pages) {
			t.Fatalf("%s: poppler opens=%v pages=%d, the corpus says %d", f.name, ok, n, f.pages)
		}
	}
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		for _, f := range files {
			staged, err := env.Store.StageUpload(context.Background(), bytes.NewReader(f.pdf), 50<<20, f.name+".pdf")
			if err != nil {
				t.Errorf("%s (%s): refused with %s (%v)", f.name, f.what, refusalCode(err), err)
				continue
			}
			if staged.Pages() != f.pages {
				t.Errorf("%s: %d pages, poppler reads %d", f.name, staged.Pages(), f.pages)
			}
			if err := staged.Close(); err != nil {
				t.Errorf("%s: close: %v", f.name, err)
			}
		}
	})
}
