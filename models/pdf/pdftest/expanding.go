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

func (e Expanding) build() ([]byte, error) {
	if e.Pages < 1 {
		e.Pages = 1
	}
	filters := e.Filters
	if filters == nil {
		filters = []string{"FlateDecode"}
	}
	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := map[int]int{}
	begin := func(n int) {
		offsets[n] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n", n)
	}
	const (
		catalog = 1
		pages   = 2
	)
	firstPage := 3
	firstContent := firstPage + e.Pages
	next := firstContent + e.Pages
	objStm, padding := 0, 0
	if e.ObjectStream > 0 {
		objStm, next = next, next+1
	}
	if e.Padding > 0 {
		padding, next = next, next+1
	}
	filterEntry := "/Filter [/" + strings.Join(filters, " /") + "]"

	if objStm == 0 {
		begin(catalog)
		fmt.Fprintf(&out, "<< /Type /Catalog /Pages %d 0 R >>\nendobj\n", pages)
	}
	begin(pages)
	kids := make([]string, e.Pages)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", firstPage+i)
	}
	fmt.Fprintf(&out, "<< /Type /Pages /Kids [%s] /Count %d >>\nendobj\n", strings.Join(kids, " "), e.Pages)
	for i := range e.Pages {
		begin(firstPage + i)
		fmt.Fprintf(&out, "<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents %d 0 R >>\nendobj\n", pages, firstContent+i)
	}
	for i := range e.Pages {
		begin(firstContent + i)
		if i < len(e.Content) && e.Content[i] > 0 {
			if err := writeStream(&out, filterEntry, filters, func(w io.Writer) error { return spaces(w, e.Content[i]) }); err != nil {
				return nil, err
			}
			continue
		}
		body := fmt.Sprintf("%% page %d\n72 72 m 540 720 l S\n", i+1)
		fmt.Fprintf(&out, "<< /Length %d >>\nstream\n%sendstream\nendobj\n", len(body), body)
	}
	if objStm != 0 {
		obj := fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)
		prolog := fmt.Sprintf("%d 0 ", catalog)
		begin(objStm)
		err := writeStream(&out, fmt.Sprintf("/Type /ObjStm /N 1 /First %d %s", len(prolog), filterEntry), filters, func(w io.Writer) error {
			if _, err := io.WriteString(w, prolog+obj); err != nil {
				return err
			}
			return spaces(w, e.ObjectStream-int64(len(prolog)+len(obj)))
		})
		if err != nil {
			return nil, err
		}
	}
	if padding != 0 {
		begin(padding)
		fmt.Fprintf(&out, "<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", e.Padding, strings.Repeat("%", e.Padding))
	}

	if objStm == 0 {
		xref := out.Len()
		fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", next)
		for n := 1; n < next; n++ {
			fmt.Fprintf(&out, "%010d 00000 n \n", offsets[n])
		}
		fmt.Fprintf(&out, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", next, catalog, xref)
		return out.Bytes(), nil
	}
	xrefObj := next
	offsets[xrefObj] = out.Len()
	var rows bytes.Buffer
	row := func(typ byte, f2 uint32, f3 uint16) {
		rows.WriteByte(typ)
		_ = binary.Write(&rows, binary.BigEndian, f2)
		_ = binary.Write(&rows, binary.BigEndian, f3)
	}
	row(0, 0, 65535)
	for n := 1; n <= xrefObj; n++ {
		if n == catalog {
			row(2, uint32(objStm), 0)
			continue
		}
		row(1, uint32(offsets[n]), 0)
	}
	dict := fmt.Sprintf("/Type /XRef /Size %d /W [1 4 2] /Root %d 0 R", xrefObj+1, catalog)
	if e.XRefPadding > 0 {
		fmt.Fprintf(&out, "%d 0 obj\n", xrefObj)
		err := writeStream(&out, dict+" /Filter /FlateDecode", []string{"FlateDecode"}, func(w io.Writer) error {
			if _, err := w.Write(rows.Bytes()); err != nil {
				return err
			}
			zeros := make([]byte, 64<<10)
			for n := e.XRefPadding; n > 0; n -= int64(len(zeros)) {
				if _, err := w.Write(zeros[:min(n, int64(len(zeros)))]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	} else {
		fmt.Fprintf(&out, "%d 0 obj\n<< %s /Length %d >>\nstream\n", xrefObj, dict, rows.Len())
		out.Write(rows.Bytes())
		out.WriteString("\nendstream\nendobj\n")
	}
	fmt.Fprintf(&out, "startxref\n%d\n%%%%EOF\n", offsets[xrefObj])
	return out.Bytes(), nil
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
