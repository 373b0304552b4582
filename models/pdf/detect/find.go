package detect

import (
	"strings"
	"unicode"

	"github.com/markuproom/markuproom/models/pdf"
)

// Match is one occurrence of an anchor string.
type Match struct {
	// Page is 1-based.
	Page int `json:"page"`
	// Box is the occurrence's box in user space.
	Box pdf.Box `json:"box"`
	// Display is the same box in display space (the page as shown), where
	// offsets "to the right" and "down" read as the reader sees them.
	Display pdf.Box `json:"display"`
}

// FindText finds every occurrence of anchor in the layout's text, page by
// page in the order the text is drawn. Runs of white space in anchor match
// runs of white space in the text; caseSensitive false compares by Unicode
// simple folding; wholeWord true only accepts occurrences not preceded or
// followed by a letter or digit. An anchor never spans two runs (lines).
func FindText(lay pdf.Layout, anchor string, caseSensitive, wholeWord bool) []Match {
	want := []rune(strings.Join(strings.Fields(anchor), " "))
	if len(want) == 0 {
		return nil
	}
	var out []Match
	for i, p := range lay.Pages {
		for _, r := range p.Runs {
			text := []rune(r.Text)
			if len(text) != len(r.Glyphs) {
				continue
			}
			for start := 0; start < len(text); start++ {
				end, ok := matchAt(text, start, want, caseSensitive)
				if !ok {
					continue
				}
				if wholeWord && (start > 0 && isWord(text[start-1]) && isWord(want[0]) || end < len(text) && isWord(text[end]) && isWord(want[len(want)-1])) {
					continue
				}
				b := spanBox(r, start, end)
				out = append(out, Match{Page: i + 1, Box: b, Display: p.ToDisplay(b)})
				start = end - 1
			}
		}
	}
	return out
}

// matchAt matches want at text[start:], a space in want matching one or
// more spaces in text, and returns where the match ends.
func matchAt(text []rune, start int, want []rune, caseSensitive bool) (int, bool) {
	j := start
	for _, w := range want {
		if j >= len(text) {
			return 0, false
		}
		if w == ' ' {
			if !unicode.IsSpace(text[j]) {
				return 0, false
			}
			for j < len(text) && unicode.IsSpace(text[j]) {
				j++
			}
			continue
		}
		if !sameRune(text[j], w, caseSensitive) {
			return 0, false
		}
		j++
	}
	return j, true
}

func sameRune(a, b rune, caseSensitive bool) bool {
	if a == b {
		return true
	}
	if caseSensitive {
		return false
	}
	return unicode.ToLower(a) == unicode.ToLower(b) || unicode.ToUpper(a) == unicode.ToUpper(b)
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
