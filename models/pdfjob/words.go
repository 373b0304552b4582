package pdfjob

import (
	"context"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models/pdf"
)

// KindWords reads the boxes of the words printed on each page of a stored
// document, for the pre-send check's "a tag covers printed words".
const KindWords = "words"

// Caps of KindWords' answer: a page of tiny print still answers in a few
// hundred kilobytes, and the check, which only looks under tags, loses
// nothing it would report on an honest page.
const (
	MaxWordsPerPage = 4000
	MaxWords        = 100_000
)

// Words is KindWords' result: the printed words' boxes of each page, in
// page order (a page past MaxWords has none listed).
type Words struct {
	Pages [][]pdf.Box `json:"pages"`
}

// words splits each text run of each page into words at its spaces and
// keeps the box of each word that is printed text: one with a letter or a
// digit, not a text tag's own `{{…}}` (a tag is meant to sit on it) and not
// a fill-in line of underscores or dots.
func words(ctx context.Context, l pdf.Limits, r io.ReadSeeker) (Words, error) {
	var out Words
	total := 0
	_, err := l.InspectLayout(ctx, r, func(p pdf.PageLayout) error {
		var page []pdf.Box
		for _, run := range p.Runs {
			if len(page) >= MaxWordsPerPage || total >= MaxWords {
				break
			}
			page = appendWords(page, run, min(MaxWordsPerPage-len(page), MaxWords-total))
		}
		total += len(page)
		out.Pages = append(out.Pages, page)
		return nil
	})
	if err := pdf.LayoutCause(err); err != nil {
		return Words{}, err
	}
	return out, nil
}

// appendWords appends the boxes of run's printed words, at most limit.
func appendWords(dst []pdf.Box, run pdf.TextRun, limit int) []pdf.Box {
	eachWord(run, limit, func(_ string, b pdf.Box) { dst = append(dst, b) })
	return dst
}

// eachWord calls fn with each of run's printed words and its box, at most
// limit of them: the run is split at its spaces, and a word that is not
// printed text (see printed) is skipped.
func eachWord(run pdf.TextRun, limit int, fn func(word string, b pdf.Box)) {
	text := run.Text
	if utf8.RuneCountInString(text) != len(run.Glyphs) {
		return // a run whose glyphs are not one a rune cannot be split
	}
	i := 0 // rune index
	for n := 0; n < limit && text != ""; {
		// Skip spaces.
		r, size := utf8.DecodeRuneInString(text)
		if unicode.IsSpace(r) {
			text, i = text[size:], i+1
			continue
		}
		end := strings.IndexFunc(text, unicode.IsSpace)
		if end < 0 {
			end = len(text)
		}
		word, count := text[:end], utf8.RuneCountInString(text[:end])
		if printed(word) {
			b := run.Glyphs[i]
			for _, g := range run.Glyphs[i+1 : i+count] {
				b = pdf.Box{LLX: min(b.LLX, g.LLX), LLY: min(b.LLY, g.LLY), URX: max(b.URX, g.URX), URY: max(b.URY, g.URY)}
			}
			fn(word, b)
			n++
		}
		text, i = text[end:], i+count
	}
}

// printed tells whether a word is text a reader reads: it holds a letter or
// a digit and is not a text tag.
func printed(word string) bool {
	if strings.HasPrefix(word, "{{") || strings.HasSuffix(word, "}}") {
		return false
	}
	return strings.IndexFunc(word, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
