package pdftest_test

import (
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// Every hostile file is a small, well-formed PDF: Inspect (the structure
// check of every upload) accepts it, so what makes it hostile is only what
// its content costs a reader. Its size is logged.
func TestHostileFilesAreSmallValidPDFs(t *testing.T) {
	names := map[string]bool{}
	for _, h := range pdftest.HostileFiles() {
		t.Run(h.Name, func(t *testing.T) {
			if names[h.Name] || h.What == "" {
				t.Fatalf("name %q repeated or no description", h.Name)
			}
			names[h.Name] = true
			info, err := inspect(h.PDF)
			if err != nil || len(info.Pages) == 0 {
				t.Fatalf("Inspect = %d pages, %v", len(info.Pages), err)
			}
			if len(h.PDF) > 128<<10 {
				t.Errorf("%d bytes: a hostile file is a small upload", len(h.PDF))
			}
			t.Logf("%s: %d bytes, %d pages (%s)", h.Name, len(h.PDF), len(info.Pages), h.What)
		})
	}
}

// BigText is an ordinary document of many pages full of text.
func TestBigText(t *testing.T) {
	b := pdftest.BigText(40)
	info, err := inspect(b)
	if err != nil || len(info.Pages) != 40 {
		t.Fatalf("Inspect = %d pages, %v", len(info.Pages), err)
	}
	if !strings.Contains(string(b), "/FlateDecode") {
		t.Error("the pages are not compressed")
	}
}
