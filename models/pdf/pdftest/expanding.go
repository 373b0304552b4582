package pdftest

import (
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/hhrutter/lzw"
)

// Expanding describes a PDF whose streams decode to many more bytes than
// the file holds (spaces, which compress about a thousandfold): the
// "decompression bombs" the pdf package's decode caps refuse. The big
// streams are written through the encoders without ever being held whole,
// so building a bomb of hundreds of MiB takes little memory.
type Expanding struct {
	// Pages is the page count; at least 1.
	Pages int
	// Content gives the decoded size of the content stream of the first
	// len(Content) pages; the other pages get a small unfiltered one.
	Content []int64
	// ObjectStream, when positive, puts the catalog into an object stream
	// padded with spaces to this decoded size, and makes the file use a
	// cross-reference stream (as qpdf and Acrobat write them).
	ObjectStream int64
	// Filters is the /Filter of the big streams, first-applied-when-decoding
	// first as in the PDF; nil means FlateDecode. Supported: FlateDecode,
	// LZWDecode, RunLengthDecode, ASCIIHexDecode, ASCII85Decode.
	Filters []string
	// Padding adds an unfiltered stream of that many bytes: a large file
	// that expands to nothing.
	Padding int
	// XRefPadding, with ObjectStream, flate-compresses the cross-reference
	// stream and pads its rows with that many zero bytes (which the /Size
	// and /Index leave unread).
	XRefPadding int64
}

// Build writes the PDF.
func (e Expanding) Build(t testing.TB) []byte {
	t.Helper()
	b, err := e.build()
	if err != nil {
		t.Fatalf("pdftest: build expanding PDF: %v", err)
	}
	return b
}

// build writes the objects, then a cross-reference table, or a stream when
// the catalog sits in an object stream.
func (e Expanding) build() ([]byte, error) {
	w := newExpandingWriter(e)
	if err := w.writeObjects(); err != nil {
		return nil, err
	}
	if w.objStm == 0 {
		w.writeXRefTable()
		return w.out.Bytes(), nil
	}
	if err := w.writeXRefStream(); err != nil {
		return nil, err
	}
	return w.out.Bytes(), nil
}

// Object numbers of an Expanding PDF: the catalog, the page tree, then the
// pages, their contents, the object stream and the padding (expandingWriter).
const (
	expandingCatalog = 1
	expandingPages   = 2
)

// expandingWriter writes an Expanding PDF: the output, each object's offset
// and the numbers of the objects that depend on the description.
type expandingWriter struct {
	e           Expanding
	filters     []string
	filterEntry string
	out         bytes.Buffer
	offsets     map[int]int
	// firstPage and firstContent number the first page and its content
	// stream; objStm and padding are 0 when absent; next is the first
	// number not in use.
	firstPage, firstContent, objStm, padding, next int
}

// newExpandingWriter numbers the objects of e and writes the file's header.
func newExpandingWriter(e Expanding) *expandingWriter {
	if e.Pages < 1 {
		e.Pages = 1
	}
	filters := e.Filters
	if filters == nil {
		filters = []string{"FlateDecode"}
	}
	w := &expandingWriter{e: e, filters: filters, offsets: map[int]int{}}
	w.out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	w.firstPage = 3
	w.firstContent = w.firstPage + e.Pages
	w.next = w.firstContent + e.Pages
	if e.ObjectStream > 0 {
		w.objStm, w.next = w.next, w.next+1
	}
	if e.Padding > 0 {
		w.padding, w.next = w.next, w.next+1
	}
	w.filterEntry = "/Filter [/" + strings.Join(filters, " /") + "]"
	return w
}

// begin starts object n, noting its offset.
func (w *expandingWriter) begin(n int) {
	w.offsets[n] = w.out.Len()
	fmt.Fprintf(&w.out, "%d 0 obj\n", n)
}

// writeObjects writes the catalog (unless it goes into the object stream),
// the page tree, the content streams, the object stream and the padding.
func (w *expandingWriter) writeObjects() error {
	if w.objStm == 0 {
		w.begin(expandingCatalog)
		fmt.Fprintf(&w.out, "<< /Type /Catalog /Pages %d 0 R >>\nendobj\n", expandingPages)
	}
	w.writePageTree()
	if err := w.writeContents(); err != nil {
		return err
	}
	if w.objStm != 0 {
		if err := w.writeObjectStream(); err != nil {
			return err
		}
	}
	if w.padding != 0 {
		w.begin(w.padding)
		fmt.Fprintf(&w.out, "<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", w.e.Padding, strings.Repeat("%", w.e.Padding))
	}
	return nil
}

// writePageTree writes the page tree and its Letter pages.
func (w *expandingWriter) writePageTree() {
	w.begin(expandingPages)
	kids := make([]string, w.e.Pages)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", w.firstPage+i)
	}
	fmt.Fprintf(&w.out, "<< /Type /Pages /Kids [%s] /Count %d >>\nendobj\n", strings.Join(kids, " "), w.e.Pages)
	for i := range w.e.Pages {
		w.begin(w.firstPage + i)
		fmt.Fprintf(&w.out, "<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents %d 0 R >>\nendobj\n", expandingPages, w.firstContent+i)
	}
}

// writeContents writes each page's content stream: the big ones of
// Content, then small unfiltered ones.
func (w *expandingWriter) writeContents() error {
	for i := range w.e.Pages {
		w.begin(w.firstContent + i)
		if i < len(w.e.Content) && w.e.Content[i] > 0 {
			if err := writeStream(&w.out, w.filterEntry, w.filters, func(out io.Writer) error { return spaces(out, w.e.Content[i]) }); err != nil {
				return err
			}
			continue
		}
		body := fmt.Sprintf("%% page %d\n72 72 m 540 720 l S\n", i+1)
		fmt.Fprintf(&w.out, "<< /Length %d >>\nstream\n%sendstream\nendobj\n", len(body), body)
	}
	return nil
}

// writeObjectStream writes the object stream holding the catalog, padded
// with spaces to ObjectStream decoded bytes.
func (w *expandingWriter) writeObjectStream() error {
	obj := fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", expandingPages)
	prolog := fmt.Sprintf("%d 0 ", expandingCatalog)
	w.begin(w.objStm)
	return writeStream(&w.out, fmt.Sprintf("/Type /ObjStm /N 1 /First %d %s", len(prolog), w.filterEntry), w.filters, func(out io.Writer) error {
		if _, err := io.WriteString(out, prolog+obj); err != nil {
			return err
		}
		return spaces(out, w.e.ObjectStream-int64(len(prolog)+len(obj)))
	})
}

// writeXRefTable ends the file with a cross-reference table and its trailer.
func (w *expandingWriter) writeXRefTable() {
	xref := w.out.Len()
	fmt.Fprintf(&w.out, "xref\n0 %d\n0000000000 65535 f \n", w.next)
	for n := 1; n < w.next; n++ {
		fmt.Fprintf(&w.out, "%010d 00000 n \n", w.offsets[n])
	}
	fmt.Fprintf(&w.out, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", w.next, expandingCatalog, xref)
}

// writeXRefStream ends the file with a cross-reference stream (the catalog
// in the object stream), flate-compressed and padded with XRefPadding zero
// bytes when asked to.
func (w *expandingWriter) writeXRefStream() error {
	xrefObj := w.next
	w.offsets[xrefObj] = w.out.Len()
	var rows bytes.Buffer
	row := func(typ byte, f2 uint32, f3 uint16) {
		rows.WriteByte(typ)
		_ = binary.Write(&rows, binary.BigEndian, f2)
		_ = binary.Write(&rows, binary.BigEndian, f3)
	}
	row(0, 0, 65535)
	for n := 1; n <= xrefObj; n++ {
		if n == expandingCatalog {
			row(2, uint32(w.objStm), 0)
			continue
		}
		row(1, uint32(w.offsets[n]), 0)
	}
	dict := fmt.Sprintf("/Type /XRef /Size %d /W [1 4 2] /Root %d 0 R", xrefObj+1, expandingCatalog)
	if w.e.XRefPadding > 0 {
		fmt.Fprintf(&w.out, "%d 0 obj\n", xrefObj)
		err := writeStream(&w.out, dict+" /Filter /FlateDecode", []string{"FlateDecode"}, func(out io.Writer) error {
			if _, err := out.Write(rows.Bytes()); err != nil {
				return err
			}
			zeros := make([]byte, 64<<10)
			for n := w.e.XRefPadding; n > 0; n -= int64(len(zeros)) {
				if _, err := out.Write(zeros[:min(n, int64(len(zeros)))]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	} else {
		fmt.Fprintf(&w.out, "%d 0 obj\n<< %s /Length %d >>\nstream\n", xrefObj, dict, rows.Len())
		w.out.Write(rows.Bytes())
		w.out.WriteString("\nendstream\nendobj\n")
	}
	fmt.Fprintf(&w.out, "startxref\n%d\n%%%%EOF\n", w.offsets[xrefObj])
	return nil
}

// writeStream writes a stream object's dictionary (dict entries plus
// /Length) and data, the data made by fill and encoded by filters.
func writeStream(out *bytes.Buffer, dict string, filters []string, fill func(io.Writer) error) error {
	var data bytes.Buffer
	// Decoding applies filters[0] first, so encoding applies it last: the
	// outermost writer is the last filter's encoder.
	var w io.Writer = &data
	var closers []io.Closer
	for _, f := range filters {
		enc, err := encoder(f, w)
		if err != nil {
			return err
		}
		closers = append(closers, enc)
		w = enc
	}
	if err := fill(w); err != nil {
		return err
	}
	slices.Reverse(closers)
	for _, c := range closers {
		if err := c.Close(); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "<< %s /Length %d >>\nstream\n", dict, data.Len())
	out.Write(data.Bytes())
	out.WriteString("\nendstream\nendobj\n")
	return nil
}

// encoder returns the encoder of filter name, writing to w.
func encoder(name string, w io.Writer) (io.WriteCloser, error) {
	switch name {
	case "FlateDecode":
		return zlib.NewWriterLevel(w, zlib.BestCompression)
	case "LZWDecode":
		return lzw.NewWriter(w, true), nil
	case "ASCIIHexDecode":
		return &terminated{WriteCloser: nopCloser{hex.NewEncoder(w)}, w: w, end: ">"}, nil
	case "ASCII85Decode":
		return &terminated{WriteCloser: ascii85.NewEncoder(w), w: w, end: "~>"}, nil
	case "RunLengthDecode":
		return &runLengthWriter{w: w}, nil
	}
	return nil, fmt.Errorf("no encoder for %s", name)
}

// spaces writes n spaces to w in chunks.
func spaces(w io.Writer, n int64) error {
	chunk := bytes.Repeat([]byte{' '}, 64<<10)
	for n > 0 {
		k := min(n, int64(len(chunk)))
		if _, err := w.Write(chunk[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// terminated closes its encoder, then writes an end marker.
type terminated struct {
	io.WriteCloser
	w   io.Writer
	end string
}

func (t *terminated) Close() error {
	if err := t.WriteCloser.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(t.w, t.end)
	return err
}

// runLengthWriter encodes RunLengthDecode data: runs of up to 128 equal
// bytes as a repeat, anything else as one-byte literals; Close writes the
// end-of-data byte.
type runLengthWriter struct {
	w   io.Writer
	b   byte
	run int
}

func (r *runLengthWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		if r.run > 0 && (c != r.b || r.run == 128) {
			if err := r.flush(); err != nil {
				return 0, err
			}
		}
		r.b = c
		r.run++
	}
	return len(p), nil
}

func (r *runLengthWriter) flush() error {
	var err error
	if r.run == 1 {
		_, err = r.w.Write([]byte{0, r.b})
	} else if r.run > 1 {
		_, err = r.w.Write([]byte{byte(257 - r.run), r.b})
	}
	r.run = 0
	return err
}

func (r *runLengthWriter) Close() error {
	if err := r.flush(); err != nil {
		return err
	}
	_, err := r.w.Write([]byte{128})
	return err
}
