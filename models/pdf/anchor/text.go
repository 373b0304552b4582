package anchor

import (
	"context"
	"math"
	"strings"
	"unicode"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
)

// checkEvery is how many characters the anchor search scans between two
// looks at its context: a few microseconds of work, so a search whose
// client has left stops well within a second (docs/decisions.md, "Anchor
// search within a budget").
const checkEvery = 4096

// runBreak separates two runs in a Text; no rune of an anchor is
// negative, so no match spans two runs (an anchor lies on one line).
const runBreak rune = -1

// glyphAt locates one character of a Text in the layout.
type glyphAt struct {
	page, run, glyph int32
}

// Text is a document's text prepared once for every anchor searched in
// it: the runs of every page one after the other, each run of white space
// made one ' ', runBreak between runs. Finding an anchor is then one
// left-to-right pass (Knuth–Morris–Pratt): linear in the text plus the
// anchor, whatever both hold.
type Text struct {
	lay  pdf.Layout
	text []rune
	// folded is text case-folded, made on the first case-insensitive search.
	folded []rune
	at     []glyphAt
}

// NewText prepares lay's text. Runs whose text does not map one rune to
// one glyph are left out, as detect.FindText leaves them.
func NewText(lay pdf.Layout) *Text {
	t := &Text{lay: lay}
	for p, page := range lay.Pages {
		for r, run := range page.Runs {
			if len(t.text) > 0 {
				t.text = append(t.text, runBreak)
				t.at = append(t.at, glyphAt{})
			}
			start := len(t.text)
			g := 0
			for _, c := range run.Text {
				if g < len(run.Glyphs) {
					if !unicode.IsSpace(c) {
						t.text = append(t.text, c)
						t.at = append(t.at, glyphAt{int32(p), int32(r), int32(g)})
					} else if n := len(t.text); n == start || t.text[n-1] != ' ' {
						t.text = append(t.text, ' ')
						t.at = append(t.at, glyphAt{int32(p), int32(r), int32(g)})
					}
				}
				g++
			}
			if g != len(run.Glyphs) {
				t.text, t.at = t.text[:start], t.at[:start]
			}
		}
	}
	return t
}

// Size is how many characters one search scans, besides the anchor.
func (t *Text) Size() int64 { return int64(len(t.text)) }

// foldRune maps the runes that compare equal without regard to case to one
// rune (simple case mapping, as unicode.ToUpper then unicode.ToLower).
func foldRune(r rune) rune {
	if r < 0 {
		return r
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// Find returns the occurrences of anchor, page by page in the order the text
// is drawn, as detect.FindText defines them (runs of white space in anchor
// match runs of white space in the text; caseSensitive false compares case
// folded; wholeWord true only accepts occurrences not preceded or followed by
// a letter or digit; occurrences do not overlap), stopping after limit of
// them. It looks at ctx every checkEvery characters and returns its
// error once it is done.
func (t *Text) Find(ctx context.Context, anchor string, caseSensitive, wholeWord bool, limit int) ([]detect.Match, error) {
	want := []rune(strings.Join(strings.Fields(anchor), " "))
	if len(want) == 0 || limit <= 0 {
		return nil, nil
	}
	text := t.text
	if !caseSensitive {
		if t.folded == nil {
			t.folded = make([]rune, len(t.text))
			for i, c := range t.text {
				t.folded[i] = foldRune(c)
			}
		}
		text = t.folded
		key := make([]rune, len(want))
		for i, c := range want {
			key[i] = foldRune(c)
		}
		want = key
	}
	first, last := isWord(want[0]), isWord(want[len(want)-1])

	// fail[i] is the length of the longest proper border of want[:i+1].
	fail := make([]int, len(want))
	for i, k := 1, 0; i < len(want); i++ {
		for k > 0 && want[i] != want[k] {
			k = fail[k-1]
		}
		if want[i] == want[k] {
			k++
		}
		fail[i] = k
	}

	var out []detect.Match
	end := 0 // where the last accepted occurrence ends
	k := 0
	for i, c := range text {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for k > 0 && c != want[k] {
			k = fail[k-1]
		}
		if c == want[k] {
			k++
		}
		if k < len(want) {
			continue
		}
		from, to := i+1-len(want), i+1
		k = fail[k-1]
		if from < end {
			continue
		}
		if wholeWord && (from > 0 && first && isWord(t.text[from-1]) || to < len(t.text) && last && isWord(t.text[to])) {
			continue
		}
		end = to
		out = append(out, t.match(from, to))
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

// match is the occurrence at text[from:to] (one run's characters).
func (t *Text) match(from, to int) detect.Match {
	a, z := t.at[from], t.at[to-1]
	page := t.lay.Pages[a.page]
	glyphs := page.Runs[a.run].Glyphs[a.glyph : z.glyph+1]
	b := glyphs[0]
	for _, g := range glyphs[1:] {
		b = pdf.Box{LLX: math.Min(b.LLX, g.LLX), LLY: math.Min(b.LLY, g.LLY), URX: math.Max(b.URX, g.URX), URY: math.Max(b.URY, g.URY)}
	}
	return detect.Match{Page: int(a.page) + 1, Box: b, Display: page.ToDisplay(b)}
}

func isWord(r rune) bool { return r >= 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
