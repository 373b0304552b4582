package pdf

// The decode pre-scan runs after the structural checks and before pdfcpu sees
// the file. pdfcpu decodes a stream into one in-memory buffer (which doubles
// as it grows) and only then compares it with its limit, so a stream that
// inflates to 600 MiB costs well over 600 MiB before it is refused. The
// pre-scan decodes every stream through a chain of io.Readers into a counter
// and stops as soon as a cap is passed: it never holds decoded data, so its
// memory is a few decompressor windows whatever the file says.
//
// Mend runs the same pre-scan on an encrypted file before pdfcpu decrypts
// it, each stream decrypted on the way into the counter (crypt.go); the
// decrypted bytes, which pdfcpu will hold, count against the file's cap too.

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/ascii85"
	"errors"
	"io"

	"github.com/hhrutter/lzw"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

const (
	// scanHead is how much of an object the pre-scan reads first to find its dictionary.
	scanHead = 4 << 10
	// maxStreamDictBytes is the largest stream dictionary the pre-scan reads;
	// an object whose dictionary does not end by then is refused.
	maxStreamDictBytes = 1 << 20
)

// scanStreams decodes every stream among entries (the in-use objects stored
// at file offsets; streams never sit inside object streams) and fails with an
// *ExpandsError as soon as one stream or all of them together pass l's caps.
// With c, the file is encrypted: the streams are decrypted by c first, and
// the bytes decrypted count against the cap on the whole file.
func (l Limits) scanStreams(ctx context.Context, src *source, base int64, entries []xrefEntry, c *streamCrypt) error {
	l = l.withDefaults()
	offsets := make(map[int]int64, len(entries))
	for _, e := range entries {
		offsets[e.obj] = base + e.off
	}
	budget := &decodeBudget{ctx: ctx, limits: l}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		start, length, d, filters, err := streamAt(ctx, src, base+e.off, offsets)
		if err != nil {
			return malformed("object %d: %v", e.obj, err)
		}
		encrypted := start >= 0 && c != nil && c.encrypts(d, filters)
		if start < 0 || !encrypted && !decodes(filters) {
			continue // not a stream, or nothing in it expands
		}
		if encrypted && length > 0 {
			if err := budget.add(e.obj, length); err != nil {
				return err
			}
		}
		if !decodes(filters) {
			continue
		}
		br, err := src.reader(start)
		if err != nil {
			return err
		}
		var raw io.Reader = br
		if length > 0 {
			raw = io.LimitReader(br, length)
		}
		if encrypted {
			if raw, err = c.reader(e.obj, e.gen, raw); err != nil {
				continue // no cipher for this key: pdfcpu cannot decrypt it either
			}
		}
		if err := budget.count(e.obj, raw, filters, workOnly(d)); err != nil {
			return err
		}
	}
	return nil
}

// workOnly tells whether a stream is one that no reader of this package
// decodes — an image or a font program — so that decoding it in the
// pre-scan is work, never memory held: it counts against
// Limits.MaxDecodeWorkBytes instead of the memory caps, so a manual of many
// screenshots gets in. A stream that claims to be one and is read as page
// content or a form all the same is bounded by that reader's own caps.
func workOnly(d types.Dict) bool {
	if d == nil {
		return false
	}
	if st := d.NameEntry("Subtype"); st != nil {
		switch *st {
		case "Image", "Type1C", "CIDFontType0C", "OpenType":
			return true
		}
	}
	_, program := d.Find("Length1") // FontFile, FontFile2
	return program
}

// streamFilter is one entry of a stream's /Filter with its /DecodeParms.
type streamFilter struct {
	name  string
	parms types.Dict
}

// streamAt reads the object at the absolute offset abs. For a stream it
// returns where its data starts, its /Length when known (else -1: the data
// runs until its filters end it, as pdfcpu then reads until "endstream"), its
// dictionary and its filters; for any other object start is -1.
func streamAt(ctx context.Context, src *source, abs int64, offsets map[int]int64) (start, length int64, d types.Dict, filters []streamFilter, err error) {
	var rest []byte
	for size := scanHead; ; size *= 16 {
		head, err := src.readAt(abs, size)
		if err != nil {
			return -1, 0, nil, nil, err
		}
		_, _, n, ok := objHeader(head)
		if !ok {
			return -1, 0, nil, nil, errors.New("no object header")
		}
		body := head[n:]
		i := 0
		for i < len(body) && isWhite(body[i]) {
			i++
		}
		if !bytes.HasPrefix(body[i:], []byte("<<")) {
			if len(body)-i < 2 && len(head) == size && size < maxStreamDictBytes {
				continue // the window ends before the object does
			}
			return -1, 0, nil, nil, nil // not a dictionary, so not a stream
		}
		s := string(body)
		left := s
		o, perr := model.ParseObjectContext(ctx, &left, 0, 64)
		if perr == nil {
			dict, ok := o.(types.Dict)
			if !ok {
				return -1, 0, nil, nil, nil
			}
			d, rest = dict, body[len(s)-len(left):]
			start = abs + int64(n) + int64(len(s)-len(left))
			break
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return -1, 0, nil, nil, ctxErr
		}
		if len(head) < size {
			return -1, 0, nil, nil, nil // unparsable to the end of the file: pdfcpu refuses it too
		}
		if size >= maxStreamDictBytes {
			return -1, 0, nil, nil, errors.New("dictionary longer than 1 MiB")
		}
	}
	i := 0
	for i < len(rest) && isWhite(rest[i]) {
		i++
	}
	if len(rest)-i < len("stream") {
		more, err := src.readAt(start, i+len("stream")+2)
		if err != nil {
			return -1, 0, nil, nil, err
		}
		rest = more
	}
	if !bytes.HasPrefix(rest[i:], []byte("stream")) {
		return -1, 0, nil, nil, nil
	}
	i += len("stream")
	if bytes.HasPrefix(rest[i:], []byte("\r\n")) {
		i += 2
	} else if i < len(rest) && (rest[i] == '\n' || rest[i] == '\r') {
		i++
	}
	start += int64(i)
	filters, err = filtersOf(d)
	if err != nil {
		return -1, 0, nil, nil, err
	}
	return start, streamLength(src, d, start, offsets), d, filters, nil
}

// streamLength returns the stream's /Length, resolving an indirect one that
// is a plain integer object at a file offset, or -1 when it is unknown.
func streamLength(src *source, d types.Dict, start int64, offsets map[int]int64) int64 {
	var n int64 = -1
	switch v := d["Length"].(type) {
	case types.Integer:
		n = int64(v.Value())
	case types.IndirectRef:
		off, ok := offsets[v.ObjectNumber.Value()]
		if !ok {
			return -1
		}
		head, err := src.readAt(off, 64)
		if err != nil {
			return -1
		}
		_, _, h, ok := objHeader(head)
		if !ok {
			return -1
		}
		num := bytes.TrimLeftFunc(head[h:], func(r rune) bool { return r < 0x80 && isWhite(byte(r)) })
		j := 0
		for j < len(num) && num[j] >= '0' && num[j] <= '9' {
			j++
		}
		l, err := parseUint(num[:j], 12)
		if err != nil {
			return -1
		}
		n = l
	}
	if n <= 0 {
		return -1
	}
	return min(n, src.size-start)
}

// filtersOf lists the stream's filters with their parameters.
func filtersOf(d types.Dict) ([]streamFilter, error) {
	var out []streamFilter
	switch f := d["Filter"].(type) {
	case nil:
	case types.Name:
		p, _ := d["DecodeParms"].(types.Dict)
		out = append(out, streamFilter{name: f.Value(), parms: p})
	case types.Array:
		parms, _ := d["DecodeParms"].(types.Array)
		for i, o := range f {
			n, ok := o.(types.Name)
			if !ok {
				return nil, errors.New("bad /Filter")
			}
			var p types.Dict
			if i < len(parms) {
				p, _ = parms[i].(types.Dict)
			}
			out = append(out, streamFilter{name: n.Value(), parms: p})
		}
	default:
		return nil, errors.New("bad /Filter")
	}
	return out, nil
}

// decodes reports whether the chain starts with a filter that expands data.
func decodes(filters []streamFilter) bool {
	return len(filters) > 0 && expanding(filters[0].name)
}

// expanding reports whether the pre-scan decodes filter name. Image filters
// (DCTDecode, JPXDecode, JBIG2Decode, CCITTFaxDecode) end the chain: pdfcpu
// does not decode images when it validates or edits pages. Unknown names
// (and Crypt: encrypted files are refused earlier) end it too.
func expanding(name string) bool {
	switch name {
	case "FlateDecode", "Fl", "LZWDecode", "LZW", "ASCIIHexDecode", "AHx", "ASCII85Decode", "A85", "RunLengthDecode", "RL":
		return true
	}
	return false
}

// decoder wraps r in the streaming decoder of filter f.
func decoder(f streamFilter, r io.Reader) (io.Reader, error) {
	switch f.name {
	case "FlateDecode", "Fl":
		return zlib.NewReader(r)
	case "LZWDecode", "LZW":
		early := true
		if v, ok := f.parms["EarlyChange"].(types.Integer); ok && v.Value() == 0 {
			early = false
		}
		return lzw.NewReader(r, early), nil
	case "ASCIIHexDecode", "AHx":
		return &hexReader{r: bufio.NewReader(r)}, nil
	case "ASCII85Decode", "A85":
		return ascii85.NewDecoder(&untilReader{r: bufio.NewReader(r), stop: '~'}), nil
	case "RunLengthDecode", "RL":
		return &runLengthReader{r: bufio.NewReader(r)}, nil
	}
	return nil, errors.New("not a decoding filter")
}

// decodeBudget counts decoded bytes against the per-stream and per-file caps.
type decodeBudget struct {
	ctx    context.Context
	limits Limits
	total  int64
	// work counts what work-only streams (workOnly) decode to.
	work int64
}

// add counts n bytes that are not decoded but held all the same (a stream
// decrypted) against the cap on the whole file.
func (b *decodeBudget) add(obj int, n int64) error {
	b.total += n
	if b.total > b.limits.MaxFileBytes {
		return &ExpandsError{Object: obj, Limit: b.limits.MaxFileBytes, WholeFile: true}
	}
	return nil
}

// count decodes raw through filters (up to the first filter that does not
// expand) into a counter. A decode error ends the count of that stream
// quietly: what was decoded so far is counted, and pdfcpu judges the damage.
func (b *decodeBudget) count(obj int, raw io.Reader, filters []streamFilter, work bool) error {
	r := raw
	for _, f := range filters {
		if !expanding(f.name) {
			break
		}
		next, err := decoder(f, r)
		if err != nil {
			return nil // e.g. no zlib header: nothing decodes
		}
		r = next
	}
	w := &countingWriter{budget: b, obj: obj, work: work}
	_, err := io.CopyBuffer(w, r, make([]byte, 32<<10))
	var ee *ExpandsError
	if errors.As(err, &ee) {
		return ee
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// countingWriter discards what it is given and fails once a cap is passed.
type countingWriter struct {
	budget *decodeBudget
	obj    int
	n      int64
	since  int64 // bytes since the last look at the context
	// work counts a work-only stream against MaxDecodeWorkBytes alone.
	work bool
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n := int64(len(p))
	w.n += n
	if w.work {
		if w.budget.work += n; w.budget.work > w.budget.limits.MaxDecodeWorkBytes {
			return 0, &ExpandsError{Object: w.obj, Limit: w.budget.limits.MaxDecodeWorkBytes, WholeFile: true}
		}
		return len(p), w.look(n)
	}
	w.budget.total += n
	if w.n > w.budget.limits.MaxStreamBytes {
		return 0, &ExpandsError{Object: w.obj, Limit: w.budget.limits.MaxStreamBytes}
	}
	if w.budget.total > w.budget.limits.MaxFileBytes {
		return 0, &ExpandsError{Object: w.obj, Limit: w.budget.limits.MaxFileBytes, WholeFile: true}
	}
	return len(p), w.look(n)
}

// look looks at the context once a megabyte has been counted since the last time.
func (w *countingWriter) look(n int64) error {
	if w.since += n; w.since >= 1<<20 {
		w.since = 0
		return w.budget.ctx.Err()
	}
	return nil
}

// countDecoded decodes raw through filters into a counter, failing once the
// decoded size passes limit; it is the streaming check made before a stream
// that must be held in memory (a cross-reference stream) is decoded.
func countDecoded(ctx context.Context, obj int, raw []byte, filters []streamFilter, limit int64) error {
	if !decodes(filters) {
		return nil
	}
	b := &decodeBudget{ctx: ctx, limits: Limits{MaxStreamBytes: limit, MaxFileBytes: limit}}
	return b.count(obj, bytes.NewReader(raw), filters, false)
}

// hexReader decodes ASCIIHexDecode data: hex digit pairs, white space
// ignored, ending at '>' (a last odd digit is followed by an implied 0).
type hexReader struct {
	r    *bufio.Reader
	done bool
}

func (h *hexReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && !h.done {
		var v [2]byte
		k := 0
		for k < 2 {
			c, err := h.r.ReadByte()
			if err != nil {
				if k == 1 {
					p[n] = v[0] << 4
					n++
				}
				h.done = true
				if err == io.EOF {
					return n, io.EOF
				}
				return n, err
			}
			switch {
			case isWhite(c):
				continue
			case c == '>':
				if k == 1 {
					p[n] = v[0] << 4
					n++
				}
				h.done = true
				return n, io.EOF
			case c >= '0' && c <= '9':
				v[k] = c - '0'
			case c >= 'a' && c <= 'f':
				v[k] = c - 'a' + 10
			case c >= 'A' && c <= 'F':
				v[k] = c - 'A' + 10
			default:
				h.done = true
				return n, errors.New("ASCIIHexDecode: bad character")
			}
			k++
		}
		p[n] = v[0]<<4 | v[1]
		n++
	}
	if h.done && n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// untilReader passes bytes through until the stop byte (the ASCII85 "~>" end).
type untilReader struct {
	r    *bufio.Reader
	stop byte
	done bool
}

func (u *untilReader) Read(p []byte) (int, error) {
	if u.done {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		c, err := u.r.ReadByte()
		if err != nil {
			u.done = true
			if n == 0 {
				return 0, err
			}
			return n, nil
		}
		if c == u.stop {
			u.done = true
			break
		}
		p[n] = c
		n++
	}
	if u.done && n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// runLengthReader decodes RunLengthDecode data: a length byte L below 128
// copies the next L+1 bytes, above 128 repeats the next byte 257-L times,
// and 128 ends the data.
type runLengthReader struct {
	r    *bufio.Reader
	lit  int // literal bytes still to copy
	rep  int // repetitions still to write
	b    byte
	done bool
}

func (rl *runLengthReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		switch {
		case rl.rep > 0:
			k := min(rl.rep, len(p)-n)
			for j := range k {
				p[n+j] = rl.b
			}
			n += k
			rl.rep -= k
		case rl.lit > 0:
			c, err := rl.r.ReadByte()
			if err != nil {
				return n, unexpected(err)
			}
			p[n] = c
			n++
			rl.lit--
		case rl.done:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		default:
			l, err := rl.r.ReadByte()
			if err != nil {
				rl.done = true
				if err == io.EOF && n > 0 {
					return n, nil
				}
				return n, err
			}
			switch {
			case l == 128:
				rl.done = true
			case l < 128:
				rl.lit = int(l) + 1
			default:
				c, err := rl.r.ReadByte()
				if err != nil {
					return n, unexpected(err)
				}
				rl.b, rl.rep = c, 257-int(l)
			}
		}
	}
	return n, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
