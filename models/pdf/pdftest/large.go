package pdftest

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
)

// Large describes an honest document whose streams decode to many bytes:
// the logos, scans and manuals the decode caps must let in (docs/decisions.md,
// "Bounded PDF work"). Pages of text come first, then one page per image;
// the page dictionaries and fonts sit in object streams and the file ends
// with a cross-reference stream when ObjectStreams is set, as pdfTeX,
// LibreOffice and qpdf write them. Build is deterministic.
type Large struct {
	// TextPages is the number of pages of text (LinesPerPage lines each).
	TextPages int
	// LinesPerPage is the lines of about 90 characters on a text page (0: 50).
	LinesPerPage int
	// Images are drawn one per page, each filling a Letter page, after the
	// text pages.
	Images []Image
	// FontBytes, when positive, embeds a TrueType font program of that
	// many decoded bytes (FontFile2) that every text page uses.
	FontBytes int
	// ObjectStreams puts every dictionary that is not a stream into object
	// streams of up to 200 objects, with a cross-reference stream.
	ObjectStreams bool
	// PageFigure, when positive, makes each text page draw a figure of its
	// own: a form XObject of that many decoded bytes of vector drawing.
	PageFigure int
	// PageFonts gives each text page a font of its own with a ToUnicode
	// CMap, as producers that subset fonts page by page write them.
	PageFonts bool
	// Drawing, when positive, starts the first text page's content with
	// that many bytes of vector drawing (a plotted chart, a schematic).
	Drawing int
	// StructElems, when positive, makes the document tagged: a structure
	// tree of that many paragraph elements under sections of 500, each
	// pointing at its page (Word and LibreOffice tag what they export).
	StructElems int
}

// Image is an RGB image of 8 bits a component, flate-compressed: a photo, a
// screenshot or a scanned page. Noise is how many pixels in 256 are random
// (0: a smooth picture that compresses some hundredfold; 8: about 20:1; 64:
// a scan that compresses little).
type Image struct {
	Width, Height int
	Noise         int
}

// DecodedBytes is the decoded size of the image's stream.
func (im Image) DecodedBytes() int64 { return int64(im.Width) * int64(im.Height) * 3 }

// Pages is the document's page count.
func (l Large) Pages() int { return l.TextPages + len(l.Images) }

// Build writes the PDF.
func (l Large) Build() []byte {
	b, _ := l.BuildDecoded()
	return b
}

// BuildDecoded writes the PDF and returns it with the decoded size of all
// its streams together.
func (l Large) BuildDecoded() ([]byte, int64) {
	w := &largeWriter{offsets: map[int]int{}, inStream: map[int][2]int{}}
	w.out.WriteString("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
	pages := l.Pages()
	// Numbers: 1 catalog, 2 page tree, 3 font, 4 font descriptor, 5 font
	// program, then per page: the page and its content, and per image its
	// XObject.
	const catalog, tree, font, descriptor, program = 1, 2, 3, 4, 5
	next := 6
	pageNr := make([]int, pages)
	contentNr := make([]int, pages)
	for i := range pages {
		pageNr[i], contentNr[i] = next, next+1
		next += 2
	}
	imageNr := make([]int, len(l.Images))
	for i := range l.Images {
		imageNr[i] = next
		next++
	}
	figureNr := make([]int, l.TextPages)
	pageFontNr := make([]int, l.TextPages)
	for i := range l.TextPages {
		if l.PageFigure > 0 {
			figureNr[i] = next
			next++
		}
		if l.PageFonts {
			pageFontNr[i] = next
			next += 2 // the font and its ToUnicode CMap
		}
	}
	structRoot := 0
	if l.StructElems > 0 {
		structRoot = next
		next = w.structTree(next, l.StructElems, pageNr)
	}
	if structRoot > 0 {
		w.dict(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R /MarkInfo << /Marked true >> /StructTreeRoot %d 0 R >>", tree, structRoot))
	} else {
		w.dict(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", tree))
	}
	kids := make([]string, pages)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", pageNr[i])
	}
	w.dict(tree, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages))
	fontRes := "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >>"
	if l.FontBytes > 0 {
		widths := strings.TrimSpace(strings.Repeat("556 ", 95))
		w.dict(font, fmt.Sprintf("<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+ManualSans /FirstChar 32 /LastChar 126 /Widths [%s] /Encoding /WinAnsiEncoding /FontDescriptor %d 0 R >>", widths, descriptor))
		w.dict(descriptor, fmt.Sprintf("<< /Type /FontDescriptor /FontName /ABCDEF+ManualSans /Flags 32 /FontBBox [-665 -325 2000 1040] /ItalicAngle 0 /Ascent 905 /Descent -212 /CapHeight 716 /StemV 80 /FontFile2 %d 0 R >>", program))
		w.stream(program, fmt.Sprintf("/Length1 %d", l.FontBytes), func(z io.Writer) { noise(z, l.FontBytes, 96, 11) })
		fontRes = fmt.Sprintf("/Font << /F1 %d 0 R >>", font)
	}
	lines := l.LinesPerPage
	if lines <= 0 {
		lines = 50
	}
	for i := range l.TextPages {
		res, draw := fontRes, ""
		if l.PageFonts {
			res = fmt.Sprintf("/Font << /F1 %d 0 R >>", pageFontNr[i])
			w.dict(pageFontNr[i], fmt.Sprintf("<< /Type /Font /Subtype /TrueType /BaseFont /P%05d+ManualSans /FirstChar 32 /LastChar 126 /Widths [%s] /Encoding /WinAnsiEncoding /ToUnicode %d 0 R >>",
				i, strings.TrimSpace(strings.Repeat("556 ", 95)), pageFontNr[i]+1))
			w.stream(pageFontNr[i]+1, "", func(z io.Writer) { toUnicode(z, i) })
		}
		if l.PageFigure > 0 {
			res += fmt.Sprintf(" /XObject << /Fig %d 0 R >>", figureNr[i])
			draw = "q 1 0 0 1 0 0 cm /Fig Do Q\n"
			w.stream(figureNr[i], "/Type /XObject /Subtype /Form /BBox [0 0 612 792]", func(z io.Writer) { figure(z, l.PageFigure, i) })
		}
		w.dict(pageNr[i], fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << %s >> /Contents %d 0 R >>", tree, res, contentNr[i]))
		w.stream(contentNr[i], "", func(z io.Writer) {
			if i == 0 && l.Drawing > 0 {
				figure(z, l.Drawing, -1)
			}
			_, _ = io.WriteString(z, draw)
			_, _ = io.WriteString(z, "BT /F1 9 Tf 11 TL 40 750 Td\n")
			for k := range lines {
				fmt.Fprintf(z, "(Section %d.%d: the printer driver reads the queue and sends each job to the device named in its entry.) '\n", i+1, k+1)
			}
			_, _ = io.WriteString(z, "ET\n")
		})
	}
	for k, im := range l.Images {
		i := l.TextPages + k
		w.dict(pageNr[i], fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>", tree, imageNr[k], contentNr[i]))
		w.stream(contentNr[i], "", func(z io.Writer) { _, _ = io.WriteString(z, "q 612 0 0 792 0 0 cm /Im0 Do Q\n") })
		w.stream(imageNr[k], fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8", im.Width, im.Height),
			func(z io.Writer) { picture(z, im, uint32(k+1)) })
	}
	if l.ObjectStreams {
		w.flushObjectStreams(next)
		return w.xrefStream(), w.decoded
	}
	w.writeHeld()
	return w.xrefTable(next), w.decoded
}

// largeWriter writes a Large PDF: streams go out at once, dictionaries are
// held for the object streams (or written after them without).
type largeWriter struct {
	out      bytes.Buffer
	offsets  map[int]int    // object number → file offset
	inStream map[int][2]int // object number → object stream number, index
	held     []heldObject
	next     int // first unused number, for the object streams
	data     bytes.Buffer
	z        *zlib.Writer // reused: a new one allocates ~1 MB
	decoded  int64        // the decoded bytes of the streams written
}

// countingWriter counts what passes to w.
type countingWriter struct {
	w io.Writer
	n *int64
}

func (c countingWriter) Write(p []byte) (int, error) {
	*c.n += int64(len(p))
	return c.w.Write(p)
}

type heldObject struct {
	nr   int
	body string
}

func (w *largeWriter) dict(nr int, body string) {
	w.held = append(w.held, heldObject{nr, body})
}

// stream writes stream object nr with extra dictionary entries, its data
// written by fill and flate-compressed.
func (w *largeWriter) stream(nr int, entries string, fill func(io.Writer)) {
	w.data.Reset()
	if w.z == nil {
		w.z, _ = zlib.NewWriterLevel(&w.data, zlib.BestSpeed)
	} else {
		w.z.Reset(&w.data)
	}
	fill(countingWriter{w: w.z, n: &w.decoded})
	_ = w.z.Close()
	w.offsets[nr] = w.out.Len()
	fmt.Fprintf(&w.out, "%d 0 obj\n<< %s /Filter /FlateDecode /Length %d >>\nstream\n", nr, entries, w.data.Len())
	w.out.Write(w.data.Bytes())
	w.out.WriteString("\nendstream\nendobj\n")
}

// writeHeld writes the held dictionaries as plain objects.
func (w *largeWriter) writeHeld() {
	for _, o := range w.held {
		w.offsets[o.nr] = w.out.Len()
		fmt.Fprintf(&w.out, "%d 0 obj\n%s\nendobj\n", o.nr, o.body)
	}
}

// flushObjectStreams writes the held dictionaries into object streams
// numbered from next on.
func (w *largeWriter) flushObjectStreams(next int) {
	const per = 200
	for start := 0; start < len(w.held); start += per {
		group := w.held[start:min(start+per, len(w.held))]
		nr := next
		next++
		var head, body strings.Builder
		for i, o := range group {
			fmt.Fprintf(&head, "%d %d ", o.nr, body.Len())
			body.WriteString(o.body)
			body.WriteString("\n")
			w.inStream[o.nr] = [2]int{nr, i}
		}
		first := head.Len()
		w.stream(nr, fmt.Sprintf("/Type /ObjStm /N %d /First %d", len(group), first), func(z io.Writer) {
			_, _ = io.WriteString(z, head.String())
			_, _ = io.WriteString(z, body.String())
		})
	}
	w.next = next
}

// xrefTable ends the file with a cross-reference table.
func (w *largeWriter) xrefTable(size int) []byte {
	xref := w.out.Len()
	fmt.Fprintf(&w.out, "xref\n0 %d\n0000000000 65535 f \n", size)
	for n := 1; n < size; n++ {
		fmt.Fprintf(&w.out, "%010d 00000 n \n", w.offsets[n])
	}
	fmt.Fprintf(&w.out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", size, xref)
	return w.out.Bytes()
}

// xrefStream ends the file with a cross-reference stream (type 1 entries
// for objects at offsets, type 2 for those in object streams).
func (w *largeWriter) xrefStream() []byte {
	nr := w.next
	size := nr + 1
	w.offsets[nr] = w.out.Len()
	var rows bytes.Buffer
	for n := range size {
		var typ byte
		var f2, f3 int
		if loc, ok := w.inStream[n]; ok {
			typ, f2, f3 = 2, loc[0], loc[1]
		} else if off, ok := w.offsets[n]; ok {
			typ, f2 = 1, off
		}
		rows.Write([]byte{typ, byte(f2 >> 24), byte(f2 >> 16), byte(f2 >> 8), byte(f2), byte(f3 >> 8), byte(f3)})
	}
	var data bytes.Buffer
	z, _ := zlib.NewWriterLevel(&data, zlib.BestSpeed)
	_, _ = z.Write(rows.Bytes())
	_ = z.Close()
	xref := w.out.Len()
	fmt.Fprintf(&w.out, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length %d >>\nstream\n", nr, size, data.Len())
	w.out.Write(data.Bytes())
	fmt.Fprintf(&w.out, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xref)
	return w.out.Bytes()
}

// picture writes im's pixels: diagonal colour bands with Noise random
// pixels in 256, from a generator seeded with seed.
func picture(w io.Writer, im Image, seed uint32) {
	rng := xorshift(seed*2654435761 + 1)
	row := make([]byte, im.Width*3)
	for y := range im.Height {
		for x := range im.Width {
			p := row[3*x : 3*x+3]
			if im.Noise > 0 && int(rng.next()&255) < im.Noise {
				v := rng.next()
				p[0], p[1], p[2] = byte(v), byte(v>>8), byte(v>>16)
				continue
			}
			band := byte((x + y) / 64)
			p[0], p[1], p[2] = band*37, band*59+byte(y/256), 255-band*23
		}
		_, _ = w.Write(row)
	}
}

// noise writes n bytes of which perMille in 1,000 are random (a font
// program's mix of tables and outlines).
func noise(w io.Writer, n, perMille int, seed uint32) {
	rng := xorshift(seed)
	buf := make([]byte, 4096)
	for n > 0 {
		k := min(n, len(buf))
		for i := range k {
			if int(rng.next()%1000) < perMille {
				buf[i] = byte(rng.next())
			} else {
				buf[i] = byte(i / 16)
			}
		}
		_, _ = w.Write(buf[:k])
		n -= k
	}
}

// structTree writes a structure tree of n paragraph elements under
// sections of 500 below the root, numbered from first on, and returns the
// first number not used. Element k points at page k of pages (cycling).
func (w *largeWriter) structTree(first, n int, pages []int) int {
	root := first
	sections := (n + 499) / 500
	sect := root + 1
	elem := sect + sections
	kids := make([]string, sections)
	for s := range sections {
		kids[s] = fmt.Sprintf("%d 0 R", sect+s)
		count := min(500, n-s*500)
		paras := make([]string, count)
		for k := range count {
			nr := elem + s*500 + k
			paras[k] = fmt.Sprintf("%d 0 R", nr)
			page := pages[(s*500+k)%len(pages)]
			w.dict(nr, fmt.Sprintf("<< /Type /StructElem /S /P /P %d 0 R /Pg %d 0 R /K [%d] >>", sect+s, page, k%50))
		}
		w.dict(sect+s, fmt.Sprintf("<< /Type /StructElem /S /Sect /P %d 0 R /K [%s] >>", root, strings.Join(paras, " ")))
	}
	w.dict(root, fmt.Sprintf("<< /Type /StructTreeRoot /K [%s] >>", strings.Join(kids, " ")))
	return elem + n
}

// figure writes about n bytes of a vector drawing (short strokes, as a
// plotted chart or a schematic is drawn), different on each page.
func figure(w io.Writer, n, page int) {
	rng := xorshift(uint32(page)*2654435761 + 7)
	for written := 0; written < n; {
		k, _ := fmt.Fprintf(w, "%d %d m %d %d l S\n", 72+rng.next()%468, 72+rng.next()%300, 72+rng.next()%468, 72+rng.next()%300)
		written += k
	}
}

// toUnicode writes the ToUnicode CMap of page's font: codes 32–126 to
// themselves, one bfchar entry each.
func toUnicode(w io.Writer, page int) {
	fmt.Fprintf(w, "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapName /P%05d def\n/CMapType 2 def\n1 begincodespacerange\n<00> <FF>\nendcodespacerange\n95 beginbfchar\n", page)
	for c := 32; c <= 126; c++ {
		fmt.Fprintf(w, "<%02X> <%04X>\n", c, c)
	}
	_, _ = io.WriteString(w, "endbfchar\nendcmap\nCMapName currentdict /CMapName defineresource pop\nend\nend\n")
}

// xorshift is a small deterministic generator.
type xorshift uint32

func (x *xorshift) next() uint32 {
	v := uint32(*x)
	v ^= v << 13
	v ^= v >> 17
	v ^= v << 5
	*x = xorshift(v)
	return v
}

// Logo is a one-page file whose page draws one 3,600 × 3,600 RGB image
// (37 MiB decoded, about 1.6 MB in the file): the logo poster the issue saw.
func Logo() Large {
	return Large{Images: []Image{{Width: 3600, Height: 3600, Noise: 3}}}
}

// LetterScan is a Letter page scanned at 400 dpi in colour (3,400 × 4,400
// pixels, 43 MiB decoded), kept lossless (FlateDecode) as scanner software
// writes a "high quality" PDF.
func LetterScan() Large {
	return Large{Images: []Image{{Width: 3400, Height: 4400, Noise: 6}}}
}

// Manual is a manual of textPages pages of text in an embedded font
// (2 MB) followed by screenshots 1,280 × 1,024 pixels (3.75 MiB decoded
// each), its dictionaries in object streams: many streams, most of the
// decoded bytes images.
func Manual(textPages, screenshots int) Large {
	images := make([]Image, screenshots)
	for i := range images {
		images[i] = Image{Width: 1280, Height: 1024, Noise: 10}
	}
	return Large{TextPages: textPages, Images: images, FontBytes: 2 << 20, ObjectStreams: true}
}

// Plot is a one-page drawing whose content stream is bytes of vector
// strokes (a plotted chart, a schematic exported as one page).
func Plot(bytes int) Large {
	return Large{TextPages: 1, LinesPerPage: 1, Drawing: bytes}
}

// Tagged is a tagged document of pages pages of text whose structure tree
// holds elems paragraph elements, all in object streams.
func Tagged(pages, elems int) Large {
	return Large{TextPages: pages, LinesPerPage: 20, ObjectStreams: true, StructElems: elems}
}

// Book is a document of pages pages of text (20 lines each), each page
// with a font of its own and a figure of 8 KB, its dictionaries in object
// streams: the 2,000-page file.
func Book(pages int) Large {
	return Large{TextPages: pages, LinesPerPage: 20, ObjectStreams: true, PageFonts: true, PageFigure: 8 << 10}
}

// BigFile is a big honest file of the corpus.
type BigFile struct {
	Name, What string
	Doc        Large
}

// BigFiles lists the big files viewers open that the decode caps of issue
// 25 (32 MiB a stream, 96 MiB a file) refused: a logo of one 37 MiB image, a
// Letter page scanned at 400 dpi in colour (43 MiB) and a manual whose
// screenshots decode to 150 MiB (docs/decisions.md, "Bounded PDF work").
func BigFiles() []BigFile {
	return []BigFile{
		{"logo", "a 1.9 MB logo holding one 3,600 × 3,600 image (39 MB, 37 MiB decoded)", Logo()},
		{"letter-scan-400dpi", "a Letter page scanned at 400 dpi in colour, lossless (43 MiB decoded)", LetterScan()},
		{"manual", "a 440-page manual with 40 screenshots (16 MB, 154 MiB decoded)", Manual(400, 40)},
	}
}
