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

// FuzzRepair feeds damaged files to Mend: it must never panic, classify
// every refusal, keep its output within a few times the input, and give a
// file that passes the structural checks (Mend finds nothing more to do in
// it) and that Inspect accepts or refuses with a classified error.
func FuzzRepair(f *testing.F) {
	good := [][]byte{
		pdftest.ThreePages(f), readTestdata(f, "ghostscript.pdf"), readTestdata(f, "qpdf-objstm.pdf"),
		readTestdata(f, "qpdf-aes256.pdf"),
	}
	for _, b := range good {
		f.Add(shiftOffsets(f, b))
		f.Add(breakStartXRef(f, b))
		f.Add(crlf(b))
		f.Add(stripEOF(f, b))
		f.Add(b[:len(b)*40/100])
	}
	f.Add(shiftOffsets(f, pdftest.Expanding{Pages: 2, ObjectStream: 3 << 20}.Build(f)))
	f.Add([]byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"))
	f.Add([]byte("%PDF-1.4\n99999999 0 obj\n<< /Type /Catalog >>\nendobj\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		m, err := fuzzLimits.Mend(ctx, bytes.NewReader(data))
		if err != nil {
			if !knownError(err) && !errors.Is(err, pdf.ErrPasswordRequired) {
				t.Fatalf("unclassified error: %v", err)
			}
			if strings.Contains(err.Error(), "internal parser failure") {
				t.Fatalf("recovered panic: %v", err)
			}
			return
		}
		if m.Content == nil {
			if m.Decrypted || len(m.Repairs) != 0 {
				t.Fatalf("repairs %v, decrypted %t without a new file", m.Repairs, m.Decrypted)
			}
			return
		}
		if len(m.Content) > 4*len(data)+1<<20 {
			t.Fatalf("%d bytes in, %d bytes out", len(data), len(m.Content))
		}
		again, err := fuzzLimits.Mend(ctx, bytes.NewReader(m.Content))
		if err != nil || again.Content != nil {
			t.Fatalf("the mended file does not re-check clean: %v (repairs %v)", err, again.Repairs)
		}
		if _, err := fuzzLimits.Inspect(ctx, bytes.NewReader(m.Content)); err != nil && (!knownError(err) || strings.Contains(err.Error(), "internal parser failure")) {
			t.Fatalf("Inspect of the mended file: %v", err)
		}
	})
}
