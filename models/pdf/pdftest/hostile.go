package pdftest

// Hostile PDFs: small, valid files whose content is expensive to read (deep
// nesting, huge text mappings, long field names, work the interpreter does
// not count). Each is made on demand by a generator, never stored; the
// upload tests send every one of them and check that the server answers
// within its bounds (docs/testing.md).

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
)

// Hostile is one hostile PDF of HostileFiles.
type Hostile struct {
	// Name is short and stable, for test logs.
	Name string
	// What says what the file does to a reader.
	What string
	// PDF is the file.
	PDF []byte
}

// HostileFiles returns every hostile PDF, each a few kilobytes to about a
// hundred.
func HostileFiles() []Hostile {
	return []Hostile{
		{"brackets-4M", "a content stream opening 4 million arrays", Brackets(4 << 20)},
		{"brackets-2M", "a content stream opening 2 million arrays", Brackets(2 << 20)},
		{"dicts-2M", "a content stream opening 2 million dictionaries", Dicts(2 << 20)},
		{"tounicode-range-25k", "a ToUnicode bfrange <0000> <FFFF> to a 25,000-unit string", ToUnicodeRange(25000, 1)},
		{"tounicode-range-30k-x2", "two ToUnicode bfranges <0000> <FFFF> to 30,000-unit strings", ToUnicodeRange(30000, 2)},
		{"one-code-100k-runes", "one code mapped to 100,000 runes, shown 50 times", ManyRunes(100000, 50)},
		{"field-names-105KB", "field names joined along a 32-level /Parent chain", FieldNameChain(32, 2100, 220)},
		{"field-names-116KB", "field names joined along a 32-level /Parent chain, more fields", FieldNameChain(32, 2100, 290)},
		{"whitespace-form-30MB", "a 30 MB whitespace form drawn 1,000 times", WhitespaceForm(30<<20, 1000)},
		{"font-size-0", "a 28 MB string at font size 0 in a form drawn 1,000 times", ZeroSizeText(28<<20, 1000)},
		{"text-tags-622k", "622,000 text tags on 4 pages, each one glyph mapped to a whole tag", TextTagFlood(4, 311, 500)},
		{"string-30MB", "one 30 MB string shown in a single operation", LongString(30 << 20)},
	}
}

// Brackets is a one-page PDF whose deflated content stream opens n arrays
// ("[" n times) and never closes them.
func Brackets(n int) []byte {
	return onePage(deflated("", func(w io.Writer) { repeat(w, "[", n) }), "")
}

// Dicts is a one-page PDF whose deflated content stream opens n
// dictionaries ("<<" n times) and never closes them.
func Dicts(n int) []byte {
	return onePage(deflated("", func(w io.Writer) { repeat(w, "<<", n) }), "")
}

// ToUnicodeRange is a one-page PDF showing a few codes of a Type0 font whose
// ToUnicode CMap holds ranges bfranges <0000> <FFFF>, each mapping to a
// string of units UTF-16 units (every code of the range maps to that string
// with its last unit incremented).
func ToUnicodeRange(units, ranges int) []byte {
	var cmap strings.Builder
	fmt.Fprintf(&cmap, "%d beginbfrange\n", ranges)
	for range ranges {
		cmap.WriteString("<0000> <FFFF> <")
		cmap.WriteString(strings.Repeat("0041", units))
		cmap.WriteString(">\n")
	}
	cmap.WriteString("endbfrange\n")
	return type0Page(cmap.String(), "BT /F1 12 Tf 72 700 Td <0001000200030004> Tj ET")
}

// ManyRunes is a one-page PDF whose Type0 font maps one code to a string of
// runes runes (ToUnicode bfchar), shown shows times.
func ManyRunes(runes, shows int) []byte {
	cmap := "1 beginbfchar\n<0001> <" + strings.Repeat("0042", runes) + ">\nendbfchar\n"
	return type0Page(cmap, "BT /F1 12 Tf 72 700 Td "+strings.Repeat("<0001> Tj ", shows)+"ET")
}

// FieldNameChain is a one-page PDF whose AcroForm holds a chain of depth
// fields, each the /Parent of the next and each with a /T of nameLen
// characters, and leaves text-field widgets under the last: every leaf's
// full name joins depth × nameLen characters.
func FieldNameChain(depth, nameLen, leaves int) []byte {
	const first = 5 // objects 1–4: catalog, pages, page, font
	objs := []string{
		fmt.Sprintf("<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%d 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 4 0 R >> >> >> >>", first),
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"", // the page, below
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	}
	for i := range depth {
		node := first + i
		kids := fmt.Sprintf("%d 0 R", node+1)
		if i == depth-1 {
			var ks []string
			for k := range leaves {
				ks = append(ks, fmt.Sprintf("%d 0 R", first+depth+k))
			}
			kids = strings.Join(ks, " ")
		}
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf(" /Parent %d 0 R", node-1)
		}
		objs = append(objs, fmt.Sprintf("<< /T (%s)%s /Kids [%s] >>", strings.Repeat(string(rune('a'+i%26)), nameLen), parent, kids))
	}
	var annots []string
	for k := range leaves {
		x, y := 20+float64(k%20)*28, 20+float64(k/20)*12
		objs = append(objs, fmt.Sprintf("<</Type/Annot/Subtype/Widget/FT/Tx/T(f%d)/Parent %d 0 R/P 3 0 R/Rect[%g %g %g %g]/DA(/Helv 0 Tf 0 g)>>",
			k, first+depth-1, x, y, x+25, y+10))
		annots = append(annots, fmt.Sprintf("%d 0 R", first+depth+k))
	}
	objs[2] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [" + strings.Join(annots, " ") + "] >>"
	return RawPDF(objs)
}

// WhitespaceForm is a one-page PDF drawing, draws times, a form XObject whose
// deflated content is size bytes of white space.
func WhitespaceForm(size int64, draws int) []byte {
	content := deflated("", func(w io.Writer) { repeat(w, "/X Do ", draws) })
	form := deflated("/Type /XObject /Subtype /Form /BBox [0 0 10 10]", func(w io.Writer) { _ = spaces(w, size) })
	return RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
		content,
		form,
	})
}

// ZeroSizeText is a one-page PDF drawing, draws times, a form XObject whose
// deflated content shows one string of size bytes at font size 0.
func ZeroSizeText(size, draws int) []byte {
	content := deflated("", func(w io.Writer) { repeat(w, "/X Do ", draws) })
	form := deflated("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >>", func(w io.Writer) {
		_, _ = io.WriteString(w, "BT /F1 0 Tf 72 700 Td (")
		repeat(w, "A", size)
		_, _ = io.WriteString(w, ") Tj ET\n")
	})
	return RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
		content,
		form,
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	})
}

// TextTagFlood is a PDF of pages pages, each showing lines lines of perLine
// codes of a Type0 font whose ToUnicode maps its one code to a whole text
// tag ("{{signature|1}}"): one glyph per tag, the tags a little more than a
// point apart both ways, so that no two are the same tag drawn twice.
func TextTagFlood(pages, lines, perLine int) []byte {
	tag := ""
	for _, r := range "{{signature|1}}" {
		tag += fmt.Sprintf("%04X", r)
	}
	cmap := "1 beginbfchar\n<0001> <" + tag + ">\nendbfchar\n"
	line := "<" + strings.Repeat("0001", perLine) + "> Tj 0 -1.5 Td\n"
	return type0Pages(pages, cmap, func(int) string {
		return "BT /F1 4 Tf 50.5 Tz 20 780 Td\n" + strings.Repeat(line, lines) + "ET"
	})
}

// LongString is a one-page PDF whose deflated content shows one string of
// size bytes.
func LongString(size int) []byte {
	return onePage(deflated("", func(w io.Writer) {
		_, _ = io.WriteString(w, "BT /F1 12 Tf 72 700 Td (")
		repeat(w, "Sign here ", size/10)
		_, _ = io.WriteString(w, ") Tj ET\n")
	}), "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>")
}

// BigText is an ordinary PDF of pages pages, each with 60 lines of about
// 90 characters of prose: a document with much text to search.
func BigText(pages int) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var kids []string
	for p := range pages {
		page, content := 3+2*p, 4+2*p
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents %d 0 R >>", content),
			deflated("", func(w io.Writer) {
				_, _ = io.WriteString(w, "BT /F1 9 Tf 11 TL 40 750 Td\n")
				for l := range 60 {
					fmt.Fprintf(w, "(Clause %d.%d: the parties agree that each term of this agreement binds them and their successors.) '\n", p+1, l+1)
				}
				_, _ = io.WriteString(w, "ET\n")
			}))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages)
	return RawPDF(objs)
}

// onePage is a one-page PDF whose content is the stream object content, with
// resources (dictionary entries) res.
func onePage(content, res string) []byte {
	return RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << " + res + " >> /Contents 4 0 R >>",
		content,
	})
}

// type0Page is a one-page PDF showing content with F1, a Type0 font
// (Identity-H, not embedded) whose ToUnicode CMap holds mappings.
func type0Page(mappings, content string) []byte {
	return type0Pages(1, mappings, func(int) string { return content })
}

// type0Pages is a PDF of n pages, page i showing content(i) with F1, a Type0
// font (Identity-H, not embedded) whose ToUnicode CMap holds mappings.
func type0Pages(n int, mappings string, content func(i int) string) []byte {
	cmap := "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapName /Hostile def\n/CMapType 2 def\n" +
		"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n" + mappings +
		"endcmap\nCMapName currentdict /CMapName defineresource pop\nend\nend\n"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"", // the pages, below
		"<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H /DescendantFonts [4 0 R] /ToUnicode 6 0 R >>",
		"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Hostile /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 5 0 R /DW 500 /CIDToGIDMap /Identity >>",
		"<< /Type /FontDescriptor /FontName /Hostile /Flags 4 /FontBBox [0 -200 1000 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>",
		deflated("", func(w io.Writer) { _, _ = io.WriteString(w, cmap) }),
	}
	var kids []string
	for i := range n {
		page := len(objs) + 1
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", page+1),
			deflated("", func(w io.Writer) { _, _ = io.WriteString(w, content(i)) }))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	return RawPDF(objs)
}

// deflated is a stream object (its dictionary dict plus /Filter and
// /Length) whose data fill writes, flate-compressed.
func deflated(dict string, fill func(io.Writer)) string {
	var data bytes.Buffer
	z, _ := zlib.NewWriterLevel(&data, zlib.BestCompression)
	fill(z)
	_ = z.Close()
	return fmt.Sprintf("<< %s /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", dict, data.Len(), data.Bytes())
}

// repeat writes s n times to w, in chunks.
func repeat(w io.Writer, s string, n int) {
	per := max(1, (64<<10)/len(s))
	chunk := strings.Repeat(s, per)
	for n > 0 {
		k := min(n, per)
		_, _ = io.WriteString(w, chunk[:k*len(s)])
		n -= k
	}
}
