package pdftest

// A small PDF writer for the detection corpus: pages are drawn in display
// coordinates (the page as shown: CropBox turned by /Rotate, origin at its
// bottom-left), which the writer maps to user space with one matrix per page,
// and every drawing call can record what a detector should find there.

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/font"

	"github.com/markuproom/markuproom/models/pdf"
)

// Fonts of every corpus document, by resource name.
const (
	Helv      = "F1" // Helvetica, WinAnsiEncoding
	HelvBold  = "F2" // Helvetica-Bold
	Times     = "F3" // Times-Roman
	Courier   = "F4" // Courier
	TimesBold = "F5" // Times-Bold
	// HelvDiff is Helvetica whose braces and bar sit at codes 1, 2 and 3
	// (an /Encoding with /Differences) with its own /Widths.
	HelvDiff = "F6"
	// Identity is a Type0 font (Identity-H, two-byte codes unrelated to
	// Unicode) that only its ToUnicode CMap and /W array explain.
	Identity = "F7"
)

// coreOf is the standard font whose metrics a resource font uses.
var coreOf = map[string]string{
	Helv: "Helvetica", HelvBold: "Helvetica-Bold", Times: "Times-Roman", Courier: "Courier",
	TimesBold: "Times-Bold", HelvDiff: "Helvetica", Identity: "Helvetica",
}

// descents are the fonts' descenders in em (AFM values).
var descents = map[string]float64{"Helvetica": -0.207, "Helvetica-Bold": -0.207, "Times-Roman": -0.217, "Times-Bold": -0.217, "Courier": -0.157}

// diffCodes are the codes HelvDiff uses for these characters.
var diffCodes = map[rune]byte{'{': 1, '|': 2, '}': 3}

// CorpusField is a field a detector must find in a corpus document. Its box
// is in user space; for a label it is the blank (a line has no height: its
// Y is the line's), for text tags and form fields the tag's box.
type CorpusField struct {
	Source string  `json:"source"`
	Type   string  `json:"type"`
	Page   int     `json:"page"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Signer *int    `json:"signer"`
	Text   string  `json:"text"`
}

// CorpusProblem is a malformed text tag a detector must report.
type CorpusProblem struct {
	Page int    `json:"page"`
	Text string `json:"text"`
	Code string `json:"code"`
}

// CorpusExpected is what a corpus document holds.
type CorpusExpected struct {
	Fields   []CorpusField   `json:"fields"`
	Problems []CorpusProblem `json:"problems"`
}

// CorpusDoc is one generated corpus document.
type CorpusDoc struct {
	Name     string
	PDF      []byte
	Expected CorpusExpected
}

// docWriter builds one corpus document.
type docWriter struct {
	objs     []string
	pages    []*pageWriter
	fields   []int // top-level AcroForm fields
	cids     map[rune]bool
	expected CorpusExpected
}

// pageWriter draws one page.
type pageWriter struct {
	doc    *docWriter
	n      int
	nr     int
	geo    pdf.Page
	d      [6]float64 // display to user space
	ops    strings.Builder
	annots []int
}

func newDoc() *docWriter {
	w := &docWriter{cids: map[rune]bool{}, expected: CorpusExpected{Fields: []CorpusField{}, Problems: []CorpusProblem{}}}
	for range 9 { // catalog, pages, F1..F7
		w.alloc()
	}
	return w
}

func (w *docWriter) alloc() int {
	w.objs = append(w.objs, "")
	return len(w.objs)
}

func (w *docWriter) set(nr int, body string) { w.objs[nr-1] = body }

// letterPage adds a US Letter page.
func (w *docWriter) letterPage() *pageWriter {
	l := pdf.Box{URX: 612, URY: 792}
	return w.page(pdf.Page{MediaBox: l, CropBox: l})
}

// page adds a page with the given geometry (Rotate 0, 90, 180 or 270).
func (w *docWriter) page(g pdf.Page) *pageWriter {
	p := &pageWriter{doc: w, n: len(w.pages) + 1, nr: w.alloc(), geo: g}
	c := g.CropBox
	switch g.Rotate {
	case 90:
		p.d = [6]float64{0, 1, -1, 0, c.URX, c.LLY}
	case 180:
		p.d = [6]float64{-1, 0, 0, -1, c.URX, c.URY}
	case 270:
		p.d = [6]float64{0, -1, 1, 0, c.LLX, c.URY}
	default:
		p.d = [6]float64{1, 0, 0, 1, c.LLX, c.LLY}
	}
	w.pages = append(w.pages, p)
	return p
}

// num formats a number for content streams.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*1e4)/1e4, 'f', -1, 64) }

// width returns the advance of s in font f at size, in points.
func width(f string, size float64, s string) float64 {
	total := 0.0
	for _, r := range s {
		c, err := font.CharWidth(coreOf[f], r)
		if err != nil {
			c = 500
		}
		total += float64(c)
	}
	return total / 1000 * size
}

// emBox returns the display box of text of the given advance at baseline
// (x, y): from the descender to one em above it.
func emBox(f string, size, x, y, adv float64) pdf.Box {
	lo := y + descents[coreOf[f]]*size
	return pdf.Box{LLX: x, LLY: lo, URX: x + adv, URY: lo + size}
}

// encode writes s as a string operand for font f.
func (p *pageWriter) encode(f, s string) string {
	switch f {
	case Identity:
		var sb strings.Builder
		sb.WriteByte('<')
		for _, r := range s {
			p.doc.cids[r] = true
			fmt.Fprintf(&sb, "%04X", cidOf(r))
		}
		sb.WriteByte('>')
		return sb.String()
	case HelvDiff:
		var sb strings.Builder
		sb.WriteByte('(')
		for _, r := range s {
			if c, ok := diffCodes[r]; ok {
				fmt.Fprintf(&sb, "\\%03o", c)
				continue
			}
			writeLiteralRune(&sb, r)
		}
		sb.WriteByte(')')
		return sb.String()
	}
	var sb strings.Builder
	sb.WriteByte('(')
	for _, r := range s {
		writeLiteralRune(&sb, r)
	}
	sb.WriteByte(')')
	return sb.String()
}

func writeLiteralRune(sb *strings.Builder, r rune) {
	switch {
	case r == '(' || r == ')' || r == '\\':
		sb.WriteByte('\\')
		sb.WriteRune(r)
	case r >= 0x20 && r < 0x7f:
		sb.WriteRune(r)
	case r >= 0xa0 && r <= 0xff:
		fmt.Fprintf(sb, "\\%03o", r)
	default:
		sb.WriteByte('?')
	}
}

// cidOf is the glyph code the Identity font uses for r: deliberately not r.
func cidOf(r rune) int { return int(r) + 0x0100 }

// tm returns the text matrix placing display point (x, y).
func (p *pageWriter) tm(x, y float64) string {
	d := p.d
	return fmt.Sprintf("%s %s %s %s %s %s Tm", num(d[0]), num(d[1]), num(d[2]), num(d[3]), num(d[0]*x+d[2]*y+d[4]), num(d[1]*x+d[3]*y+d[5]))
}

// text draws s with its baseline starting at display point (x, y) and
// returns its display box.
func (p *pageWriter) text(f string, size, x, y float64, s string) pdf.Box {
	fmt.Fprintf(&p.ops, "BT /%s %s Tf %s %s Tj ET\n", f, num(size), p.tm(x, y), p.encode(f, s))
	return emBox(f, size, x, y, width(f, size, s))
}

// textKerned draws parts (strings and kerning numbers in thousandths of an
// em, as in a TJ array) and returns the display box of the whole.
func (p *pageWriter) textKerned(f string, size, x, y float64, parts ...any) pdf.Box {
	var sb strings.Builder
	adv := 0.0
	for _, part := range parts {
		switch v := part.(type) {
		case string:
			sb.WriteString(p.encode(f, v))
			adv += width(f, size, v)
		case float64:
			sb.WriteString(" " + num(v) + " ")
			adv -= v / 1000 * size
		}
	}
	fmt.Fprintf(&p.ops, "BT /%s %s Tf %s [%s] TJ ET\n", f, num(size), p.tm(x, y), sb.String())
	return emBox(f, size, x, y, adv)
}

// cm is the matrix that makes display coordinates of paths work.
func (p *pageWriter) cm() string {
	d := p.d
	return fmt.Sprintf("%s %s %s %s %s %s cm", num(d[0]), num(d[1]), num(d[2]), num(d[3]), num(d[4]), num(d[5]))
}

// hline strokes a horizontal line at display height y.
func (p *pageWriter) hline(x1, x2, y float64) {
	fmt.Fprintf(&p.ops, "q %s 0.6 w %s %s m %s %s l S Q\n", p.cm(), num(x1), num(y), num(x2), num(y))
}

// vline strokes a vertical line.
func (p *pageWriter) vline(x, y1, y2 float64) {
	fmt.Fprintf(&p.ops, "q %s 0.6 w %s %s m %s %s l S Q\n", p.cm(), num(x), num(y1), num(x), num(y2))
}

// filledRule fills a thin rectangle under (x1..x2, y), as word processors
// draw underlines.
func (p *pageWriter) filledRule(x1, x2, y float64) {
	fmt.Fprintf(&p.ops, "q %s %s %s %s 0.5 re f Q\n", p.cm(), num(x1), num(y-0.25), num(x2-x1))
}

// rect strokes a rectangle.
func (p *pageWriter) rect(b pdf.Box) {
	fmt.Fprintf(&p.ops, "q %s 0.75 w %s %s %s %s re S Q\n", p.cm(), num(b.LLX), num(b.LLY), num(b.Width()), num(b.Height()))
}

// paragraph draws lines of body text from baseline y down, 14 pt apart,
// and returns the baseline after the last line.
func (p *pageWriter) paragraph(f string, size, x, y float64, lines ...string) float64 {
	for _, l := range lines {
		p.text(f, size, x, y, l)
		y -= size * 1.35
	}
	return y
}

// user maps a display box to user space.
func (p *pageWriter) user(b pdf.Box) pdf.Box { return p.geo.FromDisplay(b) }

// expect records a field whose display box is b.
func (p *pageWriter) expect(source, typ string, signer int, text string, b pdf.Box) {
	u := p.user(b)
	f := CorpusField{Source: source, Type: typ, Page: p.n, X: r2(u.LLX), Y: r2(u.LLY), Width: r2(u.Width()), Height: r2(u.Height()), Text: text}
	if signer > 0 {
		f.Signer = &signer
	}
	p.doc.expected.Fields = append(p.doc.expected.Fields, f)
}

func r2(v float64) float64 { return math.Round(v*100) / 100 }

// tag draws a text tag and records it.
func (p *pageWriter) tag(f string, size, x, y float64, s, typ string, signer int) pdf.Box {
	b := p.text(f, size, x, y, s)
	p.expect("text-tag", typ, signer, s, b)
	return b
}

// problem records a malformed text tag drawn on this page.
func (p *pageWriter) problem(text, code string) {
	p.doc.expected.Problems = append(p.doc.expected.Problems, CorpusProblem{Page: p.n, Text: text, Code: code})
}

// labelLine draws a label with an underline to its right and records the
// suggestion; it returns the end of the line.
func (p *pageWriter) labelLine(f string, size, x, y float64, label, typ string, lineLen float64) float64 {
	b := p.text(f, size, x, y, label)
	x1 := b.URX + 4
	p.hline(x1, x1+lineLen, y-1)
	p.expect("label", typ, 0, label, pdf.Box{LLX: x1, LLY: y - 1, URX: x1 + lineLen, URY: y - 1})
	return x1 + lineLen
}

// lineLabel draws a line with a label just under it (the common signature
// block) and records the suggestion.
func (p *pageWriter) lineLabel(f string, size, x, y, lineLen float64, label, typ string) {
	p.hline(x, x+lineLen, y)
	p.text(f, size, x, y-size-2, label)
	p.expect("label", typ, 0, label, pdf.Box{LLX: x, LLY: y, URX: x + lineLen, URY: y})
}

// underscoreLabel writes "label ____" in one string and records the
// suggestion at the underscores (the line sits a tenth of an em under the
// baseline, where the underscore glyph is drawn).
func (p *pageWriter) underscoreLabel(f string, size, x, y float64, label, typ string, n int) float64 {
	lead := label + " "
	p.text(f, size, x, y, lead+strings.Repeat("_", n))
	ux := x + width(f, size, lead)
	uw := width(f, size, strings.Repeat("_", n))
	p.expect("label", typ, 0, label, pdf.Box{LLX: ux, LLY: y - 0.1*size, URX: ux + uw, URY: y - 0.1*size})
	return ux + uw
}

// widget adds a form field widget at display box b. kind is a field type
// (/FT) with flags; parent, when non-zero, is the object of the parent field.
func (p *pageWriter) widget(ft string, flags int, name string, b pdf.Box, hidden bool, parent int) int {
	nr := p.doc.alloc()
	u := p.user(b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "<< /Type /Annot /Subtype /Widget /Rect [%s %s %s %s] /P %d 0 R /F %d", num(u.LLX), num(u.LLY), num(u.URX), num(u.URY), p.nr, map[bool]int{false: 4, true: 6}[hidden])
	if parent != 0 {
		fmt.Fprintf(&sb, " /Parent %d 0 R", parent)
	} else {
		fmt.Fprintf(&sb, " /FT /%s", ft)
		p.doc.fields = append(p.doc.fields, nr)
	}
	if name != "" {
		fmt.Fprintf(&sb, " /T %s", p.encode(Helv, name))
	}
	if flags != 0 {
		fmt.Fprintf(&sb, " /Ff %d", flags)
	}
	if ft == "Tx" || ft == "Ch" {
		sb.WriteString(" /DA (/Helv 10 Tf 0 g)")
	}
	if ft == "Ch" {
		sb.WriteString(" /Opt [(One) (Two)]")
	}
	if ft == "Btn" && flags&(1<<16) == 0 {
		sb.WriteString(" /AS /Off /MK << >>")
	}
	sb.WriteString(" >>")
	p.doc.set(nr, sb.String())
	p.annots = append(p.annots, nr)
	return nr
}

// field adds a widget and records the tag it must become.
func (p *pageWriter) field(ft string, flags int, name, typ string, signer int, b pdf.Box) {
	p.widget(ft, flags, name, b, false, 0)
	p.expect("form-field", typ, signer, name, b)
}

// parentField adds a field with no widget of its own; kids are added with
// widget(…, parent) and listed by kids.
func (w *docWriter) parentField(ft, name string) int {
	nr := w.alloc()
	w.fields = append(w.fields, nr)
	w.set(nr, fmt.Sprintf("<< /FT /%s /T (%s) /Kids [] >>", ft, name))
	return nr
}

// setKids writes the /Kids of a parent field.
func (w *docWriter) setKids(parent int, ft, name string, kids ...int) {
	refs := make([]string, len(kids))
	for i, k := range kids {
		refs[i] = fmt.Sprintf("%d 0 R", k)
	}
	w.set(parent, fmt.Sprintf("<< /FT /%s /T (%s) /Kids [%s] >>", ft, name, strings.Join(refs, " ")))
}

// bytes writes the document.
func (w *docWriter) bytes() []byte {
	const catalog, pages = 1, 2
	kids := make([]string, len(w.pages))
	for i, p := range w.pages {
		kids[i] = fmt.Sprintf("%d 0 R", p.nr)
		content := w.alloc()
		w.set(content, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", p.ops.Len(), p.ops.String()))
		var sb strings.Builder
		fmt.Fprintf(&sb, "<< /Type /Page /Parent %d 0 R /MediaBox %s", pages, rect(p.geo.MediaBox))
		if p.geo.CropBox != p.geo.MediaBox {
			fmt.Fprintf(&sb, " /CropBox %s", rect(p.geo.CropBox))
		}
		if p.geo.Rotate != 0 {
			fmt.Fprintf(&sb, " /Rotate %d", p.geo.Rotate)
		}
		sb.WriteString(" /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R /F4 6 0 R /F5 7 0 R /F6 8 0 R /F7 9 0 R >> /ProcSet [/PDF /Text] >>")
		fmt.Fprintf(&sb, " /Contents %d 0 R", content)
		if len(p.annots) > 0 {
			refs := make([]string, len(p.annots))
			for i, a := range p.annots {
				refs[i] = fmt.Sprintf("%d 0 R", a)
			}
			fmt.Fprintf(&sb, " /Annots [%s]", strings.Join(refs, " "))
		}
		sb.WriteString(" >>")
		w.set(p.nr, sb.String())
	}
	cat := fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R", pages)
	if len(w.fields) > 0 {
		refs := make([]string, len(w.fields))
		for i, f := range w.fields {
			refs[i] = fmt.Sprintf("%d 0 R", f)
		}
		cat += fmt.Sprintf(" /AcroForm << /Fields [%s] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >>", strings.Join(refs, " "))
	}
	w.set(catalog, cat+" >>")
	w.set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(w.pages)))
	for i, name := range []string{"Helvetica", "Helvetica-Bold", "Times-Roman", "Courier", "Times-Bold"} {
		w.set(3+i, fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>", name))
	}
	w.set(8, w.diffFont())
	w.set(9, w.type0Font())
	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(w.objs))
	for i, body := range w.objs {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, body)
	}
	sum := sha256.Sum256(out.Bytes())
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(w.objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root %d 0 R /ID [<%X> <%X>] >>\nstartxref\n%d\n%%%%EOF\n", len(w.objs)+1, catalog, sum[:16], sum[:16], xref)
	return out.Bytes()
}

// diffFont is Helvetica with braces and bar moved to codes 1..3.
func (w *docWriter) diffFont() string {
	ws := make([]string, 0, 255)
	for c := 1; c <= 255; c++ {
		r := rune(c)
		for k, v := range diffCodes {
			if int(v) == c {
				r = k
			}
		}
		cw, err := font.CharWidth("Helvetica", r)
		if err != nil || (c > 3 && c < 32) {
			cw = 0
		}
		ws = append(ws, strconv.Itoa(cw))
	}
	return fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 1 /LastChar 255 /Widths [%s] "+
		"/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /braceleft /bar /braceright] >> >>", strings.Join(ws, " "))
}

// type0Font writes the Identity font with its descendant, descriptor and
// ToUnicode CMap for the characters used.
func (w *docWriter) type0Font() string {
	cid, desc, cmap := w.alloc(), w.alloc(), w.alloc()
	runes := make([]rune, 0, len(w.cids))
	for r := range w.cids {
		runes = append(runes, r)
	}
	sort.Slice(runes, func(i, j int) bool { return runes[i] < runes[j] })
	var widths, chars strings.Builder
	for _, r := range runes {
		cw, err := font.CharWidth("Helvetica", r)
		if err != nil {
			cw = 500
		}
		fmt.Fprintf(&widths, "%d [%d] ", cidOf(r), cw)
		fmt.Fprintf(&chars, "<%04X> <%04X>\n", cidOf(r), r)
	}
	w.set(cid, fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ArialMT /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "+
		"/FontDescriptor %d 0 R /DW 1000 /W [%s] /CIDToGIDMap /Identity >>", desc, widths.String()))
	w.set(desc, "<< /Type /FontDescriptor /FontName /ArialMT /Flags 32 /FontBBox [-665 -325 2000 1040] /ItalicAngle 0 /Ascent 905 /Descent -207 /CapHeight 716 /StemV 80 >>")
	cm := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
		"/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n" +
		fmt.Sprintf("%d beginbfchar\n%sendbfchar\n", len(runes), chars.String()) +
		"endcmap CMapName currentdict /CMap defineresource pop end end"
	w.set(cmap, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cm), cm))
	return fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /ArialMT /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", cid, cmap)
}

func rect(b pdf.Box) string {
	return fmt.Sprintf("[%s %s %s %s]", num(b.LLX), num(b.LLY), num(b.URX), num(b.URY))
}
