package pdf_test

// Hostile content for the bounds of reading a PDF's content
// (docs/decisions.md, "Bounds on reading a PDF's content"): small inputs
// that once cost gigabytes or minutes, each now stopped by one cap.

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// stream writes a stream object, deflated when that is smaller.
func stream(dict, data string) string {
	if len(data) > 4096 {
		var buf bytes.Buffer
		w := zlib.NewWriter(&buf)
		_, _ = w.Write([]byte(data))
		_ = w.Close()
		return fmt.Sprintf("<< %s /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", dict, buf.Len(), buf.String())
	}
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// onePage is a one-page PDF drawing content with font F1 (object 5, whose
// dictionary entries are font) and form X (object 6, drawing form), and
// more objects from 7 on.
func onePage(content, font, form string, more ...string) []byte {
	return pdftest.RawPDF(append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /X 6 0 R >> >> /Contents 4 0 R >>",
		stream("", content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica " + font + " >>",
		stream("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>", form),
	}, more...))
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// untimed reads a layout with every counted cap but without the wall-clock
// budget, so that which cap stops a hostile file does not depend on how
// loaded the machine is (TestLayoutTimeBudget tests the budget itself).
func untimed() pdf.Limits { return pdf.Limits{MaxLayoutTime: time.Hour} }

// utf16Hex writes n UTF-16BE units of "A" in hex.
func utf16Hex(n int) string { return "<" + strings.Repeat("0041", n) + ">" }

// TestToUnicodeBounds: a bfrange over every code with a long destination
// once copied the destination for each code (a 942-byte file peaked at
// 3.3 GB); a destination longer than maxToUnicodeRunes now reads as U+FFFD,
// and one of 255 runes is kept.
func TestToUnicodeBounds(t *testing.T) {
	cmap := "begincmap 1 beginbfchar <41> " + utf16Hex(255) + " endbfchar 1 beginbfrange <0042> <FFFF> " + utf16Hex(4000) + " endbfrange endcmap"
	doc := onePage("BT /F1 12 Tf 0 0 Td (AB) Tj ET", "/ToUnicode 7 0 R", "", stream("", cmap))
	var lay pdf.Layout
	var err error
	alloc := allocated(func() { lay, err = untimed().ReadLayout(context.Background(), doc) })
	if err != nil {
		t.Fatal(err)
	}
	if alloc > 32<<20 {
		t.Errorf("%d MiB allocated", alloc>>20)
	}
	text := lay.Pages[0].Runs[0].Text
	if want := strings.Repeat("A", 255) + "\uFFFD"; text != want {
		t.Errorf("text of %d runes, want 255 A and U+FFFD", utf8.RuneCountInString(text))
	}
}

// TestRunesCounted: one code that stands for 255 runes, shown thousands of
// times, passes the page's cap on glyphs counted in runes (it once built a
// box per rune of 100,000-rune texts, 701 MB from 1 KB).
func TestRunesCounted(t *testing.T) {
	cmap := "begincmap 1 beginbfchar <41> " + utf16Hex(255) + " endbfchar endcmap"
	content := "BT /F1 1 Tf " + strings.Repeat("(AAAAAAAAAA) Tj ", 50) + " ET"
	doc := onePage(content, "/ToUnicode 7 0 R", "", stream("", cmap))
	if _, err := untimed().ReadLayout(context.Background(), doc); err != nil {
		t.Fatalf("500 codes of 255 runes: %v", err)
	}
	content = "BT /F1 1 Tf " + strings.Repeat("(AAAAAAAAAA) Tj ", 1000) + " ET"
	doc = onePage(content, "/ToUnicode 7 0 R", "", stream("", cmap))
	var err error
	alloc := allocated(func() { _, err = untimed().ReadLayout(context.Background(), doc) })
	if !errors.Is(err, pdf.ErrTooComplex) || !strings.Contains(err.Error(), "glyphs on one page") {
		t.Errorf("10,000 codes of 255 runes: %v, want the page's glyph cap", err)
	}
	if alloc > 128<<20 {
		t.Errorf("%d MiB allocated", alloc>>20)
	}
}

// TestZeroSizeTextCounted: text at font size 0 places nothing but is work:
// every code shown counts (it once ran for minutes within every cap).
func TestZeroSizeTextCounted(t *testing.T) {
	form := "BT /F1 0 Tf " + strings.Repeat("("+strings.Repeat("x", 50_000)+") Tj ", 4) + "ET"
	content := strings.Repeat("/X Do ", 60)
	_, err := untimed().ReadLayout(context.Background(), onePage(content, "", form))
	if !errors.Is(err, pdf.ErrTooComplex) || !strings.Contains(err.Error(), "character codes") {
		t.Errorf("12 million codes at size 0: %v, want the cap on codes shown", err)
	}
}

// TestLexedBytesCounted: a form of white space drawn again and again is
// lexed each time; the bytes lexed count, re-lexed forms included (a 30 MB
// form drawn 1,000 times once took 92 s).
func TestLexedBytesCounted(t *testing.T) {
	form := strings.Repeat(" ", 8<<20)
	_, err := untimed().ReadLayout(context.Background(), onePage(strings.Repeat("/X Do ", 40), "", form))
	if !errors.Is(err, pdf.ErrTooComplex) || !strings.Contains(err.Error(), "lexed") {
		t.Errorf("320 MiB lexed: %v, want the cap on bytes lexed", err)
	}
	if _, err := untimed().ReadLayout(context.Background(), onePage(strings.Repeat("/X Do ", 20), "", form)); err != nil {
		t.Errorf("160 MiB lexed: %v", err)
	}
}

// TestLayoutTimeBudget: past Limits.MaxLayoutTime the layout is not read.
func TestLayoutTimeBudget(t *testing.T) {
	doc := sample(t, 1, "Time")
	_, err := pdf.Limits{MaxLayoutTime: time.Nanosecond}.ReadLayout(context.Background(), doc)
	if !errors.Is(err, pdf.ErrTooComplex) || !strings.Contains(err.Error(), "of work") {
		t.Errorf("1 ns budget: %v, want ErrTooComplex", err)
	}
	if _, err := (pdf.Limits{}).ReadLayout(context.Background(), doc); err != nil {
		t.Errorf("default budget: %v", err)
	}
}

// TestFieldNameBounds: a field's /T and its joined name along the /Parent
// chain are cut to MaxFieldNameRunes (32 long names once made 64 MB of tags
// from 105 KB).
func TestFieldNameBounds(t *testing.T) {
	long := strings.Repeat("n", 100_000)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [7 0 R] >> >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] /Contents 5 0 R >>",
		"<< /Type /Annot /Subtype /Widget /Rect [10 10 200 40] /P 3 0 R /Parent 6 0 R /T (" + long + ") >>",
		stream("", ""),
		"<< /FT /Tx /DA (/Helv 0 Tf 0 g) /Parent 7 0 R /Kids [4 0 R] /T <FEFF" + strings.Repeat("00E9", 30_000) + "> >>",
		"<< /Kids [6 0 R] /T (" + long + ") >>",
	}
	var lay pdf.Layout
	var err error
	alloc := allocated(func() { lay, err = untimed().ReadLayout(context.Background(), pdftest.RawPDF(objs)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(lay.Pages[0].Widgets) != 1 {
		t.Fatalf("%d widgets", len(lay.Pages[0].Widgets))
	}
	name := lay.Pages[0].Widgets[0].Name
	if n := utf8.RuneCountInString(name); n != pdf.MaxFieldNameRunes || !strings.HasPrefix(name, strings.Repeat("n", 255)) {
		t.Errorf("name of %d runes (%.20q…)", n, name)
	}
	t.Logf("%d KiB allocated", alloc>>10)
}
