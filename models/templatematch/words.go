package templatematch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// pageWords appends to out the hash of each of the form's own words of text
// (at most MaxPageTextBytes of it, at most MaxPageWords words), read line by
// line (a line is one run of the page's text). A word is a run of letters,
// digits and combining marks, compared in lower case. The words a form is
// filled in with are left out, so that a copy filled in otherwise, or not
// at all, gives the same shingles (docs/decisions.md, "Template matching"):
//
//   - a line after a line that ends with ':' (a value drawn apart from its
//     label, as form fillers draw values), unless it ends with ':' itself
//     (the next label of a blank form);
//   - a word holding a digit (amounts, dates, ids, phone numbers);
//   - a run of capitalised words within a sentence (names of people,
//     places, companies): a word of a capital then small letters, or a
//     single capital (an initial), that does not start a sentence (the
//     page's first word, or the first after '.', '!' or '?' that does not
//     end an initial); such words separated only by spaces, hyphens,
//     apostrophes and initials' full stops make one run. A run followed by
//     ':' is a label ("First Name:", "Brokerage:") and is kept.
//
// Every other word is kept: lower-case words, words in capitals of two
// letters or more (headings, acronyms), a sentence's first word.
func pageWords(text string, out []uint64) []uint64 {
	if len(text) > MaxPageTextBytes {
		text = text[:MaxPageTextBytes]
	}
	r := wordReader{out: out, sentenceStart: true}
	afterLabel := false
	for len(text) > 0 && !r.full() {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		label := strings.HasSuffix(strings.TrimRightFunc(line, unicode.IsSpace), ":")
		if !afterLabel || label {
			for _, c := range line {
				if r.full() {
					break
				}
				r.rune(c)
			}
			r.rune('\n')
		}
		afterLabel = label
	}
	r.endWord()
	r.flush(false)
	return r.out
}

func isWordRune(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.Is(unicode.Mn, c)
}

// wordReader is pageWords' state.
type wordReader struct {
	out []uint64
	// pending is the run of capitalised words not yet kept or left out.
	pending []uint64
	// The word being read.
	in, digit, upperFirst, lower bool
	runes                        int
	h                            uint64
	// sentenceStart: the next word starts a sentence; lastInitial: the
	// last word was a single capital.
	sentenceStart, lastInitial bool
}

const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211 // FNV-1a

func (r *wordReader) full() bool { return len(r.out)+len(r.pending) >= MaxPageWords }

// rune reads the next character.
func (r *wordReader) rune(c rune) {
	if isWordRune(c) {
		if !r.in {
			r.in, r.digit, r.lower, r.runes, r.h = true, false, false, 0, fnvOffset
			r.upperFirst = unicode.IsUpper(c)
		}
		r.runes++
		switch {
		case unicode.IsDigit(c):
			r.digit = true
		case unicode.IsLower(c):
			r.lower = true
		}
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], unicode.ToLower(c))
		for _, b := range buf[:n] {
			r.h = (r.h ^ uint64(b)) * fnvPrime
		}
		return
	}
	r.endWord()
	switch {
	case c == ':':
		r.flush(true)
	case c == '.' && r.lastInitial:
		// an initial's full stop: the run and the sentence go on
	case c == '.' || c == '!' || c == '?':
		r.flush(false)
		r.sentenceStart = true
	case c == ' ' || c == '-' || c == '\'' || c == '\u2019' || c == '\u00a0':
		// the run goes on
	default:
		r.flush(false)
	}
}

// endWord keeps, leaves out or holds the word just read, if any.
func (r *wordReader) endWord() {
	if !r.in {
		return
	}
	r.in = false
	start := r.sentenceStart
	r.sentenceStart, r.lastInitial = false, r.upperFirst && r.runes == 1
	switch {
	case r.digit:
		r.flush(false)
	case r.upperFirst && (r.lower || r.runes == 1) && !start:
		r.pending = append(r.pending, mix64(r.h))
	default:
		r.flush(false)
		r.out = append(r.out, mix64(r.h))
	}
}

// flush keeps the pending run when it is a label and leaves it out otherwise.
func (r *wordReader) flush(label bool) {
	if label {
		r.out = append(r.out, r.pending...)
	}
	r.pending = r.pending[:0]
}
