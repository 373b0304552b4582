package pdf

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxSamplePages caps the size of generated samples.
const maxSamplePages = 100_000

// defaultSampleTitle is used when Sample is given an empty title.
const defaultSampleTitle = "Sample Agreement"

// letter returns the US Letter page box, 612 x 792 points.
func letter() Box { return Box{URX: 612, URY: 792} }

// SampleField is a labelled line on every page of a Sample, where a user
// would place a tag.
type SampleField struct {
	Label string `json:"label"`
	// Box is the area just above the line, in the page's user space.
	Box Box `json:"box"`
}

// sampleLine is a labelled rule, placed relative to the lower-left corner of
// the page's CropBox.
type sampleLine struct {
	label   string
	x, y, w float64
}

// sampleLines returns the labelled rules drawn on each sample page.
func sampleLines() []sampleLine {
	return []sampleLine{
		{"Signature", 72, 160, 216},
		{"Date", 324, 160, 144},
		{"Initials", 72, 100, 108},
		{"Printed name", 324, 100, 216},
	}
}

// fieldHeight is the height of the area above a rule that SampleFields reports.
const fieldHeight = 24

// SampleFields returns the labelled lines of a Sample page (US Letter, no
// CropBox), in the order Signature, Date, Initials, Printed name.
func SampleFields() []SampleField {
	var fs []SampleField
	for _, l := range sampleLines() {
		fs = append(fs, SampleField{Label: l.label, Box: Box{LLX: l.x, LLY: l.y, URX: l.x + l.w, URY: l.y + fieldHeight}})
	}
	return fs
}

// SampleNode is one node of the page tree SampleTree writes: a page when
// Kids is nil, otherwise a Pages node; a zero MediaBox or CropBox and a zero
// Rotate are left out of the node so they are inherited.
type SampleNode struct {
	MediaBox Box
	CropBox  Box
	Rotate   int
	Kids     []SampleNode
}

// Sample returns a deterministic, valid, unencrypted PDF of n US Letter
// pages that looks like a short agreement titled title.
func Sample(n int, title string) ([]byte, error) {
	if n < 1 || n > maxSamplePages {
		return nil, fmt.Errorf("pdf: sample page count %d outside 1..%d", n, maxSamplePages)
	}
	root := SampleNode{Kids: make([]SampleNode, n)}
	for i := range root.Kids {
		root.Kids[i].MediaBox = letter()
	}
	return SampleTree(root, title)
}

// SampleTree returns a deterministic sample PDF whose page tree has the shape
// and page attributes of root (which is always written as the root Pages
// node), for testing page geometry; a page left without any MediaBox gets US
// Letter on the page itself.
func SampleTree(root SampleNode, title string) ([]byte, error) {
	if title == "" {
		title = defaultSampleTitle
	}
	total, err := countPages(root, 0)
	if err != nil {
		return nil, err
	}
	b := &sampleBuilder{title: title, total: total}
	catalog, info, resources := b.alloc(), b.alloc(), b.alloc()
	f1, f2 := b.alloc(), b.alloc()
	pagesNr := b.alloc()
	b.set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesNr))
	b.set(info, fmt.Sprintf("<< /Title %s /Producer (Markup Room) /Creator (Markup Room) >>", textString(title)))
	b.set(resources, fmt.Sprintf("<< /Font << /F1 %d 0 R /F2 %d 0 R >> /ProcSet [/PDF /Text] >>", f1, f2))
	b.set(f1, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	b.set(f2, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	b.resources = resources
	b.pagesNode(root, pagesNr, 0, geometry{})
	return b.bytes(catalog, info), nil
}

// countPages counts the pages under n, treating n as a Pages node.
func countPages(n SampleNode, depth int) (int, error) {
	if depth > maxTreeDepth {
		return 0, errors.New("pdf: sample page tree too deep")
	}
	total := 0
	for _, k := range n.Kids {
		if k.Kids == nil {
			total++
		} else {
			c, err := countPages(k, depth+1)
			if err != nil {
				return 0, err
			}
			total += c
		}
		if total > maxSamplePages {
			return 0, fmt.Errorf("pdf: sample has more than %d pages", maxSamplePages)
		}
	}
	return total, nil
}

// geometry is the inherited MediaBox and CropBox while writing the tree.
type geometry struct {
	media, crop *Box
}

// apply returns g updated with the boxes n sets.
func (g geometry) apply(n SampleNode) geometry {
	if n.MediaBox != (Box{}) {
		m := n.MediaBox.Normalized()
		g.media = &m
	}
	if n.CropBox != (Box{}) {
		c := n.CropBox.Normalized()
		g.crop = &c
	}
	return g
}

// sampleBuilder collects numbered object bodies.
type sampleBuilder struct {
	objs      []string // objs[i] is the body of object i+1
	title     string
	total     int
	pageNo    int
	resources int
}

// alloc reserves the next object number.
func (b *sampleBuilder) alloc() int {
	b.objs = append(b.objs, "")
	return len(b.objs)
}

// set stores the body of object nr.
func (b *sampleBuilder) set(nr int, body string) { b.objs[nr-1] = body }

// boxAttrs writes the attributes a node sets explicitly.
func boxAttrs(sb *strings.Builder, n SampleNode, forceMedia *Box) {
	if n.MediaBox != (Box{}) {
		fmt.Fprintf(sb, " /MediaBox %s", rectString(n.MediaBox))
	} else if forceMedia != nil {
		fmt.Fprintf(sb, " /MediaBox %s", rectString(*forceMedia))
	}
	if n.CropBox != (Box{}) {
		fmt.Fprintf(sb, " /CropBox %s", rectString(n.CropBox))
	}
	if n.Rotate != 0 {
		fmt.Fprintf(sb, " /Rotate %d", n.Rotate)
	}
}

// pagesNode writes the Pages node n as object nr and its subtree.
func (b *sampleBuilder) pagesNode(n SampleNode, nr, parent int, g geometry) {
	g = g.apply(n)
	kids := make([]string, len(n.Kids))
	for i, k := range n.Kids {
		knr := b.alloc()
		kids[i] = fmt.Sprintf("%d 0 R", knr)
		if k.Kids == nil {
			b.page(k, knr, nr, g)
		} else {
			b.pagesNode(k, knr, nr, g)
		}
	}
	count, _ := countPages(n, 0)
	var sb strings.Builder
	sb.WriteString("<< /Type /Pages")
	if parent != 0 {
		fmt.Fprintf(&sb, " /Parent %d 0 R", parent)
	}
	fmt.Fprintf(&sb, " /Kids [%s] /Count %d", strings.Join(kids, " "), count)
	boxAttrs(&sb, n, nil)
	sb.WriteString(" >>")
	b.set(nr, sb.String())
}

// page writes the page n as object nr, followed by its content stream.
func (b *sampleBuilder) page(n SampleNode, nr, parent int, g geometry) {
	b.pageNo++
	g = g.apply(n)
	var force *Box
	if g.media == nil {
		l := letter()
		force, g.media = &l, &l
	}
	view := *g.media
	if g.crop != nil {
		if c, ok := g.crop.Intersect(view); ok {
			view = c
		}
	}
	content := b.alloc()
	var sb strings.Builder
	fmt.Fprintf(&sb, "<< /Type /Page /Parent %d 0 R", parent)
	boxAttrs(&sb, n, force)
	fmt.Fprintf(&sb, " /Resources %d 0 R /Contents %d 0 R >>", b.resources, content)
	b.set(nr, sb.String())
	cs := pageContent(b.title, b.pageNo, b.total, view)
	b.set(content, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cs), cs))
}

// bytes serializes the objects with a cross-reference table and trailer.
func (b *sampleBuilder) bytes(catalog, info int) []byte {
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(b.objs)+1)
	for i, body := range b.objs {
		offsets[i+1] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, body)
	}
	sum := sha256.Sum256(out.Bytes())
	id := fmt.Sprintf("%X", sum[:16])
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(b.objs)+1)
	for _, off := range offsets[1:] {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n",
		len(b.objs)+1, catalog, info, id, id, xref)
	return out.Bytes()
}

// pageContent returns the content stream of sample page i of n, laid out
// from the top-left corner of the visible box v.
func pageContent(title string, i, n int, v Box) string {
	x, top, bottom := v.LLX+72, v.URY-72, v.LLY
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	at := func(dx, y float64) string { return fmt.Sprintf("1 0 0 1 %s %s Tm", num(x+dx), num(y)) }
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	w("BT")
	w("/F2 16 Tf %s %s Tj", at(0, top), textLiteral(shorten(title, 48)))
	w("/F1 10 Tf %s %s Tj", at(0, top-18), textLiteral(fmt.Sprintf("Page %d of %d", i, n)))
	w("ET")
	w("0.75 w %s %s m %s %s l S", num(x), num(top-28), num(x+468), num(top-28))
	body := []string{
		`This agreement (the "Agreement") is made between the parties named below.`,
		fmt.Sprintf("Section %d. The parties agree to the terms set out on this page.", i),
		"",
		fmt.Sprintf("%d.1 Services. The provider will perform the services described in Schedule A.", i),
		fmt.Sprintf("%d.2 Payment. The client will pay each invoice within thirty (30) days.", i),
		fmt.Sprintf("%d.3 Term. This Agreement starts on the date of the last signature below.", i),
		"",
		"Each party confirms that it has read and understood this page.",
		"Please sign, initial and date on the lines below.",
	}
	w("BT /F1 11 Tf 15 TL %s", at(0, top-56))
	for k, line := range body {
		if k > 0 {
			w("T*")
		}
		if line != "" {
			w("%s Tj", textLiteral(line))
		}
	}
	w("ET")
	lines := sampleLines()
	w("0.5 w")
	for _, l := range lines {
		w("%s %s m %s %s l S", num(v.LLX+l.x), num(bottom+l.y), num(v.LLX+l.x+l.w), num(bottom+l.y))
	}
	w("BT /F1 9 Tf")
	for _, l := range lines {
		w("1 0 0 1 %s %s Tm %s Tj", num(v.LLX+l.x), num(bottom+l.y-12), textLiteral(l.label))
	}
	sb.WriteString("ET")
	return sb.String()
}

// shorten cuts s to at most limit runes, marking the cut with "...".
func shorten(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit-3]) + "..."
}

// textLiteral returns s as a PDF literal string for a WinAnsiEncoding font:
// delimiters are escaped, Latin-1 letters written as octal escapes, and
// anything the encoding lacks replaced by "?".
func textLiteral(s string) string {
	var sb strings.Builder
	sb.WriteByte('(')
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r == '\t' || r == '\n' || r == '\r':
			sb.WriteByte(' ')
		case r >= 0x20 && r < 0x7f:
			sb.WriteRune(r)
		case r >= 0xa0 && r <= 0xff:
			fmt.Fprintf(&sb, "\\%03o", r)
		default:
			sb.WriteByte('?')
		}
	}
	sb.WriteByte(')')
	return sb.String()
}

// textString returns s as a PDF text string: UTF-16BE with a byte order
// mark, written in hex so it survives any characters.
func textString(s string) string {
	var sb strings.Builder
	sb.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(strings.ToValidUTF8(s, "\uFFFD"))) {
		fmt.Fprintf(&sb, "%04X", u)
	}
	sb.WriteByte('>')
	return sb.String()
}

// rectString formats a box as a PDF rectangle array.
func rectString(b Box) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return fmt.Sprintf("[%s %s %s %s]", f(b.LLX), f(b.LLY), f(b.URX), f(b.URY))
}
