package i18n

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Localizer speaks one language: its messages, plurals, numbers and dates.
type Localizer struct {
	lang    Language
	cat     Catalog
	en      Catalog
	format  language.Tag
	printer *message.Printer
}

// New returns the Localizer of lang (one of Languages, or Pseudo): one per
// language, built the first time any is asked for and shared by every
// request after (docs/i18n.md). A Localizer never changes once built and its
// printer formats each call in a state of its own, so it is safe for
// concurrent use. A language of no row (a test's) gets one of its own.
func New(lang Language) *Localizer {
	if l, ok := localizers()[lang.Tag]; ok && l.lang == lang {
		return l
	}
	return build(lang)
}

// localizers are the shared Localizers of Languages and Pseudo, by tag.
var localizers = sync.OnceValue(func() map[string]*Localizer {
	out := make(map[string]*Localizer, len(Languages)+1)
	for _, lang := range append(slices.Clone(Languages), Pseudo) {
		out[lang.Tag] = build(lang)
	}
	return out
})

// build makes the Localizer of lang.
func build(lang Language) *Localizer {
	f := language.MustParse(lang.Format)
	return &Localizer{lang: lang, cat: catalogOf(lang.Tag), en: catalogOf(Fallback().Tag), format: f, printer: message.NewPrinter(f)}
}

// English is the fallback language's Localizer.
func English() *Localizer { return New(Fallback()) }

// For is the Localizer of tag's language (Lookup), the fallback's for a
// tag it does not know: a message queued in a language fixed then.
func For(tag string) *Localizer {
	if lang, ok := Lookup(tag); ok {
		return New(lang)
	}
	return English()
}

// Language is the language it speaks.
func (l *Localizer) Language() Language { return l.lang }

// T returns message id with its {placeholders} filled from args, given as
// name, value pairs ("name", "Robin", "count", 3). A plural message picks its
// form by the argument "count". Numbers are written the language's way. An id
// the catalog lacks falls back to English, and an id no catalog has is
// returned as it is (the catalog tests keep both from happening).
func (l *Localizer) T(id string, args ...any) string {
	m, ok := l.cat[id]
	if !ok {
		if m, ok = l.en[id]; !ok {
			return id
		}
	}
	text := m.Text
	if m.Plural != nil {
		text = l.pluralForm(m.Plural, countOf(args))
	}
	return l.fill(text, args)
}

// countOf finds the "count" argument.
func countOf(args []any) int {
	for i := 0; i+1 < len(args); i += 2 {
		if args[i] == "count" {
			switch n := args[i+1].(type) {
			case int:
				return n
			case int64:
				return int(n)
			}
		}
	}
	return 0
}

// PluralCategory names the CLDR plural category of n in the language:
// "zero", "one", "two", "few", "many" or "other".
func (l *Localizer) PluralCategory(n int) string {
	if n < 0 {
		n = -n
	}
	switch plural.Cardinal.MatchPlural(l.format, n, 0, 0, 0, 0) {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

func (l *Localizer) pluralForm(forms map[string]string, n int) string {
	if s, ok := forms[l.PluralCategory(n)]; ok {
		return s
	}
	return forms["other"]
}

// fill replaces each {name} of text by its argument.
func (l *Localizer) fill(text string, args []any) string {
	if len(args) < 2 || !strings.Contains(text, "{") {
		return text
	}
	pairs := make([]string, 0, len(args))
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		pairs = append(pairs, "{"+name+"}", l.value(args[i+1]))
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

func (l *Localizer) value(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case Words:
		return l.Say(v)
	case int:
		return l.Number(v)
	case int64:
		return l.Number(int(v))
	case time.Time:
		return l.DateTime(v)
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// Number writes n with the language's digits and grouping (1,234 · 1.234 · 1 234).
func (l *Localizer) Number(n int) string {
	return l.printer.Sprint(number.Decimal(n))
}

// Decimal writes x with at most digits fraction digits, the language's way.
func (l *Localizer) Decimal(x float64, digits int) string {
	return l.printer.Sprint(number.Decimal(x, number.MaxFractionDigits(digits)))
}

// Date writes a day ("26 Nov 2026", "Nov 26, 2026") in the language, with
// the catalog's month names and order.
func (l *Localizer) Date(t time.Time) string {
	return l.T("format.date", "day", fmt.Sprint(t.Day()), "month", l.Month(t.Month()), "year", fmt.Sprint(t.Year()))
}

// Time writes a time of day (24-hour, "16:05").
func (l *Localizer) Time(t time.Time) string {
	return t.Format("15:04")
}

// DateTime writes a day and a time of day.
func (l *Localizer) DateTime(t time.Time) string {
	return l.T("format.datetime", "date", l.Date(t), "time", l.Time(t))
}

// monthIDs are the catalog's short month names, January first.
var monthIDs = [12]string{
	"format.month.jan", "format.month.feb", "format.month.mar", "format.month.apr",
	"format.month.may", "format.month.jun", "format.month.jul", "format.month.aug",
	"format.month.sep", "format.month.oct", "format.month.nov", "format.month.dec",
}

// Month is a month's short name in the language ("Nov", "nov", "نوفمبر").
func (l *Localizer) Month(m time.Month) string { return l.T(monthIDs[m-1]) }

// Messages returns the messages whose ids begin with one of prefixes, as the
// browser gets them (the page hands them to its scripts).
func (l *Localizer) Messages(prefixes ...string) Catalog {
	out := Catalog{}
	for _, c := range []Catalog{l.en, l.cat} {
		for id, m := range c {
			for _, p := range prefixes {
				if strings.HasPrefix(id, p) {
					out[id] = m
				}
			}
		}
	}
	return out
}

type ctxKey struct{}

// With returns ctx carrying l.
func With(ctx context.Context, l *Localizer) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From returns the Localizer ctx carries, else English.
func From(ctx context.Context) *Localizer {
	if ctx != nil {
		if l, ok := ctx.Value(ctxKey{}).(*Localizer); ok {
			return l
		}
	}
	return English()
}

// T is From(ctx).T: the message id in ctx's language.
func T(ctx context.Context, id string, args ...any) string {
	return From(ctx).T(id, args...)
}
