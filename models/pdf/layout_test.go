package pdf_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

func readLayout(t *testing.T, b []byte) pdf.Layout {
	t.Helper()
	l, err := pdf.ReadLayout(context.Background(), b)
	if err != nil {
		t.Fatalf("ReadLayout: %v", err)
	}
	return l
}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.01 }

func TestReadLayoutSample(t *testing.T) {
	l := readLayout(t, sample(t, 2, "Layout Test"))
	if len(l.Pages) != 2 {
		t.Fatalf("%d pages, want 2", len(l.Pages))
	}
	p := l.Pages[1]
	if p.CropBox != letter {
		t.Errorf("CropBox = %+v", p.CropBox)
	}
	var title, page pdf.TextRun
	for _, r := range p.Runs {
		switch r.Text {
		case "Layout Test":
			title = r
		case "Page 2 of 2":
			page = r
		}
		if len([]rune(r.Text)) != len(r.Glyphs) {
			t.Errorf("run %q has %d glyph boxes", r.Text, len(r.Glyphs))
		}
	}
	// Helvetica-Bold 16 pt at (72, 720): "Layout Test" advances 1000ths of an
	// em L611 a556 y556 o611 u611 t333 space278 T611 e556 s556 t333 = 5612.
	want := pdf.Box{LLX: 72, LLY: 720 - 0.207*16, URX: 72 + 5.612*16, URY: 720 + 0.793*16}
	if !near(title.Box.LLX, want.LLX) || !near(title.Box.LLY, want.LLY) || !near(title.Box.URX, want.URX) || !near(title.Box.URY, want.URY) {
		t.Errorf("title box %+v, want %+v", title.Box, want)
	}
	if title.Size != 16 || title.Font != "Helvetica-Bold" {
		t.Errorf("title size %v font %q", title.Size, title.Font)
	}
	if page.Text == "" || page.Size != 10 {
		t.Errorf("page line %+v", page)
	}
	// The sample draws a rule under the title and one per labelled field.
	if len(p.Rules) != 1+len(pdf.SampleFields()) {
		t.Errorf("%d rules: %+v", len(p.Rules), p.Rules)
	}
	for _, f := range pdf.SampleFields() {
		found := false
		for _, r := range p.Rules {
			found = found || (near(r.LLX, f.Box.LLX) && near(r.URX, f.Box.URX) && near((r.LLY+r.URY)/2, f.Box.LLY))
		}
		if !found {
			t.Errorf("no rule under %q", f.Label)
		}
	}
}

// TestReadLayoutRealWorld reads the files of mainstream producers; the
// expected right edge of the ghostscript line is what PDFium reports for it
// (230.77 pt, see docs/decisions.md).
func TestReadLayoutRealWorld(t *testing.T) {
	for _, name := range []string{"chromium-skia.pdf", "cairo.pdf", "qpdf-linearized.pdf", "ghostscript.pdf", "mupdf-clean.pdf", "qpdf-objstm.pdf"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			l := readLayout(t, b)
			var texts []string
			for _, p := range l.Pages {
				for _, r := range p.Runs {
					texts = append(texts, r.Text)
					if strings.HasPrefix(r.Text, "Page 2 Signature") && math.Abs(r.Box.URX-230.77) > 1 {
						t.Errorf("%q ends at %.2f, PDFium says 230.77", r.Text, r.Box.URX)
					}
				}
			}
			all := strings.Join(texts, "\n")
			want := "Page 2 Signature ______"
			if strings.HasPrefix(name, "chromium") || strings.HasPrefix(name, "cairo") || strings.HasPrefix(name, "qpdf-lin") {
				want = "Signature: ________________ Date: ________"
				if !strings.Contains(all, "Lease Agreement (été") {
					t.Errorf("accented title missing from %q", all)
				}
			}
			if !strings.Contains(all, want) {
				t.Errorf("%q not in %q", want, all)
			}
		})
	}
}

func TestReadLayoutRotatedAndCropped(t *testing.T) {
	b, want := pdftest.OddGeometry(t)
	l := readLayout(t, b)
	for i, p := range l.Pages {
		if p.Page != want[i] {
			t.Errorf("page %d geometry %+v, want %+v", i+1, p.Page, want[i])
		}
		// Every page of the sample starts with its title, drawn 72 pt in from
		// the top-left of the visible box; user space does not turn with /Rotate.
		if len(p.Runs) == 0 {
			t.Fatalf("page %d: no text", i+1)
		}
		r := p.Runs[0]
		if !near(r.Box.LLX, p.CropBox.LLX+72) || r.Text != "Odd Geometry" {
			t.Errorf("page %d: first run %q at %+v (crop %+v)", i+1, r.Text, r.Box, p.CropBox)
		}
		for _, r := range p.Runs {
			c := pdf.Box{LLX: (r.Box.LLX + r.Box.URX) / 2, LLY: (r.Box.LLY + r.Box.URY) / 2}
			if !p.CropBox.Contains(c.LLX, c.LLY, 0, 0) {
				t.Errorf("page %d: run %q outside the crop box", i+1, r.Text)
			}
		}
	}
}

// TestDisplayMatchesEditor checks ToDisplay against the editor's pdfToScreen
// (web/src/editor/coords.mjs) for each rotation: display y is the shown
// height minus the screen y.
func TestDisplayMatchesEditor(t *testing.T) {
	crop := pdf.Box{LLX: 36, LLY: 18, URX: 576, URY: 756}
	pdfToScreen := func(rot int, x, y float64) (float64, float64) {
		switch rot {
		case 90:
			return y - crop.LLY, x - crop.LLX
		case 180:
			return crop.URX - x, y - crop.LLY
		case 270:
			return crop.URY - y, crop.URX - x
		}
		return x - crop.LLX, crop.URY - y
	}
	for _, rot := range []int{0, 90, 180, 270} {
		p := pdf.Page{MediaBox: letter, CropBox: crop, Rotate: rot}
		_, h := p.DisplaySize()
		for _, pt := range [][2]float64{{36, 18}, {100, 200}, {576, 756}, {300.5, 400.25}} {
			d := p.ToDisplay(pdf.Box{LLX: pt[0], LLY: pt[1], URX: pt[0], URY: pt[1]})
			sx, sy := pdfToScreen(rot, pt[0], pt[1])
			if !near(d.LLX, sx) || !near(d.LLY, h-sy) {
				t.Errorf("rotate %d: (%v) → (%v, %v), editor (%v, %v)", rot, pt, d.LLX, d.LLY, sx, h-sy)
			}
			back := p.FromDisplay(d)
			if !near(back.LLX, pt[0]) || !near(back.LLY, pt[1]) {
				t.Errorf("rotate %d: round trip of %v gave %+v", rot, pt, back)
			}
		}
	}
}

// TestReadLayoutCaps checks that a hostile PDF cannot make layout reading
// take more than the caps allow.
func TestReadLayoutCaps(t *testing.T) {
	ctx := context.Background()
	bomb := pdftest.Expanding{Pages: 1, Content: []int64{300 << 20}}.Build(t)
	if _, err := pdf.ReadLayout(ctx, bomb); !errors.Is(err, pdf.ErrExpandsTooMuch) {
		t.Errorf("300 MiB content stream: %v, want ErrExpandsTooMuch", err)
	}
	small := pdftest.Expanding{Pages: 3, Content: []int64{600 << 10, 600 << 10, 600 << 10}}.Build(t)
	l := pdf.Limits{MaxStreamBytes: 1 << 20, MaxFileBytes: 1 << 20}
	if _, err := l.ReadLayout(ctx, small); !errors.Is(err, pdf.ErrExpandsTooMuch) {
		t.Errorf("1.8 MiB of content under a 1 MiB file cap: %v, want ErrExpandsTooMuch", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := pdf.ReadLayout(canceled, sample(t, 1, "x")); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v", err)
	}
	if _, err := pdf.ReadLayout(ctx, pdftest.NotPDF()); !errors.Is(err, pdf.ErrNotPDF) {
		t.Errorf("not a PDF: %v", err)
	}
}

// TestReadLayoutFormBomb draws a form XObject that draws the next one ten
// times, twelve levels deep (10^12 operators if followed): the operator cap
// must stop it quickly.
func TestReadLayoutFormBomb(t *testing.T) {
	const levels = 12
	var objs []string
	first := 4
	objs = append(objs,
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X %d 0 R >> >> /Contents %d 0 R >>", first, first+levels),
	)
	for i := range levels {
		body := strings.Repeat("/X Do ", 10)
		res := fmt.Sprintf("/Resources << /XObject << /X %d 0 R >> >>", first+i+1)
		if i == levels-1 {
			body, res = "0 0 m 100 0 l S", ""
		}
		objs = append(objs, fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] %s /Length %d >>\nstream\n%s\nendstream", res, len(body), body))
	}
	page := "/X Do"
	objs = append(objs, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(page), page))
	_, err := untimed().ReadLayout(context.Background(), pdftest.RawPDF(objs))
	if !errors.Is(err, pdf.ErrTooComplex) || !strings.Contains(err.Error(), "form XObjects drawn") {
		t.Errorf("form bomb: %v, want the cap on forms drawn", err)
	}
}

// TestReadLayoutSelfDrawingForm: a form that draws itself many times is
// stopped by a counted cap, not by the wall-clock budget.
func TestReadLayoutSelfDrawingForm(t *testing.T) {
	_, err := untimed().ReadLayout(context.Background(), pdftest.SelfDrawingForm())
	if !errors.Is(err, pdf.ErrTooComplex) || strings.Contains(err.Error(), "of work") {
		t.Errorf("self-drawing form: %v, want a counted cap", err)
	}
}

// TestReadLayoutType3Widths: a Type3 font's widths are in its own glyph
// space (FontMatrix), here 1/100 em.
func TestReadLayoutType3Widths(t *testing.T) {
	content := "BT /T3 20 Tf 1 0 0 1 100 500 Tm (AA) Tj ET"
	doc := pdftest.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /T3 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 100 100] /FontMatrix [0.01 0 0 0.01 0 0] /CharProcs << /a 6 0 R >> " +
			"/Encoding << /Type /Encoding /Differences [65 /a] >> /FirstChar 65 /LastChar 65 /Widths [50] >>",
		"<< /Length 8 >>\nstream\n50 0 d0 \nendstream",
	})
	l := readLayout(t, doc)
	r := l.Pages[0].Runs
	if len(r) != 1 || r[0].Text != "aa" || !near(r[0].Box.LLX, 100) || !near(r[0].Box.URX, 120) {
		t.Errorf("runs %+v, want \"aa\" from 100 to 120", r)
	}
}

// TestReadLayoutFontSwitching: switching to a font written inside the
// resources (not an object of its own) a hundred thousand times reads its
// dictionary and its ToUnicode CMap once.
func TestReadLayoutFontSwitching(t *testing.T) {
	var cmap strings.Builder
	for k := range 5 {
		cmap.WriteString("100 beginbfchar\n")
		for c := range 100 {
			fmt.Fprintf(&cmap, "<%02X> <%04X>\n", k*100+c, 0x41+c%26)
		}
		cmap.WriteString("endbfchar\n")
	}
	content := "BT 1 0 0 1 72 700 Tm " + strings.Repeat("/F1 10 Tf ", 100_000) + "(A) Tj ET"
	doc := pdftest.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 5 0 R >> >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", cmap.Len(), cmap.String()),
	})
	var l pdf.Layout
	var err error
	alloc := allocated(func() { l, err = untimed().ReadLayout(context.Background(), doc) })
	if err != nil {
		t.Fatal(err)
	}
	if alloc > 64<<20 {
		t.Errorf("%d MiB allocated: the font is read more than once", alloc>>20)
	}
	if testing.Verbose() {
		t.Logf("%d KiB allocated", alloc>>10)
	}
	if r := l.Pages[0].Runs; len(r) != 1 || r[0].Text != "N" {
		t.Errorf("runs %+v, want the CMap's \"N\" for code 0x41 (65 mod 26 is 13)", r)
	}
}
