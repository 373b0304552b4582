package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// FuzzInspect checks that Inspect classifies every input and that accepted
// documents have sane geometry. Without -fuzz it runs the seeds only.
func FuzzInspect(f *testing.F) {
	odd, _ := pdftest.OddGeometry(f)
	for _, seed := range [][]byte{
		pdftest.ThreePages(f), odd, pdftest.Truncated(f), pdftest.NotPDF(),
		readTestdata(f, "qpdf-objstm.pdf"), readTestdata(f, "ghostscript.pdf"),
		[]byte("%PDF-1.4\n%%EOF\n"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := pdf.Inspect(context.Background(), bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, pdf.ErrNotPDF) && !errors.Is(err, pdf.ErrMalformed) &&
				!errors.Is(err, pdf.ErrEncrypted) && !errors.Is(err, pdf.ErrTooManyPages) {
				t.Fatalf("unclassified error: %v", err)
			}
			// Inspect recovers from parser panics, but fuzzing should surface them.
			if strings.Contains(err.Error(), "internal parser failure") {
				t.Fatalf("recovered panic: %v", err)
			}
			return
		}
		if len(info.Pages) == 0 || len(info.Pages) > pdf.MaxPages {
			t.Fatalf("accepted with %d pages", len(info.Pages))
		}
		for i, p := range info.Pages {
			m, c := p.MediaBox, p.CropBox
			if m.Width() <= 0 || m.Height() <= 0 || !m.Contains(c.LLX, c.LLY, c.Width(), c.Height()) {
				t.Fatalf("page %d: bad boxes %+v", i+1, p)
			}
			if p.Rotate%90 != 0 || p.Rotate < 0 || p.Rotate >= 360 {
				t.Fatalf("page %d: rotate %d", i+1, p.Rotate)
			}
		}
	})
}
