package pdf

// Structural checks run before pdfcpu sees the file. pdfcpu silently rebuilds
// a missing or broken cross-reference table (even in strict mode), so a
// truncated upload could otherwise pass as a shorter, different document.
// These checks read only the header, the tail, the cross-reference sections
// and a few bytes at each object offset, never the whole file at once.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

const (
	// headerWindow is how far into the file the %PDF- header may start, as readers allow.
	headerWindow = 1024
	// eofWindow is how close to the end of the file the last %%EOF must be.
	eofWindow = 1024
	// maxObjects caps object numbers (PDF's implementation limit is 8,388,607).
	maxObjects = 1 << 24
	// maxXRefEntries caps the entries read from all cross-reference sections.
	maxXRefEntries = 4_000_000
	// maxXRefSections caps the length of the /Prev chain.
	maxXRefSections = 1024
	// maxTrailerBytes caps the size of a trailer or xref stream dictionary.
	maxTrailerBytes = 1 << 20
	// maxXRefStreamBytes caps the encoded and decoded size of one xref stream.
	maxXRefStreamBytes = 64 << 20
)

// source reads parts of the upload by absolute offset.
type source struct {
	r    io.ReadSeeker
	size int64
}

// readAt reads up to n bytes at off; it returns fewer only at the end of the file.
func (s *source) readAt(off int64, n int) ([]byte, error) {
	if off < 0 || off > s.size {
		return nil, fmt.Errorf("offset %d outside the file", off)
	}
	if rem := s.size - off; int64(n) > rem {
		n = int(rem)
	}
	if _, err := s.r.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(s.r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// reader returns a buffered reader positioned at off; it is invalidated by
// any other read from s.
func (s *source) reader(off int64) (*bufio.Reader, error) {
	if _, err := s.r.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	return bufio.NewReaderSize(io.LimitReader(s.r, s.size-off), 32<<10), nil
}

// isWhite reports whether c is PDF white space.
func isWhite(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// isDelim reports whether c is a PDF delimiter.
func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// findHeader returns the offset of %PDF- within the first headerWindow bytes.
func findHeader(src *source) (int64, error) {
	buf, err := src.readAt(0, headerWindow)
	if err != nil {
		return 0, fmt.Errorf("read header: %w", err)
	}
	i := bytes.Index(buf, []byte("%PDF-"))
	if i < 0 {
		return 0, ErrNotPDF
	}
	return int64(i), nil
}

// findStartXRef checks the end of the file and returns the offset given after
// the last startxref keyword.
func findStartXRef(src *source) (int64, error) {
	const tailSize = 4096
	n := int64(tailSize)
	if src.size < n {
		n = src.size
	}
	buf, err := src.readAt(src.size-n, int(n))
	if err != nil {
		return 0, fmt.Errorf("read trailer: %w", err)
	}
	end := len(buf)
	for end > 0 && isWhite(buf[end-1]) {
		end--
	}
	buf = buf[:end]
	i := bytes.LastIndex(buf, []byte("%%EOF"))
	if i < 0 {
		return 0, malformed("no %%%%EOF marker at the end of the file (truncated?)")
	}
	after := buf[i+len("%%EOF"):]
	if len(after) > eofWindow {
		return 0, malformed("the last %%%%EOF marker is followed by %d bytes of data (truncated?)", len(after))
	}
	for _, kw := range []string{"obj", "xref", "trailer", "stream"} {
		if bytes.Contains(after, []byte(kw)) {
			return 0, malformed("an incomplete update follows the last %%%%EOF marker (truncated?)")
		}
	}
	j := bytes.LastIndex(buf[:i], []byte("startxref"))
	if j < 0 {
		return 0, malformed("no startxref before the last %%%%EOF marker")
	}
	num := bytes.TrimFunc(buf[j+len("startxref"):i], func(r rune) bool { return r < 0x80 && isWhite(byte(r)) })
	off, err := parseUint(num, 12)
	if err != nil {
		return 0, malformed("startxref is not followed by a file offset")
	}
	return off, nil
}

// parseUint parses a decimal number of at most maxDigits digits.
func parseUint(b []byte, maxDigits int) (int64, error) {
	if len(b) == 0 || len(b) > maxDigits {
		return 0, errors.New("bad number")
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errors.New("bad number")
		}
		v = v*10 + int64(c-'0')
	}
	return v, nil
}

// xrefEntry is an in-use object stored at a file offset.
type xrefEntry struct {
	obj, gen int
	off      int64
}

// xrefResult is what walking the cross-reference sections found.
type xrefResult struct {
	encrypted bool
	// enc is the encryption the trailers name, as pdfcpu reads it: the
	// oldest /Encrypt reference and the newest /ID.
	enc     encryption
	hasRoot bool
	inUse   []xrefEntry // uncompressed in-use objects, newest revision wins
	// compressed lists each in-use compressed object's place, its object
	// stream's number and its index there (stream<<32 | index).
	compressed []uint64
}

// xrefWalker reads all cross-reference sections from the newest to the oldest.
type xrefWalker struct {
	ctx     context.Context
	src     *source
	base    int64 // offset of the %PDF- header; PDF offsets count from there
	seen    []uint64
	entries int
	res     xrefResult
	limits  Limits
}

// walkXRef reads the cross-reference chain that starts at startxref.
func walkXRef(ctx context.Context, src *source, base, start int64, limits Limits) (*xrefResult, error) {
	w := &xrefWalker{ctx: ctx, src: src, base: base, limits: limits.withDefaults()}
	visited := map[int64]bool{}
	off := start
	for n := 0; ; n++ {
		if err := ctx.Err(); err != nil {
			return &w.res, err
		}
		if n == maxXRefSections {
			return &w.res, malformed("more than %d cross-reference sections", maxXRefSections)
		}
		if visited[off] {
			break // a /Prev loop: every section has been read
		}
		visited[off] = true
		d, err := w.section(off)
		if err != nil {
			return &w.res, err
		}
		if stm := d.Int64Entry("XRefStm"); stm != nil {
			// Hybrid file: the table's entries win over the stream's.
			if _, err := w.stream(*stm); err != nil {
				return &w.res, err
			}
		}
		prev, ok := d.Find("Prev")
		if !ok {
			break
		}
		p, ok := prev.(types.Integer)
		if !ok || p.Value() < 0 {
			return &w.res, malformed("invalid /Prev in the trailer")
		}
		if p.Value() == 0 {
			break // some writers say "no previous section" this way
		}
		off = int64(p.Value())
	}
	if !w.res.hasRoot {
		return &w.res, malformed("the trailer has no /Root")
	}
	if err := w.res.checkCompressed(); err != nil {
		return &w.res, err
	}
	return &w.res, nil
}

// checkCompressed refuses two compressed objects at one place of an object
// stream: a place holds one object, and a reader that took the entries at
// their word would read (and a writer copy) that object once per entry.
func (r *xrefResult) checkCompressed() error {
	slices.Sort(r.compressed)
	for i := 1; i < len(r.compressed); i++ {
		if c := r.compressed[i]; c == r.compressed[i-1] {
			return malformed("several cross-reference entries name index %d of object stream %d", c&0xffffffff, c>>32)
		}
	}
	return nil
}

// section reads the cross-reference table or stream at off and returns its
// trailer dictionary.
func (w *xrefWalker) section(off int64) (types.Dict, error) {
	abs := w.base + off
	head, err := w.src.readAt(abs, 64)
	if err != nil {
		return nil, malformed("cross-reference offset %d is outside the file", off)
	}
	i := 0
	for i < len(head) && isWhite(head[i]) {
		i++
	}
	var d types.Dict
	switch {
	case bytes.HasPrefix(head[i:], []byte("xref")):
		d, err = w.table(abs + int64(i))
	case func() bool { _, _, _, ok := objHeader(head[i:]); return ok }():
		d, err = w.stream(off)
	default:
		return nil, malformed("no cross-reference section at offset %d", off)
	}
	if err != nil {
		return nil, err
	}
	if e, ok := d.Find("Encrypt"); ok {
		w.res.encrypted = true
		if _, isRef := e.(types.IndirectRef); isRef || w.res.enc.dict == nil {
			w.res.enc.dict = e // pdfcpu keeps the last (oldest) reference
		}
	}
	if w.res.enc.id == nil {
		if id, ok := d["ID"].(types.Array); ok && len(id) > 0 {
			switch v := id[0].(type) {
			case types.HexLiteral:
				w.res.enc.id, _ = v.Bytes()
			case types.StringLiteral:
				w.res.enc.id, _ = types.Unescape(v.Value())
			}
		}
	}
	if _, ok := d.Find("Root"); ok {
		w.res.hasRoot = true
	}
	return d, nil
}

// recordCompressed notes a cross-reference entry of a compressed object,
// index of object stream stream, unless a newer section already named obj.
func (w *xrefWalker) recordCompressed(obj int, stream, index int64) error {
	fresh, err := w.note(obj)
	if err != nil || !fresh {
		return err
	}
	if stream < 0 || stream >= maxObjects || index < 0 || index > 0xffffffff {
		return nil // names no object stream; pdfcpu finds nothing there
	}
	w.res.compressed = append(w.res.compressed, uint64(stream)<<32|uint64(index))
	return nil
}

// record notes one cross-reference entry unless a newer section already did.
func (w *xrefWalker) record(obj int, inUse bool, off int64, gen int) error {
	fresh, err := w.note(obj)
	if err != nil || !fresh {
		return err
	}
	if inUse && obj != 0 && off > 0 {
		w.res.inUse = append(w.res.inUse, xrefEntry{obj: obj, gen: gen, off: off})
	}
	return nil
}

// note counts one cross-reference entry for obj and reports whether it is
// the newest one (no newer section named obj).
func (w *xrefWalker) note(obj int) (bool, error) {
	if obj < 0 || obj >= maxObjects {
		return false, malformed("object number %d out of range", obj)
	}
	w.entries++
	if w.entries > maxXRefEntries {
		return false, malformed("more than %d cross-reference entries", maxXRefEntries)
	}
	if w.entries%4096 == 0 {
		if err := w.ctx.Err(); err != nil {
			return false, err
		}
	}
	word, bit := obj/64, uint64(1)<<(obj%64)
	if word >= len(w.seen) {
		w.seen = slices.Grow(w.seen, word+1-len(w.seen))[:word+1]
	}
	if w.seen[word]&bit != 0 {
		return false, nil
	}
	w.seen[word] |= bit
	return true, nil
}

// nextToken returns the next run of regular characters, or a single delimiter.
func nextToken(br *bufio.Reader) ([]byte, error) {
	c, err := br.ReadByte()
	for err == nil && isWhite(c) {
		c, err = br.ReadByte()
	}
	if err != nil {
		return nil, err
	}
	tok := []byte{c}
	if isDelim(c) {
		return tok, nil
	}
	for len(tok) < 32 {
		c, err = br.ReadByte()
		if err != nil {
			if err == io.EOF {
				return tok, nil
			}
			return nil, err
		}
		if isWhite(c) || isDelim(c) {
			_ = br.UnreadByte()
			return tok, nil
		}
		tok = append(tok, c)
	}
	return nil, errors.New("token too long")
}

// table reads a classic cross-reference table at the absolute offset abs.
func (w *xrefWalker) table(abs int64) (types.Dict, error) {
	br, err := w.src.reader(abs)
	if err != nil {
		return nil, err
	}
	bad := func(what string) error {
		return malformed("cross-reference table at offset %d: %s", abs-w.base, what)
	}
	if tok, err := nextToken(br); err != nil || string(tok) != "xref" {
		return nil, bad("missing xref keyword")
	}
	for {
		tok, err := nextToken(br)
		if err != nil {
			return nil, bad("ends before the trailer")
		}
		if string(tok) == "trailer" {
			break
		}
		start, err1 := parseUint(tok, 8)
		tok, err = nextToken(br)
		if err != nil {
			return nil, bad("ends before the trailer")
		}
		count, err2 := parseUint(tok, 8)
		if err1 != nil || err2 != nil || start+count > maxObjects {
			return nil, bad("bad subsection header")
		}
		for k := int64(0); k < count; k++ {
			var f [3][]byte
			for j := range f {
				if f[j], err = nextToken(br); err != nil {
					return nil, bad("ends inside an entry")
				}
			}
			off, err1 := parseUint(f[0], 10)
			gen, err2 := parseUint(f[1], 5)
			kind := string(f[2])
			if err1 != nil || err2 != nil || (kind != "n" && kind != "f") {
				return nil, bad(fmt.Sprintf("bad entry for object %d", start+k))
			}
			if err := w.record(int(start+k), kind == "n", off, int(gen)); err != nil {
				return nil, err
			}
		}
	}
	var raw []byte
	chunk := make([]byte, 4096)
	for len(raw) < maxTrailerBytes {
		n, err := br.Read(chunk)
		from := max(0, len(raw)-len("startxref"))
		raw = append(raw, chunk[:n]...)
		if err != nil || bytes.Contains(raw[from:], []byte("startxref")) {
			break
		}
	}
	d, _, err := w.parseDict(raw)
	if err != nil {
		return nil, bad("unreadable trailer dictionary")
	}
	return d, nil
}

// parseDict parses the dictionary at the start of raw and returns it with
// the number of bytes it took.
func (w *xrefWalker) parseDict(raw []byte) (types.Dict, int, error) {
	s := string(raw)
	l := s
	o, err := model.ParseObjectContext(w.ctx, &l, 0, 64)
	if err != nil {
		return nil, 0, err
	}
	d, ok := o.(types.Dict)
	if !ok || len(l) > len(s) || s[len(s)-len(l):] != l {
		return nil, 0, errors.New("not a dictionary")
	}
	return d, len(s) - len(l), nil
}

// stream reads a cross-reference stream object at the PDF offset off and
// returns its dictionary.
func (w *xrefWalker) stream(off int64) (types.Dict, error) {
	abs := w.base + off
	bad := func(what string) error {
		return malformed("cross-reference stream at offset %d: %s", off, what)
	}
	head, err := w.src.readAt(abs, 64<<10)
	if err != nil {
		return nil, bad("outside the file")
	}
	obj, _, n, ok := objHeader(head)
	if !ok {
		return nil, bad("no object header")
	}
	d, used, err := w.parseDict(head[n:])
	if err != nil {
		return nil, bad("unreadable dictionary")
	}
	if t := d.Type(); t == nil || *t != "XRef" {
		return nil, bad("not of /Type /XRef")
	}
	p := n + used
	for p < len(head) && isWhite(head[p]) {
		p++
	}
	if !bytes.HasPrefix(head[p:], []byte("stream")) {
		return nil, bad("missing stream keyword")
	}
	p += len("stream")
	if bytes.HasPrefix(head[p:], []byte("\r\n")) {
		p += 2
	} else if p < len(head) && (head[p] == '\n' || head[p] == '\r') {
		p++
	}
	length, ok := d.Find("Length")
	l, isInt := length.(types.Integer)
	if !ok || !isInt || l.Value() < 0 || l.Value() > maxXRefStreamBytes {
		return nil, bad("missing or indirect /Length")
	}
	raw, err := w.src.readAt(abs+int64(p), l.Value())
	if err != nil || len(raw) != l.Value() {
		return nil, bad("stream data runs past the end of the file")
	}
	data, err := w.decodeStream(obj, d, raw)
	if err != nil {
		if errors.Is(err, ErrExpandsTooMuch) || w.ctx.Err() != nil {
			return nil, err
		}
		return nil, bad(err.Error())
	}
	if err := w.streamEntries(d, data); err != nil {
		if errors.Is(err, ErrMalformed) || w.ctx.Err() != nil {
			return nil, err
		}
		return nil, bad(err.Error())
	}
	return d, nil
}

// objHeader parses "N G obj" at the start of b (after white space) and
// returns the numbers and the length consumed.
func objHeader(b []byte) (obj, gen, n int, ok bool) {
	i := 0
	num := func() (int, bool) {
		for i < len(b) && isWhite(b[i]) {
			i++
		}
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		v, err := parseUint(b[j:i], 10)
		return int(v), err == nil
	}
	var ok1, ok2 bool
	if obj, ok1 = num(); !ok1 || i >= len(b) || !isWhite(b[i]) {
		return 0, 0, 0, false
	}
	if gen, ok2 = num(); !ok2 {
		return 0, 0, 0, false
	}
	for i < len(b) && isWhite(b[i]) {
		i++
	}
	if !bytes.HasPrefix(b[i:], []byte("obj")) {
		return 0, 0, 0, false
	}
	i += len("obj")
	if i < len(b) && !isWhite(b[i]) && !isDelim(b[i]) {
		return 0, 0, 0, false
	}
	return obj, gen, i, true
}

// decodeStream applies the stream's filters to raw. The stream is counted
// first without being held (see scan.go): pdfcpu's filters buffer all they
// decode, so only a stream known to fit the cap reaches them.
func (w *xrefWalker) decodeStream(obj int, d types.Dict, raw []byte) ([]byte, error) {
	limit := min(int64(maxXRefStreamBytes), w.limits.MaxStreamBytes)
	filters, err := filtersOf(d)
	if err != nil {
		return nil, err
	}
	if err := countDecoded(w.ctx, obj, raw, filters, limit); err != nil {
		return nil, err
	}
	var names []string
	var parms []types.Object
	switch f := d["Filter"].(type) {
	case nil:
	case types.Name:
		names = []string{f.Value()}
		parms = []types.Object{d["DecodeParms"]}
	case types.Array:
		for _, o := range f {
			n, ok := o.(types.Name)
			if !ok {
				return nil, errors.New("bad /Filter")
			}
			names = append(names, n.Value())
		}
		if a, ok := d["DecodeParms"].(types.Array); ok {
			parms = a
		}
	default:
		return nil, errors.New("bad /Filter")
	}
	data := raw
	for i, name := range names {
		var pm map[string]int
		if i < len(parms) {
			if pd, ok := parms[i].(types.Dict); ok {
				pm = map[string]int{}
				for k, v := range pd {
					if n, ok := v.(types.Integer); ok {
						pm[k] = n.Value()
					}
				}
			}
		}
		f, err := filter.NewFilter(name, pm, limit)
		if err != nil {
			return nil, fmt.Errorf("filter %s: %v", name, err)
		}
		r, err := f.Decode(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("filter %s: %v", name, err)
		}
		if buf, ok := r.(*bytes.Buffer); ok {
			data = buf.Bytes() // pdfcpu's filters decode into a buffer: no second copy
		} else if data, err = io.ReadAll(io.LimitReader(r, limit+1)); err != nil {
			return nil, fmt.Errorf("filter %s: %v", name, err)
		}
		if int64(len(data)) > limit {
			return nil, errors.New("decodes to too many bytes")
		}
	}
	return data, nil
}

// streamEntries records the entries of a decoded cross-reference stream.
func (w *xrefWalker) streamEntries(d types.Dict, data []byte) error {
	wa, ok := d["W"].(types.Array)
	if !ok || len(wa) != 3 {
		return errors.New("bad /W")
	}
	var widths [3]int
	rowLen := 0
	for i, o := range wa {
		n, ok := o.(types.Integer)
		if !ok || n.Value() < 0 || n.Value() > 8 {
			return errors.New("bad /W")
		}
		widths[i] = n.Value()
		rowLen += n.Value()
	}
	if rowLen == 0 {
		return errors.New("bad /W")
	}
	size := d.IntEntry("Size")
	if size == nil || *size < 0 || *size > maxObjects {
		return errors.New("bad /Size")
	}
	index := []int{0, *size}
	if ia, ok := d["Index"].(types.Array); ok {
		if len(ia)%2 != 0 {
			return errors.New("bad /Index")
		}
		index = index[:0]
		for _, o := range ia {
			n, ok := o.(types.Integer)
			if !ok || n.Value() < 0 || n.Value() > maxObjects {
				return errors.New("bad /Index")
			}
			index = append(index, n.Value())
		}
	}
	field := func(row []byte, i, def int) int64 {
		if widths[i] == 0 {
			return int64(def)
		}
		start := 0
		for j := range i {
			start += widths[j]
		}
		var v int64
		for _, c := range row[start : start+widths[i]] {
			v = v<<8 | int64(c)
		}
		return v
	}
	pos := 0
	for k := 0; k < len(index); k += 2 {
		first, count := index[k], index[k+1]
		if first+count > maxObjects {
			return errors.New("bad /Index")
		}
		for j := range count {
			if pos+rowLen > len(data) {
				return errors.New("fewer entries than /Index announces")
			}
			row := data[pos : pos+rowLen]
			pos += rowLen
			typ := field(row, 0, 1)
			f2, f3 := field(row, 1, 0), field(row, 2, 0)
			switch typ {
			case 0:
				err := w.record(first+j, false, 0, 0)
				if err != nil {
					return err
				}
			case 1:
				if f3 > 65535 {
					return fmt.Errorf("bad generation for object %d", first+j)
				}
				if err := w.record(first+j, true, f2, int(f3)); err != nil {
					return err
				}
			case 2:
				if err := w.recordCompressed(first+j, f2, f3); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// verifyOffsets checks that every in-use entry points at its "N G obj"
// header, reading the file in ascending offset order through a window.
func verifyOffsets(ctx context.Context, src *source, base int64, entries []xrefEntry) error {
	slices.SortFunc(entries, func(a, b xrefEntry) int {
		switch {
		case a.off < b.off:
			return -1
		case a.off > b.off:
			return 1
		}
		return 0
	})
	const (
		window = 256 << 10
		need   = 64 // enough for leading white space and "NNNNNNNNNN GGGGG obj"
	)
	var buf []byte
	bufStart := int64(-1)
	for i, e := range entries {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		abs := base + e.off
		if abs >= src.size {
			return malformed("object %d is listed past the end of the file (truncated?)", e.obj)
		}
		if bufStart < 0 || abs < bufStart || abs+need > bufStart+int64(len(buf)) && bufStart+int64(len(buf)) < src.size {
			var err error
			if buf, err = src.readAt(abs, window); err != nil {
				return fmt.Errorf("read object %d: %w", e.obj, err)
			}
			bufStart = abs
		}
		obj, gen, _, ok := objHeader(buf[abs-bufStart:])
		if !ok || obj != e.obj || gen != e.gen {
			return malformed("object %d %d is not at the offset %d the cross-reference table gives", e.obj, e.gen, e.off)
		}
	}
	return nil
}
