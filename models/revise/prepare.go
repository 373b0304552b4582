package revise

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one printed word of a version in reading order.
type token struct {
	page int // 0-based
	word Word
	line int    // line number within the whole version
	hash uint64 // of the word's normal form
	long bool   // distinctive enough to be matched alone
	norm string // the normal form
}

// version is one version read for matching: its tokens in reading order
// (page by page, line by line, left to right) and the range of each page.
type version struct {
	pages  []Page
	tokens []token
	// first[p] is the index of page p's first token; first[len(pages)] is
	// len(tokens).
	first []int
	// grams[n-1][i] is the hash of the n tokens from i (n = 1…3); 0 past
	// the end.
	grams [3][]uint64
	// ix finds the version's shingles (set by Match).
	ix index
}

// ligatures spells out the Latin ligatures producers print in place of
// their letters ("ﬁ"), some versions of a document and not others.
var ligatures = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st")

// normal is a word's form for matching: lower case, its ligatures spelt
// out, without the punctuation and symbols around it. A word of no letter
// or digit has none.
func normal(s string) string {
	s = ligatures.Replace(s)
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r) })
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return ""
	}
	return strings.ToLower(s)
}

// read puts a version's words in reading order and hashes its shingles.
func read(pages []Page) *version {
	v := &version{pages: pages, first: make([]int, len(pages)+1)}
	line := 0
	for p, pg := range pages {
		v.first[p] = len(v.tokens)
		line = v.appendPage(p, pg.Words, line)
	}
	v.first[len(pages)] = len(v.tokens)
	for n := range v.grams {
		v.grams[n] = make([]uint64, len(v.tokens))
		for i := range v.tokens {
			if i+n >= len(v.tokens) {
				break
			}
			h := uint64(n+1) * 0x9e3779b97f4a7c15
			for k := i; k <= i+n; k++ {
				h = mix(h, v.tokens[k].hash)
			}
			v.grams[n][i] = h | 1 // never 0
		}
	}
	return v
}

// appendPage appends one page's words as tokens, grouped in lines (words
// whose middles lie within half a word's height of the line's), top to
// bottom, each line left to right; it returns the next line number.
func (v *version) appendPage(p int, words []Word, line int) int {
	order := make([]int, 0, len(words))
	for i, w := range words {
		if normal(w.Text) != "" {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(words[b].Box.cy(), words[a].Box.cy()) })
	start := len(v.tokens)
	lineY, lineH := 0.0, 0.0
	for k, i := range order {
		w := words[i]
		if k == 0 || lineY-w.Box.cy() > max(lineH, w.Box.Height)/2 {
			if k > 0 {
				line++
			}
			lineY, lineH = w.Box.cy(), w.Box.Height
		}
		n := normal(w.Text)
		v.tokens = append(v.tokens, token{page: p, word: w, line: line, hash: hashString(n), norm: n,
			long: utf8.RuneCountInString(n) >= 4 || strings.IndexFunc(n, unicode.IsDigit) >= 0})
	}
	added := v.tokens[start:]
	slices.SortStableFunc(added, func(a, b token) int {
		if a.line != b.line {
			return cmp.Compare(a.line, b.line)
		}
		return cmp.Compare(a.word.Box.X, b.word.Box.X)
	})
	if len(order) > 0 {
		line++
	}
	return line
}

// pageOf is the page of token i.
func (v *version) pageOf(i int) int { return v.tokens[i].page }

// hashString is FNV-1a of s.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix folds v into h.
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	h *= 0xbf58476d1ce4e5b9
	return h ^ (h >> 31)
}

// maxPostings caps the places an index keeps of one shingle: a shingle
// printed more often than that on a version (a running footer, "Signature"
// in a long signature block) tells nothing alone, and the cap keeps each
// lookup's work bounded whatever the text.
const maxPostings = 16

// index finds a version's shingles: hash → the first tokens of its places,
// or nil when it is printed more than maxPostings times.
type index [3]map[uint64][]int32

func (v *version) index() index {
	var ix index
	for n := range ix {
		ix[n] = make(map[uint64][]int32, len(v.tokens))
		for i, h := range v.grams[n] {
			if h == 0 {
				continue
			}
			list, seen := ix[n][h]
			switch {
			case !seen:
				ix[n][h] = []int32{int32(i)}
			case list == nil:
			case len(list) >= maxPostings:
				ix[n][h] = nil
			default:
				ix[n][h] = append(list, int32(i))
			}
		}
	}
	return ix
}
