package templatematch

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// encodingVersion is the first byte of every encoded fingerprint. A change to
// the words, the shingles or the hash functions needs a new version (and the
// stored fingerprints computed again).
const encodingVersion = 1

// ErrBadEncoding is returned by UnmarshalBinary for bytes that are not a
// fingerprint this package wrote.
var ErrBadEncoding = errors.New("templatematch: not an encoded fingerprint")

// MarshalBinary encodes f for a database column: the version byte, the page
// count, each page's width and height in tenths of a point, then for each
// signed page its shingle count and, when it is not 0, its signature
// (SignatureSize little-endian uint32). Counts and sizes are uvarints. A
// three-page form takes about 800 bytes.
func (f Fingerprint) MarshalBinary() ([]byte, error) {
	signed := min(len(f.pages), MaxSignedPages)
	out := make([]byte, 0, 1+binary.MaxVarintLen32*(1+3*len(f.pages))+signed*4*SignatureSize)
	out = append(out, encodingVersion)
	out = binary.AppendUvarint(out, uint64(len(f.pages)))
	for _, p := range f.pages {
		out = binary.AppendUvarint(out, uint64(p.width))
		out = binary.AppendUvarint(out, uint64(p.height))
	}
	for _, p := range f.pages[:signed] {
		out = binary.AppendUvarint(out, uint64(p.shingles))
		if p.sig == nil {
			continue
		}
		for _, v := range p.sig {
			out = binary.LittleEndian.AppendUint32(out, v)
		}
	}
	return out, nil
}

// UnmarshalBinary decodes what MarshalBinary wrote. It reads stored bytes
// as hostile: every count is checked against the package's bounds before
// anything is allocated for it, and trailing bytes are an error.
func (f *Fingerprint) UnmarshalBinary(data []byte) error {
	if len(data) == 0 || data[0] != encodingVersion {
		return fmt.Errorf("%w: unknown version", ErrBadEncoding)
	}
	r := reader{data: data[1:]}
	n, ok := r.uvarint(MaxPages)
	if !ok {
		return fmt.Errorf("%w: page count", ErrBadEncoding)
	}
	// Each page takes at least two bytes; refuse a count the data cannot hold.
	if int(n)*2 > len(r.data) {
		return fmt.Errorf("%w: page count %d past the data", ErrBadEncoding, n)
	}
	pages := make([]pageFingerprint, n)
	for i := range pages {
		w, ok1 := r.uvarint(maxSize10)
		h, ok2 := r.uvarint(maxSize10)
		if !ok1 || !ok2 {
			return fmt.Errorf("%w: size of page %d", ErrBadEncoding, i+1)
		}
		pages[i].width, pages[i].height = uint32(w), uint32(h)
	}
	for i := range pages[:min(len(pages), MaxSignedPages)] {
		s, ok := r.uvarint(MaxPageWords)
		if !ok {
			return fmt.Errorf("%w: shingles of page %d", ErrBadEncoding, i+1)
		}
		if s == 0 {
			continue
		}
		if len(r.data) < 4*SignatureSize {
			return fmt.Errorf("%w: signature of page %d cut short", ErrBadEncoding, i+1)
		}
		sig := new([SignatureSize]uint32)
		for k := range sig {
			sig[k] = binary.LittleEndian.Uint32(r.data[4*k:])
		}
		r.data = r.data[4*SignatureSize:]
		pages[i].shingles, pages[i].sig = uint32(s), sig
	}
	if len(r.data) != 0 {
		return fmt.Errorf("%w: %d bytes past the end", ErrBadEncoding, len(r.data))
	}
	f.pages = pages
	return nil
}

// reader reads uvarints from data.
type reader struct{ data []byte }

// uvarint reads one uvarint of at most limit.
func (r *reader) uvarint(limit uint64) (uint64, bool) {
	v, n := binary.Uvarint(r.data)
	if n <= 0 || v > limit {
		return 0, false
	}
	r.data = r.data[n:]
	return v, true
}
