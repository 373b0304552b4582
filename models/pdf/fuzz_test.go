package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// fuzzLimits are small decode caps, so that bomb-like inputs are refused
// quickly while fuzzing; the fuzz targets check that they hold.
var fuzzLimits = pdf.Limits{MaxStreamBytes: 1 << 20, MaxFileBytes: 2 << 20}

// bombSeeds are small decompression bombs for the caps above, one per filter
// the pre-scan decodes, plus one that passes them.
func bombSeeds(f *testing.F) [][]byte {
	const over = 3 << 20
	return [][]byte{
		pdftest.Expanding{Pages: 2, Content: []int64{over}}.Build(f),
		pdftest.Expanding{Pages: 2, ObjectStream: over}.Build(f),
		pdftest.Expanding{Pages: 2, ObjectStream: 4 << 10, XRefPadding: over}.Build(f),
		pdftest.Expanding{Pages: 2, Content: []int64{over}, Filters: []string{"LZWDecode"}}.Build(f),
		pdftest.Expanding{Pages: 2, Content: []int64{64 << 10}, Filters: []string{"RunLengthDecode"}}.Build(f),
		pdftest.Expanding{Pages: 2, Content: []int64{over}, Filters: []string{"ASCIIHexDecode", "FlateDecode"}}.Build(f),
		pdftest.Expanding{Pages: 3, Content: []int64{900 << 10, 900 << 10, 900 << 10}}.Build(f),
		pdftest.Expanding{Pages: 3, Content: []int64{100 << 10}, Filters: []string{"ASCII85Decode", "LZWDecode"}}.Build(f),
	}
}

// knownError reports whether err is one of the package's classified errors.
func knownError(err error) bool {
	for _, e := range []error{pdf.ErrNotPDF, pdf.ErrMalformed, pdf.ErrEncrypted, pdf.ErrTooManyPages, pdf.ErrExpandsTooMuch} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

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
	for _, seed := range bombSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := fuzzLimits.Inspect(context.Background(), bytes.NewReader(data))
		if err != nil {
			if !knownError(err) {
				t.Fatalf("unclassified error: %v", err)
			}
			// Inspect recovers from parser panics, but fuzzing should surface them.
			if strings.Contains(err.Error(), "internal parser failure") {
				t.Fatalf("recovered panic: %v", err)
			}
			var ee *pdf.ExpandsError
			if errors.As(err, &ee) && ee.Limit != fuzzLimits.MaxStreamBytes && ee.Limit != fuzzLimits.MaxFileBytes {
				t.Fatalf("refused with a cap that was not given: %v", err)
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

// FuzzPageEdit deletes or moves pages of fuzzed documents: it must never
// panic, a document over the decode caps must be refused as such before
// pdfcpu edits it, and an edit that succeeds must give a document that
// passes Inspect with the expected page count.
func FuzzPageEdit(f *testing.F) {
	odd, _ := pdftest.OddGeometry(f)
	for i, seed := range append([][]byte{pdftest.ThreePages(f), odd, readTestdata(f, "qpdf-objstm.pdf"), readTestdata(f, "mupdf-clean.pdf")}, bombSeeds(f)...) {
		f.Add(seed, byte(i%2), byte(1+i%3), byte(1+(i+1)%3))
	}
	f.Fuzz(func(t *testing.T, data []byte, op, a, b byte) {
		ctx := context.Background()
		before, inErr := fuzzLimits.Inspect(ctx, bytes.NewReader(data))
		var (
			out  []byte
			info pdf.Info
			err  error
		)
		move := op%2 == 1
		if move {
			out, info, err = fuzzLimits.MovePage(ctx, data, int(a), int(b))
		} else {
			out, info, err = fuzzLimits.DeletePage(ctx, data, int(a))
		}
		if errors.Is(inErr, pdf.ErrExpandsTooMuch) && !errors.Is(err, pdf.ErrExpandsTooMuch) {
			t.Fatalf("a document over the caps (%v) was edited: %v", inErr, err)
		}
		if err != nil {
			if strings.Contains(err.Error(), "internal parser failure") {
				t.Fatalf("recovered panic: %v", err)
			}
			return
		}
		if inErr != nil {
			t.Fatalf("edited a document Inspect refuses (%v)", inErr)
		}
		want := len(before.Pages)
		if !move {
			want--
		}
		if len(info.Pages) != want {
			t.Fatalf("the edit gives %d pages, want %d", len(info.Pages), want)
		}
		again, err := fuzzLimits.Inspect(ctx, bytes.NewReader(out))
		if err != nil || len(again.Pages) != want {
			t.Fatalf("the edited document does not pass Inspect: %d pages, %v", len(again.Pages), err)
		}
	})
}

// FuzzReadLayout checks that layout reading classifies every input and that
// what it returns is sane: one box per rune, finite boxes, text inside the
// visible box.
func FuzzReadLayout(f *testing.F) {
	odd, _ := pdftest.OddGeometry(f)
	for _, seed := range [][]byte{pdftest.ThreePages(f), odd, readTestdata(f, "chromium-skia.pdf"), readTestdata(f, "ghostscript.pdf")} {
		f.Add(seed)
	}
	for _, d := range pdftest.Corpus()[:6] {
		f.Add(d.PDF)
	}
	f.Add(bombSeeds(f)[0])
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := fuzzLimits.ReadLayout(context.Background(), data)
		if err != nil {
			if !knownError(err) && !errors.Is(err, pdf.ErrTooComplex) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		checkLayout(t, l)
	})
}

// FuzzLayoutContent runs arbitrary bytes as the content stream of a page
// that has a simple font, a Type0 font and a form XObject to call.
func FuzzLayoutContent(f *testing.F) {
	for _, seed := range []string{
		"BT /F1 12 Tf 72 700 Td ({{signature|1}}) Tj ET",
		"BT /F2 10 Tf 1 0 0 1 72 600 Tm <00410042> Tj [(A) -200 (B)] TJ T* (x) ' 1 2 (y) \" ET",
		"q 2 0 0 2 10 10 cm 0 0 m 100 0 l S 10 10 50 2 re f Q /X Do /X Do",
		"BI /W 1 /H 1 ID \x00 EI BT /F1 0 Tf (a) Tj ET BT /Nope 9 Tf (b) Tj ET",
		"[[[[[[[[[[ (((( <<<< ",
		// The hostile shapes of docs/decisions.md, "Bounds on reading a
		// PDF's content": deep arrays, long strings, text at size 0 in a
		// form drawn again and again.
		strings.Repeat("[", 50_000) + " TJ",
		"BT /F1 12 Tf (" + strings.Repeat("{{x}}", 10_000) + ") Tj ET",
		"BT /F1 0 Tf " + strings.Repeat("(xxxxxxxxxxxxxxxx) Tj ", 200) + "ET /X Do /X Do /X Do",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		doc := pdftest.RawPDF([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> /XObject << /X 7 0 R >> >> /Contents 4 0 R >>",
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
			"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [65 /braceleft /uni0042] >> >>",
			"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /W [65 [500 600] 70 80 300] >>] >>",
			fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X 7 0 R >> >> /Length %d >>\nstream\n%s\nendstream", len(content), content),
		})
		l, err := fuzzLimits.ReadLayout(context.Background(), doc)
		if err != nil {
			if !knownError(err) && !errors.Is(err, pdf.ErrTooComplex) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		checkLayout(t, l)
	})
}

func checkLayout(t *testing.T, l pdf.Layout) {
	t.Helper()
	finite := func(b pdf.Box) bool {
		for _, v := range []float64{b.LLX, b.LLY, b.URX, b.URY} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	for i, p := range l.Pages {
		for _, r := range p.Runs {
			if len([]rune(r.Text)) != len(r.Glyphs) {
				t.Fatalf("page %d: run %q with %d glyph boxes", i+1, r.Text, len(r.Glyphs))
			}
			if !finite(r.Box) {
				t.Fatalf("page %d: run %q at %+v", i+1, r.Text, r.Box)
			}
		}
		for _, b := range append(append(append([]pdf.Box(nil), p.Rules...), p.VerticalRules...), p.Rects...) {
			if !finite(b) {
				t.Fatalf("page %d: shape %+v", i+1, b)
			}
		}
	}
}
