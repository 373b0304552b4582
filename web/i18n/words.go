package i18n

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Words are words as data: what a view model holds where the page shows a
// sentence. Handlers build them from codes, ids and typed arguments; only a
// view writes them, in the reader's language, with Localizer.Say
// (docs/words.md). Text, List, Capital and Plain are the kinds.
type Words interface {
	// In writes the words in l's language.
	In(l *Localizer) string
}

// Text is a catalog message as data: its id, written whole, and its
// arguments as name, value pairs, as Localizer.T takes them. An argument
// that is itself Words is written first, in the same language.
type Text struct {
	ID   string
	Args []any
}

// Msg builds a Text from a catalog id written whole (the catalog tests find
// it in the source) and its name, value pairs.
func Msg(id string, args ...any) Text { return Text{ID: id, Args: args} }

// In writes the message in l's language (Localizer.T).
func (t Text) In(l *Localizer) string { return l.T(t.ID, t.Args...) }

// List is several words written one after another, Sep between them.
type List struct {
	Items []Words
	Sep   string
}

// In writes each item in l's language and joins them.
func (ls List) In(l *Localizer) string {
	out := make([]string, len(ls.Items))
	for i, w := range ls.Items {
		out[i] = l.Say(w)
	}
	return strings.Join(out, ls.Sep)
}

// Capital is words whose first letter is written upper-case (a list of
// changes that leads a line).
type Capital struct{ Words Words }

// In writes the words with their first letter upper-case.
func (c Capital) In(l *Localizer) string {
	s := l.Say(c.Words)
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// Plain is data shown as it is in every language (a name, a title, a code
// this version does not know).
type Plain string

// In is the data itself.
func (p Plain) In(*Localizer) string { return string(p) }

// Say writes w in l's language; no words are "".
func (l *Localizer) Say(w Words) string {
	if w == nil {
		return ""
	}
	return w.In(l)
}

// Day is the day of a time (its date without the time of day), in the
// language's order and month names.
type Day time.Time

// In writes the day.
func (d Day) In(l *Localizer) string { return l.Date(time.Time(d)) }

// Ranges are ascending numbers (pages) written as ranges in the language's
// digits: "1–3, 5".
type Ranges []int

// In writes the ranges.
func (r Ranges) In(l *Localizer) string {
	var b strings.Builder
	for i := 0; i < len(r); {
		j := i
		for j+1 < len(r) && r[j+1] == r[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Number(r[i]))
		if j > i {
			b.WriteString("–")
			b.WriteString(l.Number(r[j]))
		}
		i = j + 1
	}
	return b.String()
}

// LeftToRight sets words apart as a left-to-right run (U+2066 … U+2069):
// in an Arabic sentence "3–5" stays "3–5" (unset, the en dash splits it
// into two numbers laid out right to left: "5–3").
type LeftToRight struct{ Words Words }

// In writes the words inside the isolate.
func (r LeftToRight) In(l *Localizer) string { return "\u2066" + l.Say(r.Words) + "\u2069" }
