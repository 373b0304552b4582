package pdftest

// Round-two hostile files: small uploads whose cost lies in the repair and
// decryption pass (models/pdf: mend.go, repair.go, decrypt.go) rather than
// in their content. Each is made on demand by a deterministic generator,
// never stored; RoundTwoFiles gives them at the sizes that once did harm
// (docs/decisions.md, "Bounded PDF work").

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"crypto/rc4"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// RoundTwoSize is the decoded size of the big object of the round-two files:
// just under the default per-stream decode cap (32 MiB), so that the decode
// caps alone do not refuse them.
const RoundTwoSize = 31 << 20

// RoundTwoFiles returns the round-two hostile files at their harmful sizes:
// all but the last are about 32 KB; the last is 31 MiB of mostly white
// space. None is a sound PDF: each must be refused with a 422 or accepted
// as a file no larger than the upload cap, within the repair deadline.
func RoundTwoFiles() []Hostile {
	return []Hostile{
		{"shared-compressed-k20", "an encrypted PDF (RC4-128, empty user password) whose cross-reference stream names one 31 MiB compressed object 20 times", SharedCompressedObject(20, RoundTwoSize)},
		{"shared-compressed-k55", "an encrypted PDF (RC4-128, empty user password) whose cross-reference stream names one 31 MiB compressed object 55 times", SharedCompressedObject(55, RoundTwoSize)},
		{"encrypted-objstm-4x31MiB", "an encrypted PDF (RC4-128, empty user password) with four object streams of 31 MiB each, one object in each", EncryptedObjectStreams(4, 1, RoundTwoSize)},
		{"objstm-shared-offset-60", "a PDF without cross-reference data whose one object stream lists 60 objects, all at offset 0 of 31 MiB of spaces", SharedOffsetObjectStream(60, RoundTwoSize)},
		{"objstm-overlapping-60", "60 objects of one object stream one byte apart, each nested in the one before, around 31 MiB of spaces (cross-reference stream intact)", OverlappingObjectStream(60, RoundTwoSize, false)},
		{"objstm-overlapping-60-damaged", "60 objects of one object stream one byte apart, each nested in the one before, around 31 MiB of spaces (no cross-reference data)", OverlappingObjectStream(60, RoundTwoSize, true)},
		{"whitespace-runs-31MiB", "a PDF without cross-reference data whose objects and their parts are 31 MiB of white space apart", WhitespaceRuns(RoundTwoSize, 64)},
	}
}

// The objects every round-two file starts with: a one-page document.
var roundTwoDoc = []string{
	"<< /Type /Catalog /Pages 2 0 R >>",
	"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
	"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R >>",
}

// roundTwoContent is the page's content stream.
const roundTwoContent = "72 72 m 540 720 l S\n"

// SharedCompressedObject is a one-page PDF encrypted with RC4-128 and an
// empty user password (so it opens without one) whose cross-reference
// stream has k entries that all name index 0 of one object stream: a string
// of size spaces. A reader that copies a compressed object once per entry
// naming it holds k times size bytes.
func SharedCompressedObject(k, size int) []byte {
	return objectStreams(1, k, size, true)
}

// SharedCompressedObjectPlain is SharedCompressedObject unencrypted.
func SharedCompressedObjectPlain(k, size int) []byte {
	return objectStreams(1, k, size, false)
}

// EncryptedObjectStreams is a one-page PDF encrypted with RC4-128 and an
// empty user password with streams object streams, each holding one
// object, a string of size spaces, that k entries of the cross-reference
// stream name. Each object stream is within the per-stream decode cap for
// size under 32 MiB; four of them pass the cap on the whole file.
func EncryptedObjectStreams(streams, k, size int) []byte {
	return objectStreams(streams, k, size, true)
}

// objectStreams is EncryptedObjectStreams, encrypted or not; unencrypted,
// object 5 is an empty dictionary in place of the encryption dictionary.
func objectStreams(streams, k, size int, encrypted bool) []byte {
	enc := newRC4Encryption()
	apply, encDict, trailer := enc.apply, enc.dict(), fmt.Sprintf("/Encrypt 5 0 R /ID [<%x> <%x>]", enc.id, enc.id)
	if !encrypted {
		apply, encDict, trailer = func(_ int, b []byte) []byte { return b }, "<< >>", ""
	}
	w := newObjWriter("%PDF-1.5")
	for i, o := range roundTwoDoc {
		w.object(i+1, o)
	}
	w.stream(4, "", apply(4, []byte(roundTwoContent)))
	w.object(5, encDict)
	xref := 6 + streams // the cross-reference stream's number
	first := xref + 1   // the first compressed object's
	for s := range streams {
		prolog := fmt.Sprintf("%d 0 ", first+s*k)
		data := deflate(func(z io.Writer) {
			_, _ = io.WriteString(z, prolog+"(")
			_ = spaces(z, int64(size))
			_, _ = io.WriteString(z, ")")
		})
		w.stream(6+s, fmt.Sprintf("/Type /ObjStm /N 1 /First %d /Filter /FlateDecode", len(prolog)), apply(6+s, data))
	}
	rows := []xrefRow{{0, 0, 65535}}
	for n := 1; n < xref; n++ {
		rows = append(rows, xrefRow{1, w.offsets[n], 0})
	}
	rows = append(rows, xrefRow{1, w.out.Len(), 0}) // the stream itself
	for s := range streams {
		for range k {
			rows = append(rows, xrefRow{2, 6 + s, 0})
		}
	}
	w.xrefStream(xref, rows, fmt.Sprintf("/Size %d /Root 1 0 R %s", len(rows), trailer))
	return w.out.Bytes()
}

// SharedOffsetObjectStream is a one-page PDF without cross-reference data
// (only a trailer) whose one object stream lists n objects, 10 to 9+n, that
// all start at offset 0 of size spaces followed by "<< >>". A repair pass
// that parses each listed object from its offset to the end of the stream
// reads and copies the spaces n times.
func SharedOffsetObjectStream(n, size int) []byte {
	var prolog strings.Builder
	for i := range n {
		fmt.Fprintf(&prolog, "%d 0 ", 10+i)
	}
	return damagedWithObjStm(n, prolog.String(), func(z io.Writer) {
		_ = spaces(z, int64(size))
		_, _ = io.WriteString(z, "<< >>")
	})
}

// OverlappingObjectStream is a one-page PDF whose object stream lists n
// objects (n at most 60), 10 to 9+n, at offsets 0, 1, …, n-1 of the text
// "[[[…[" (n brackets), size spaces, "]]]…]": each object's text runs over
// the next one's start and to the end of the stream. With damaged, the file
// has no cross-reference data (the repair pass reads the object stream);
// otherwise a cross-reference stream names every object and the catalog
// refers to them all.
func OverlappingObjectStream(n, size int, damaged bool) []byte {
	var prolog strings.Builder
	for i := range n {
		fmt.Fprintf(&prolog, "%d %d ", 10+i, i)
	}
	fill := func(z io.Writer) {
		_, _ = io.WriteString(z, strings.Repeat("[", n))
		_ = spaces(z, int64(size))
		_, _ = io.WriteString(z, strings.Repeat("]", n))
	}
	if damaged {
		return damagedWithObjStm(n, prolog.String(), fill)
	}
	w := newObjWriter("%PDF-1.5")
	refs := make([]string, n)
	for i := range refs {
		refs[i] = fmt.Sprintf("%d 0 R", 10+i)
	}
	w.object(1, "<< /Type /Catalog /Pages 2 0 R /Overlapping ["+strings.Join(refs, " ")+"] >>")
	w.object(2, roundTwoDoc[1])
	w.object(3, roundTwoDoc[2])
	w.stream(4, "", []byte(roundTwoContent))
	w.stream(5, fmt.Sprintf("/Type /ObjStm /N %d /First %d /Filter /FlateDecode", n, prolog.Len()), deflate(func(z io.Writer) {
		_, _ = io.WriteString(z, prolog.String())
		fill(z)
	}))
	rows := []xrefRow{{0, 0, 65535}}
	for o := 1; o <= 5; o++ {
		rows = append(rows, xrefRow{1, w.offsets[o], 0})
	}
	rows = append(rows, xrefRow{1, w.out.Len(), 0}) // the stream itself, object 6
	for i := range n {
		rows = append(rows, xrefRow{2, 5, i})
	}
	w.xrefStream(6, rows, fmt.Sprintf("/Size %d /Index [0 7 10 %d] /Root 1 0 R", 10+n, n))
	return w.out.Bytes()
}

// damagedWithObjStm is the one-page document, then object 5: an object
// stream of n objects with the given prolog and the objects' text written
// by fill, then a trailer, and no cross-reference data at all.
func damagedWithObjStm(n int, prolog string, fill func(io.Writer)) []byte {
	w := newObjWriter("%PDF-1.5")
	for i, o := range roundTwoDoc {
		w.object(i+1, o)
	}
	w.stream(4, "", []byte(roundTwoContent))
	w.stream(5, fmt.Sprintf("/Type /ObjStm /N %d /First %d /Filter /FlateDecode", n, len(prolog)), deflate(func(z io.Writer) {
		_, _ = io.WriteString(z, prolog)
		fill(z)
	}))
	w.out.WriteString("trailer\n<< /Size 6 /Root 1 0 R >>\n%%EOF\n")
	return w.out.Bytes()
}

// WhitespaceRuns is a one-page PDF without cross-reference data (only a
// trailer) in which runs of white space, size bytes in all, sit between
// the objects, between an object's number, its generation and the obj
// keyword, and inside its dictionary: a file of size bytes the repair pass
// must scan, with few objects to count its work by.
func WhitespaceRuns(size, runs int) []byte {
	runs = max(runs, 12)
	per := size / runs
	chunk := []byte(strings.Repeat(" ", 4096))
	ws := func(w *bytes.Buffer, n int) {
		// Spaces, each 4 KiB begun by another kind of white space.
		const kinds = "\r\n\t "
		for i := 0; n > 0; i++ {
			k := min(n, len(chunk))
			w.WriteByte(kinds[i%len(kinds)])
			w.Write(chunk[1:k])
			n -= k
		}
	}
	var out bytes.Buffer
	out.Grow(size + 4096)
	out.WriteString("%PDF-1.4\n")
	objs := append(append([]string{}, roundTwoDoc...), fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(roundTwoContent), roundTwoContent))
	left := runs
	for i, o := range objs {
		// Between objects, inside the header, and inside the dictionary.
		ws(&out, per)
		fmt.Fprintf(&out, "%d", i+1)
		ws(&out, per/2)
		out.WriteString("0")
		ws(&out, per/2)
		out.WriteString("obj")
		left -= 2
		if strings.HasPrefix(o, "<<") && !strings.Contains(o, "stream") {
			out.WriteString("<<")
			ws(&out, per)
			out.WriteString(o[2:])
			left--
		} else {
			out.WriteString("\n" + o)
		}
		out.WriteString("\nendobj")
	}
	ws(&out, max(1, left)*per)
	out.WriteString("\ntrailer\n<< /Size 5 /Root 1 0 R >>\n%%EOF\n")
	return out.Bytes()
}

// objWriter writes numbered objects and remembers their offsets.
type objWriter struct {
	out     bytes.Buffer
	offsets map[int]int
}

func newObjWriter(header string) *objWriter {
	w := &objWriter{offsets: map[int]int{}}
	w.out.WriteString(header + "\n%\xe2\xe3\xcf\xd3\n")
	return w
}

// object writes object n with body.
func (w *objWriter) object(n int, body string) {
	w.offsets[n] = w.out.Len()
	fmt.Fprintf(&w.out, "%d 0 obj\n%s\nendobj\n", n, body)
}

// stream writes object n, a stream with the dictionary entries dict (plus
// /Length) and data as stored.
func (w *objWriter) stream(n int, dict string, data []byte) {
	w.offsets[n] = w.out.Len()
	fmt.Fprintf(&w.out, "%d 0 obj\n<< %s /Length %d >>\nstream\n", n, dict, len(data))
	w.out.Write(data)
	w.out.WriteString("\nendstream\nendobj\n")
}

// xrefRow is one entry of a cross-reference stream.
type xrefRow struct{ typ, f2, f3 int }

// xrefStream ends the file with object n, an unfiltered cross-reference
// stream of rows (W [1 4 2]) whose dictionary holds dict, and its startxref.
func (w *objWriter) xrefStream(n int, rows []xrefRow, dict string) {
	at := w.out.Len()
	var data bytes.Buffer
	for _, r := range rows {
		data.WriteByte(byte(r.typ))
		_ = binary.Write(&data, binary.BigEndian, uint32(r.f2))
		_ = binary.Write(&data, binary.BigEndian, uint16(r.f3))
	}
	fmt.Fprintf(&w.out, "%d 0 obj\n<< /Type /XRef /W [1 4 2] %s /Length %d >>\nstream\n", n, dict, data.Len())
	w.out.Write(data.Bytes())
	fmt.Fprintf(&w.out, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", at)
}

// deflate returns what fill writes, zlib-compressed.
func deflate(fill func(io.Writer)) []byte {
	var data bytes.Buffer
	z, _ := zlib.NewWriterLevel(&data, zlib.BestCompression)
	fill(z)
	_ = z.Close()
	return data.Bytes()
}

// rc4Encryption is the standard security handler, revision 3 (RC4, 128-bit
// key), with an empty user password and the owner password "pdftest-owner"
// (ISO 32000-1, 7.6.3, algorithms 2, 3 and 5).
type rc4Encryption struct {
	id, o, u, key []byte
	p             int32
}

// padding is the password padding string of ISO 32000-1, 7.6.3.3.
var padding = []byte("\x28\xbf\x4e\x5e\x4e\x75\x8a\x41\x64\x00\x4e\x56\xff\xfa\x01\x08\x2e\x2e\x00\xb6\xd0\x68\x3e\x80\x2f\x0c\xa9\xfe\x64\x53\x69\x7a")

func newRC4Encryption() *rc4Encryption {
	e := &rc4Encryption{id: md5Sum([]byte("pdftest round two")), p: -4}
	// Algorithm 3: O from the owner and user passwords.
	ok := md5Sum(padPassword("pdftest-owner"))
	for range 50 {
		ok = md5Sum(ok)
	}
	e.o = rc4Rounds(ok, padPassword(""))
	// Algorithm 2: the file key from the user password.
	h := md5.New()
	h.Write(padPassword(""))
	h.Write(e.o)
	_ = binary.Write(h, binary.LittleEndian, e.p)
	h.Write(e.id)
	key := h.Sum(nil)
	for range 50 {
		key = md5Sum(key)
	}
	e.key = key
	// Algorithm 5: U.
	u := rc4Rounds(e.key, md5Sum(append(append([]byte{}, padding...), e.id...)))
	e.u = append(u, make([]byte, 16)...)
	return e
}

// dict is the encryption dictionary.
func (e *rc4Encryption) dict() string {
	return fmt.Sprintf("<< /Filter /Standard /V 2 /R 3 /Length 128 /P %d /O <%x> /U <%x> >>", e.p, e.o, e.u)
}

// apply encrypts (or decrypts) the data of object n, generation 0.
func (e *rc4Encryption) apply(n int, data []byte) []byte {
	k := append(append([]byte{}, e.key...), byte(n), byte(n>>8), byte(n>>16), 0, 0)
	c, _ := rc4.NewCipher(md5Sum(k))
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}

// rc4Rounds is RC4 with key, then 19 more times with each byte of the key
// XORed with the round number (algorithms 3 and 5, revision 3).
func rc4Rounds(key, data []byte) []byte {
	out := append([]byte{}, data...)
	k := make([]byte, len(key))
	for i := range 20 {
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		c, _ := rc4.NewCipher(k)
		c.XORKeyStream(out, out)
	}
	return out
}

func padPassword(pw string) []byte {
	return append([]byte(pw), padding...)[:32]
}

func md5Sum(b []byte) []byte {
	s := md5.Sum(b)
	return s[:]
}
