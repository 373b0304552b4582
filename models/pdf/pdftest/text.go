package pdftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
)

// PlacedText is one string drawn in Helvetica (or Font, a standard font
// TextPDF knows: "Times-Roman") of Size points with its baseline starting
// at (X, Y), in user space.
type PlacedText struct {
	X, Y, Size float64
	Text       string
	Font       string
}

// TextWidth is the advance of s drawn in font (a PlacedText's Font) at
// size, in points.
func TextWidth(font string, size float64, s string) float64 {
	if font == "Times-Roman" {
		return width(Times, size, s)
	}
	return width(Helv, size, s)
}

// TextPage is a page of TextPDF: its MediaBox is 0 0 Width Height.
type TextPage struct {
	Width, Height float64
	Texts         []PlacedText
}

// TextPDF writes a PDF of the given pages, each drawing its texts (one text
// object each, in order; characters past Latin-1 become '?'): documents made
// by a test, such as the template matching corpus's forms.
func TextPDF(pages []TextPage) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"}
	fonts := "/F1 3 0 R"
	for _, p := range pages {
		if slices.ContainsFunc(p.Texts, func(t PlacedText) bool { return t.Font == "Times-Roman" }) {
			objs = append(objs, "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>")
			fonts += " /F2 4 0 R"
			break
		}
	}
	kids := make([]string, len(pages))
	for i, p := range pages {
		var ops strings.Builder
		for _, t := range p.Texts {
			var s strings.Builder
			for _, r := range t.Text {
				writeLiteralRune(&s, r)
			}
			f := "F1"
			if t.Font == "Times-Roman" {
				f = "F2"
			}
			fmt.Fprintf(&ops, "BT /%s %s Tf %s %s Td (%s) Tj ET\n", f, num(t.Size), num(t.X), num(t.Y), s.String())
		}
		page := len(objs) + 1
		kids[i] = fmt.Sprintf("%d 0 R", page)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Resources << /Font << %s >> >> /Contents %d 0 R >>",
				num(p.Width), num(p.Height), fonts, page+1),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", ops.Len(), ops.String()))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages))
	return RawPDF(objs)
}

// LinesLayout is a one-page Letter layout whose runs are lines, each glyph 6
// points wide on its line (a long line wraps onto itself every 60 glyphs, so
// every tag placed near a glyph stays on the page): a document's text
// without a PDF, for the anchor search's tests.
func LinesLayout(lines ...string) pdf.Layout {
	page := pdf.PageLayout{Page: pdf.Page{MediaBox: pdf.Box{URX: 612, URY: 792}, CropBox: pdf.Box{URX: 612, URY: 792}}}
	for i, line := range lines {
		y := 700 - 14*float64(i)
		run := pdf.TextRun{Text: line, Size: 10}
		for k := range []rune(line) {
			x := 50 + 6*float64(k%60)
			run.Glyphs = append(run.Glyphs, pdf.Box{LLX: x, LLY: y, URX: x + 6, URY: y + 10})
		}
		page.Runs = append(page.Runs, run)
	}
	return pdf.Layout{Pages: []pdf.PageLayout{page}}
}
