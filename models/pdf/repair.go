package pdf

// The repair pass, for files whose cross-reference data fails the
// structural checks. Viewers (qpdf, MuPDF, pdf.js, poppler) open such files
// by scanning them for "N G obj … endobj"; so does this pass, bounded in
// bytes, objects and time. It first tries the repairs that restore the file
// exactly (a missing %%EOF, line feeds turned into CR LF), then rebuilds:
// it writes every object found (the newest definition of each number) into
// a clean file with a fresh cross-reference section.
//
// A file cut short must not become a shorter document: the pass refuses a
// file whose last object is incomplete, and one whose objects refer to an
// object the file does not hold, unless the file's cross-reference data,
// whole to its end, lists that object at an offset where it is not: an
// object never written, whose references read as null (ISO 32000-1 7.3.10),
// as viewers read them.
//
// Its work is bounded at each cause: the clock is read by bytes as well as
// by objects (Ticker.Weigh), pdfcpu's parser runs under the same deadline,
// an object stream's entries must lie in increasing order (each object is
// read from its own span only, so none is read or copied twice), object
// streams are decoded only after they are counted against the decode caps,
// and the copy is written into a buffer that stops at its cap
// (repair_write.go).

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

const (
	// maxRepairBytes is the largest file the repair pass reads (it holds
	// the file and its repaired copy in memory).
	maxRepairBytes = 64 << 20
	// maxRepairObjects caps the objects the scan collects.
	maxRepairObjects = 250_000
	// maxRepairTime caps the wall time of one repair pass.
	maxRepairTime = 10 * time.Second
	// maxRepairDict caps the dictionary of a stream object the scan parses.
	maxRepairDict = 1 << 20
	// maxRepairTrailer caps a trailer dictionary the scan parses.
	maxRepairTrailer = 64 << 10
)

// repair returns a repaired copy of the file in src and the repairs made,
// or an error wrapping ErrMalformed when the file cannot be repaired.
// unwritten lists the objects whole cross-reference data lists in use
// (nil: none), which the file may lack (listed).
func (l Limits) repair(ctx context.Context, src *source, base int64, unwritten map[int]bool) ([]byte, []string, error) {
	if src.size > maxRepairBytes {
		return nil, nil, malformed("the file is damaged and larger than the %s the repair pass reads", MiB(maxRepairBytes))
	}
	data, err := src.readAt(0, int(src.size))
	if err != nil {
		return nil, nil, fmt.Errorf("read for repair: %w", err)
	}
	structureOK := func(b []byte) bool {
		s := &source{r: bytes.NewReader(b), size: int64(len(b))}
		_, err := checkStructure(ctx, s, base, l)
		return err == nil
	}
	// Exact repairs first: the file as written.
	if !bytes.Contains(data[max(0, len(data)-eofWindow):], []byte("%%EOF")) {
		fixed := append(slices.Clip(data), "\n%%EOF\n"...)
		if structureOK(fixed) {
			return fixed, []string{RepairEOFAdded}, nil
		}
	}
	if bytes.Contains(data, []byte("\r\n")) {
		fixed := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		if structureOK(fixed) {
			return fixed, []string{RepairLineEndings}, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	rb := newRebuilder(ctx, data, int(base), src.size, repairGrowth, l)
	defer rb.cancel()
	rb.unwritten = unwritten
	out, err := rb.run()
	if err != nil {
		return nil, nil, err
	}
	repairs := []string{RepairXRefRebuilt}
	if rb.lengthsFixed {
		repairs = append(repairs, RepairStreamLength)
	}
	return out, repairs, nil
}

// foundObject is one object definition the scan found.
type foundObject struct {
	num, gen int
	// body is the object's value (for a stream, its dictionary) as written.
	body []byte
	// data is a stream's data; nil for other objects.
	data     []byte
	isStream bool
	// dict is the parsed stream dictionary, re-serialised when its /Length is fixed.
	dict types.Dict
	// fixLength says the stream's /Length must be rewritten to len(data).
	fixLength bool
	// lengthRef says the stream's /Length is an indirect reference.
	lengthRef bool
	// inStream is the object stream holding a compressed object (0: none) and its index there.
	inStream, index int
	// container is that object stream.
	container *foundObject
}

// rebuilder scans a damaged file for its objects and writes a clean copy.
type rebuilder struct {
	// ctx is the caller's context with the pass's deadline, for pdfcpu's
	// parser; parent is the caller's own, to tell the two apart.
	ctx, parent context.Context
	cancel      context.CancelFunc
	late        error // the error past the deadline
	data        []byte
	base        int
	// header is the %PDF-n.n line to write; nil: the one of data.
	header []byte
	limits Limits
	ticker *Ticker // the context and maxRepairTime
	budget *decodeBudget
	// outLimit caps the copy written, tooLarge says why (outputCap).
	outLimit int64
	tooLarge error
	// unwritten lists objects the file may lack: references to them are
	// null (repair).
	unwritten map[int]bool
	// objs maps an object number to its newest definition.
	objs         map[int]*foundObject
	trailer      types.Dict // the newest trailer or cross-reference stream dictionary with /Root
	catalog      int        // the newest /Type /Catalog object, a fallback for /Root
	lengthsFixed bool
}

// newRebuilder starts a repair pass over data, a file of size bytes whose
// copy may grow growth times (outputCap), within l, maxRepairTime and ctx.
// Its cancel must be called.
func newRebuilder(ctx context.Context, data []byte, base int, size, growth int64, l Limits) *rebuilder {
	late := malformed("the repair pass took longer than %v", maxRepairTime)
	l = l.withDefaults()
	rb := &rebuilder{parent: ctx, late: late, data: data, base: base, limits: l, ticker: NewTicker(ctx).WithDeadline(maxRepairTime, late)}
	rb.ctx, rb.cancel = context.WithTimeout(ctx, maxRepairTime)
	rb.budget = &decodeBudget{ctx: rb.ctx, limits: l}
	rb.outLimit, rb.tooLarge = l.outputCap(size, growth)
	return rb
}

// lateOr is err, or the deadline's error when err comes from work that the
// pass's own deadline stopped (pdfcpu's parser, a decode).
func (rb *rebuilder) lateOr(err error) error {
	if err != nil && rb.ctx.Err() != nil && rb.parent.Err() == nil {
		return rb.late
	}
	return err
}

// run scans, checks and writes.
func (rb *rebuilder) run() ([]byte, error) {
	out, err := rb.rebuild()
	return out, rb.lateOr(err)
}

// rebuild is run.
func (rb *rebuilder) rebuild() ([]byte, error) {
	rb.objs = map[int]*foundObject{}
	if err := rb.scan(); err != nil {
		return nil, err
	}
	for num, f := range rb.objs {
		if f.container != nil && rb.objs[f.inStream] != f.container {
			delete(rb.objs, num) // its object stream was replaced by a later object
		}
	}
	if rb.objs[rb.catalog] == nil {
		rb.catalog = 0
	}
	if rb.trailer == nil && rb.catalog == 0 {
		return nil, malformed("no trailer and no catalog found by the repair pass")
	}
	if err := rb.checkReferences(); err != nil {
		return nil, err
	}
	rb.judgeLengths()
	return rb.write()
}

// scan walks the file from the header to the end, collecting objects and
// trailers in file order.
func (rb *rebuilder) scan() error {
	d := rb.data
	pos := rb.base
	weighed := pos  // the bytes up to here have been weighed
	trailerAt := -2 // the next trailer keyword at or after pos; -1: none
	for {
		if err := rb.ticker.Tick(); err != nil {
			return err
		}
		if err := rb.ticker.Weigh(max(0, pos-weighed)); err != nil {
			return err
		}
		weighed = max(weighed, pos)
		if trailerAt != -1 && trailerAt < pos {
			if trailerAt = bytes.Index(d[pos:], []byte("trailer")); trailerAt >= 0 {
				trailerAt += pos
			}
		}
		k := bytes.Index(d[pos:], []byte("obj"))
		if trailerAt >= 0 && (k < 0 || trailerAt < pos+k) {
			pos = trailerAt + len("trailer")
			rb.readTrailer(pos)
			continue
		}
		if k < 0 {
			return nil
		}
		kw := pos + k
		pos = kw + len("obj")
		hdr, num, gen, ok := headerBefore(d, kw, rb.base)
		if !ok || (pos < len(d) && !isWhite(d[pos]) && !isDelim(d[pos])) {
			continue
		}
		next, err := rb.readObject(hdr, pos, num, gen)
		if err != nil {
			return err
		}
		pos = next
	}
}

// headerBefore parses "N G " backwards from the obj keyword at kw and returns
// where the header starts.
func headerBefore(d []byte, kw, base int) (start, num, gen int, ok bool) {
	i := kw
	digits := func() (int, bool) {
		end := i
		for i > base && isWhite(d[i-1]) {
			i--
		}
		if i == end && end == kw {
			return 0, false // "obj" glued to the number
		}
		j := i
		for i > base && d[i-1] >= '0' && d[i-1] <= '9' && j-i < 10 {
			i--
		}
		v, err := parseUint(d[i:j], 10)
		return int(v), err == nil
	}
	g, ok1 := digits()
	if !ok1 || i == kw {
		return 0, 0, 0, false
	}
	if i == base || !isWhite(d[i-1]) {
		return 0, 0, 0, false
	}
	n, ok2 := digits()
	if !ok2 || (i > base && !isWhite(d[i-1]) && !isDelim(d[i-1])) {
		return 0, 0, 0, false
	}
	if n <= 0 || n >= maxObjects || g > 65535 {
		return 0, 0, 0, false
	}
	return i, n, g, true
}

// readTrailer parses the dictionary after a trailer keyword; a damaged
// one is passed over (another trailer, or the catalog, may do).
func (rb *rebuilder) readTrailer(at int) {
	d, end, err := rb.parseAt(at, maxRepairTrailer)
	// pdfcpu's parser forgives a dictionary cut before its ">>".
	if err != nil || !bytes.HasSuffix(bytes.TrimRight(rb.data[at:end], "\x00\t\n\f\r "), []byte(">>")) {
		return
	}
	if dict, ok := d.(types.Dict); ok {
		if _, ok := dict["Root"].(types.IndirectRef); ok {
			rb.trailer = dict
		}
	}
}

// parseAt parses one object at d[at:], reading at most limit bytes, and
// returns it with the offset after it.
func (rb *rebuilder) parseAt(at, limit int) (types.Object, int, error) {
	end := min(len(rb.data), at+limit)
	s := string(rb.data[at:end])
	left := s
	o, err := model.ParseObjectContext(rb.ctx, &left, 0, 64)
	if err != nil {
		return nil, 0, err
	}
	return o, at + len(s) - len(left), nil
}

// readObject reads the object whose header spans [hdr, after) and returns
// where the scan goes on.
func (rb *rebuilder) readObject(hdr, after, num, gen int) (int, error) {
	d := rb.data
	endobj := bytes.Index(d[after:], []byte("endobj"))
	region := d[after:]
	if endobj >= 0 {
		region = d[after : after+endobj]
	}
	st := streamKeyword(region)
	if st < 0 {
		if endobj < 0 {
			return 0, malformed("object %d %d at offset %d is incomplete: the file ends inside it (truncated?)", num, gen, hdr-rb.base)
		}
		body := bytes.TrimSpace(region)
		if err := rb.ticker.Weigh(endobj); err != nil {
			return 0, err
		}
		o, _, err := rb.parseAt(after, endobj)
		if err != nil || len(body) == 0 {
			return 0, malformed("object %d %d at offset %d is unreadable: %v", num, gen, hdr-rb.base, err)
		}
		if dict, ok := o.(types.Dict); ok {
			if _, ok := dict.Find("Linearized"); ok {
				// Hints for a layout the rebuilt file no longer has.
				return after + endobj + len("endobj"), nil
			}
			if t := dict.Type(); t != nil && *t == "Catalog" {
				rb.catalog = num
			}
		}
		if err := rb.add(&foundObject{num: num, gen: gen, body: body}); err != nil {
			return 0, err
		}
		return after + endobj + len("endobj"), nil
	}
	// A stream: the dictionary, the data up to endstream, then endobj.
	if st > maxRepairDict {
		return 0, malformed("object %d %d: stream dictionary longer than %s", num, gen, MiB(maxRepairDict))
	}
	o, _, err := rb.parseAt(after, st)
	dict, ok := o.(types.Dict)
	if err != nil || !ok {
		return 0, malformed("object %d %d at offset %d: unreadable stream dictionary", num, gen, hdr-rb.base)
	}
	start := after + st + len("stream")
	if bytes.HasPrefix(d[start:], []byte("\r\n")) {
		start += 2
	} else if start < len(d) && (d[start] == '\n' || d[start] == '\r') {
		start++
	}
	f := &foundObject{num: num, gen: gen, body: bytes.TrimSpace(d[after : after+st]), dict: dict, isStream: true}
	end := -1
	if n, ok := dict["Length"].(types.Integer); ok && n.Value() >= 0 && start+n.Value() <= len(d) {
		rest := bytes.TrimLeft(d[start+n.Value():], "\x00\t\n\f\r ")
		if bytes.HasPrefix(rest, []byte("endstream")) {
			end = start + n.Value() // the given /Length holds
		}
	}
	if end < 0 {
		es := bytes.Index(d[start:], []byte("endstream"))
		if es < 0 {
			return 0, malformed("object %d %d at offset %d: stream without endstream (truncated?)", num, gen, hdr-rb.base)
		}
		end = start + es
		if end > start && d[end-1] == '\n' {
			end--
		}
		if end > start && d[end-1] == '\r' {
			end--
		}
		// A direct /Length is wrong; an indirect one is judged after the
		// scan (its object often follows the stream).
		f.fixLength = true
		_, f.lengthRef = dict["Length"].(types.IndirectRef)
	}
	f.data = d[start:end]
	es := end + bytes.Index(d[end:], []byte("endstream"))
	eo := bytes.Index(d[es:], []byte("endobj"))
	if eo < 0 {
		return 0, malformed("object %d %d at offset %d is incomplete: the file ends inside it (truncated?)", num, gen, hdr-rb.base)
	}
	next := es + eo + len("endobj")
	if t := dict.Type(); t != nil {
		switch *t {
		case "XRef":
			if _, ok := dict["Root"].(types.IndirectRef); ok {
				rb.trailer = dict
			}
			return next, nil // stale: a fresh section replaces it
		case "ObjStm":
			if err := rb.add(f); err != nil {
				return 0, err
			}
			return next, rb.readObjStm(f)
		}
	}
	return next, rb.add(f)
}

// judgeLengths decides, once every object is known, which streams need a
// new /Length: those whose indirect /Length differs from their data.
func (rb *rebuilder) judgeLengths() {
	for _, f := range rb.objs {
		if f.fixLength && f.lengthRef {
			ref := f.dict["Length"].(types.IndirectRef)
			if o := rb.objs[ref.ObjectNumber.Value()]; o != nil && string(o.body) == strconv.Itoa(len(f.data)) {
				f.fixLength = false
			}
		}
		if f.fixLength {
			rb.lengthsFixed = true
		}
	}
}

// streamKeyword returns the offset of the stream keyword in region (not the
// end of an endstream), or -1.
func streamKeyword(region []byte) int {
	from := 0
	for {
		i := bytes.Index(region[from:], []byte("stream"))
		if i < 0 {
			return -1
		}
		i += from
		after := i + len("stream")
		if (i == 0 || isWhite(region[i-1]) || region[i-1] == '>') && (after == len(region) || region[after] == '\r' || region[after] == '\n') {
			return i
		}
		from = after
	}
}

// add records an object definition; a later one of the same number wins.
func (rb *rebuilder) add(f *foundObject) error {
	if _, ok := rb.objs[f.num]; !ok && len(rb.objs) >= maxRepairObjects {
		return malformed("more than %d objects found by the repair pass", maxRepairObjects)
	}
	rb.objs[f.num] = f
	return nil
}

// readObjStm lists the objects compressed in an object stream, decoding it
// within the decode caps. Its entries must lie in increasing order, and each
// object is read from its own span only (from its offset to the next
// entry's), as pdfcpu reads them: entries that share an offset or lie out of
// order would have one text read and copied once per entry.
func (rb *rebuilder) readObjStm(f *foundObject) error {
	filters, err := filtersOf(f.dict)
	if err != nil {
		return malformed("object stream %d: %v", f.num, err)
	}
	w := &xrefWalker{ctx: rb.ctx, limits: rb.limits}
	if err := rb.budget.count(f.num, bytes.NewReader(f.data), filters, false); err != nil {
		return err
	}
	data, err := w.decodeStream(f.num, f.dict, f.data)
	if err != nil {
		if rb.ctx.Err() != nil {
			return rb.ctx.Err()
		}
		return malformed("object stream %d: %v", f.num, err)
	}
	n, first := f.dict.IntEntry("N"), f.dict.IntEntry("First")
	if n == nil || first == nil || *n < 0 || *n > maxRepairObjects || *first < 0 || *first > len(data) {
		return malformed("object stream %d: bad /N or /First", f.num)
	}
	entries, err := rb.objStmEntries(f.num, data[:*first], *n, *first, len(data))
	if err != nil {
		return err
	}
	for i, e := range entries {
		end := len(data)
		if i+1 < len(entries) {
			end = entries[i+1].at
		}
		if err := rb.ticker.Weigh(end - e.at); err != nil {
			return err
		}
		s := string(data[e.at:end])
		left := s
		o, err := model.ParseObjectContext(rb.ctx, &left, 0, 64)
		if err != nil {
			return malformed("object stream %d: object %d unreadable within its span", f.num, e.num)
		}
		text := strings.TrimLeft(s[:len(s)-len(left)], "\x00\t\n\f\r ")
		if !closed(o, text) {
			return malformed("object stream %d: object %d runs into the next one", f.num, e.num)
		}
		if e.num == f.num {
			continue // an object stream cannot hold itself
		}
		c := &foundObject{num: e.num, inStream: f.num, index: i, container: f, body: []byte(text)}
		if dict, ok := o.(types.Dict); ok {
			if t := dict.Type(); t != nil && *t == "Catalog" {
				rb.catalog = e.num
			}
		}
		if err := rb.add(c); err != nil {
			return err
		}
	}
	return nil
}

// objStmEntry is one entry of an object stream's header: an object number
// and where its text starts in the decoded stream.
type objStmEntry struct{ num, at int }

// objStmEntries parses the header of object stream num: n pairs of an
// object number and an offset from first, in increasing order, inside the
// size bytes of the decoded stream.
func (rb *rebuilder) objStmEntries(num int, head []byte, n, first, size int) ([]objStmEntry, error) {
	entries := make([]objStmEntry, 0, min(n, 4096))
	for i := 0; i < n; i++ {
		if err := rb.ticker.Tick(); err != nil {
			return nil, err
		}
		var nums [2]int64
		for j := range nums {
			head = bytes.TrimLeft(head, "\x00\t\n\f\r ")
			k := 0
			for k < len(head) && head[k] >= '0' && head[k] <= '9' {
				k++
			}
			v, err := parseUint(head[:k], 10)
			if err != nil {
				return nil, malformed("object stream %d: bad header", num)
			}
			nums[j], head = v, head[k:]
		}
		e := objStmEntry{num: int(nums[0]), at: first + int(nums[1])}
		if e.num <= 0 || e.num >= maxObjects {
			return nil, malformed("object stream %d: bad object number", num)
		}
		if e.at > size {
			return nil, malformed("object stream %d: object %d outside the stream", num, e.num)
		}
		if i > 0 && e.at <= entries[i-1].at {
			return nil, malformed("object stream %d: objects %d and %d share an offset or lie out of order", num, entries[i-1].num, e.num)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// closed reports whether text, parsed as o, ends where o does: pdfcpu's
// parser forgives a dictionary or an array cut before its end, which inside
// an object stream means the object runs into the next one.
func closed(o types.Object, text string) bool {
	text = strings.TrimRight(text, "\x00\t\n\f\r ")
	switch o.(type) {
	case types.Dict:
		return strings.HasSuffix(text, ">>")
	case types.Array:
		return strings.HasSuffix(text, "]")
	}
	return true
}

// checkReferences refuses a file whose objects refer to objects it does not
// hold: what a file cut short at an object boundary looks like.
func (rb *rebuilder) checkReferences() error {
	var missing []int
	var walk func(o types.Object, depth int)
	walk = func(o types.Object, depth int) {
		if depth > 64 || len(missing) > 0 {
			return
		}
		switch v := o.(type) {
		case types.IndirectRef:
			if n := v.ObjectNumber.Value(); rb.objs[n] == nil && !rb.unwritten[n] {
				missing = append(missing, n)
			}
		case types.Dict:
			for _, e := range v {
				walk(e, depth+1)
			}
		case types.Array:
			for _, e := range v {
				walk(e, depth+1)
			}
		}
	}
	if rb.trailer != nil {
		walk(rb.trailer["Root"], 0)
		walk(rb.trailer["Info"], 0)
		walk(rb.trailer["Encrypt"], 0)
	}
	nums := slices.Sorted(maps.Keys(rb.objs))
	for _, num := range nums {
		if err := rb.ticker.Tick(); err != nil {
			return err
		}
		f := rb.objs[num]
		if err := rb.ticker.Weigh(len(f.body)); err != nil {
			return err
		}
		o := types.Object(f.dict)
		if !f.isStream {
			s := string(f.body)
			var err error
			if o, err = model.ParseObjectContext(rb.ctx, &s, 0, 64); err != nil {
				return malformed("object %d is unreadable", num)
			}
		}
		walk(o, 0)
		if len(missing) > 0 {
			return malformed("object %d refers to object %d, which the file does not hold (truncated?)", num, missing[0])
		}
	}
	if len(missing) > 0 {
		return malformed("the trailer refers to object %d, which the file does not hold (truncated?)", missing[0])
	}
	return nil
}
