package templatematch

import (
	"math"
)

// Bounds on what a fingerprint reads and holds (docs/decisions.md,
// "Template matching").
const (
	// MaxPages caps the pages a fingerprint records (the server reads no
	// PDF of more pages): pages past it are not counted.
	MaxPages = 2000
	// MaxSignedPages caps the pages whose text is signed: a form is
	// recognised by its first pages, and the signatures stay under 26 KB.
	// Later pages are compared by their size alone.
	MaxSignedPages = 100
	// MaxPageTextBytes caps the text read of one page; the rest is ignored.
	MaxPageTextBytes = 64 << 10
	// MaxPageWords caps the words kept of one page (a dense page of small
	// print holds about 1,500).
	MaxPageWords = 4096
	// SignatureSize is the number of MinHash values kept per signed page
	// (4 bytes each).
	SignatureSize = 64
	// ShingleWords is the number of consecutive words in a shingle.
	ShingleWords = 2
	// maxSize10 caps a page's side in tenths of a point (PDF's largest
	// page is 14,400 pt; a UserUnit may make it larger, never this large).
	maxSize10 = 1 << 24
	// sizeTolerance10 is how far two pages' sides may differ, in tenths of
	// a point, and still be the same size (1 pt).
	sizeTolerance10 = 10
)

// Page is what a fingerprint reads of one page: its size in points and its
// text, one line per run of text in the order the page draws them (a value
// drawn apart from its label is a line of its own).
type Page struct {
	Width, Height float64
	Text          string
}

// Fingerprint is a document's page count, its page sizes (rounded to a
// tenth of a point) and, for each of its first MaxSignedPages pages, the
// number of word shingles the page holds and their MinHash signature. The
// zero value is a document of no pages, which matches nothing.
type Fingerprint struct {
	pages []pageFingerprint
}

// pageFingerprint is one page of a Fingerprint.
type pageFingerprint struct {
	// width and height are in tenths of a point.
	width, height uint32
	// shingles counts the page's shingles (0: no text, or the page is past
	// MaxSignedPages); sig is nil exactly when it is 0.
	shingles uint32
	sig      *[SignatureSize]uint32
}

// Pages is the number of pages fingerprinted.
func (f Fingerprint) Pages() int { return len(f.pages) }

// PageSize is the width and height of page i (0-based), rounded to a tenth
// of a point.
func (f Fingerprint) PageSize(i int) (width, height float64) {
	return float64(f.pages[i].width) / 10, float64(f.pages[i].height) / 10
}

// HasText reports whether any page of f holds text: a fingerprint without
// any (a scanned document) scores 0 against everything.
func (f Fingerprint) HasText() bool {
	for _, p := range f.pages {
		if p.shingles > 0 {
			return true
		}
	}
	return false
}

// FingerprintOf fingerprints a document's pages (at most MaxPages of them).
func FingerprintOf(pages []Page) Fingerprint {
	var b Builder
	for _, p := range pages {
		b.Add(p)
	}
	return b.Fingerprint()
}

// Builder fingerprints a document one page at a time, as a reader of its
// layout meets them, holding no page's text. The zero value is ready.
type Builder struct {
	fp     Fingerprint
	hashes *hashes
	// words holds the hashes of one page's words, reused page to page.
	words []uint64
}

// Add fingerprints the next page; pages past MaxPages are ignored.
func (b *Builder) Add(p Page) {
	if len(b.fp.pages) >= MaxPages {
		return
	}
	pf := pageFingerprint{width: size10(p.Width), height: size10(p.Height)}
	if len(b.fp.pages) < MaxSignedPages {
		if b.hashes == nil {
			b.hashes = newHashes()
		}
		b.words = pageWords(p.Text, b.words[:0])
		pf.shingles, pf.sig = b.hashes.sign(b.words)
	}
	b.fp.pages = append(b.fp.pages, pf)
}

// Fingerprint returns the fingerprint of the pages added so far.
func (b *Builder) Fingerprint() Fingerprint {
	return Fingerprint{pages: append([]pageFingerprint(nil), b.fp.pages...)}
}

// size10 is a side in points as tenths of a point, within 0..maxSize10.
func size10(v float64) uint32 {
	if math.IsNaN(v) || v <= 0 {
		return 0
	}
	return uint32(math.Min(math.Round(v*10), maxSize10))
}

// mix64 is SplitMix64's finalizer: every bit of x moves every bit of the
// result.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// hashes are the SignatureSize hash functions of the MinHash signature:
// h_i(s) = the high 32 bits of a_i·s + b_i (mod 2⁶⁴), a_i odd, over shingle
// hashes s already mixed. They are fixed forever: stored fingerprints are
// compared with new ones (a change needs a new encoding version).
type hashes struct {
	a, b [SignatureSize]uint64
}

func newHashes() *hashes {
	h := &hashes{}
	seed := uint64(0x5eed_7e3a_17e5_0001)
	next := func() uint64 {
		seed += 0x9e3779b97f4a7c15
		return mix64(seed)
	}
	for i := range SignatureSize {
		h.a[i] = next() | 1
		h.b[i] = next()
	}
	return h
}

// sign returns the number of shingles of ShingleWords consecutive words
// (one shingle of all the words when there are fewer) and their MinHash
// signature; nil when there are no words.
func (h *hashes) sign(words []uint64) (uint32, *[SignatureSize]uint32) {
	if len(words) == 0 {
		return 0, nil
	}
	sig := new([SignatureSize]uint32)
	for i := range sig {
		sig[i] = math.MaxUint32
	}
	n := max(1, len(words)-ShingleWords+1)
	for i := range n {
		s := uint64(0)
		for _, w := range words[i:min(i+ShingleWords, len(words))] {
			s = mix64(s*0x100000001b3 ^ w)
		}
		for k := range sig {
			if v := uint32((h.a[k]*s + h.b[k]) >> 32); v < sig[k] {
				sig[k] = v
			}
		}
	}
	return uint32(n), sig
}
