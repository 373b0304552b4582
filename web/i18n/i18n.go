// Package i18n holds the languages Markup Room speaks, their message
// catalogs (one JSON file per language under locales/, shared by the server's
// views, its e-mails and problems, and the browser's scripts, which get their
// language's messages from the page) and the formatting of numbers, dates and
// plurals by language. Adding a language is one catalog file and one row of
// Languages (docs/i18n.md).
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// Dir is a script direction, the value of <html dir>.
type Dir string

// The two directions.
const (
	LTR Dir = "ltr"
	RTL Dir = "rtl"
)

// Language is one language the product speaks.
type Language struct {
	// Tag is its BCP 47 tag, the catalog's file name and the value of
	// <html lang>, the language menu's options, ?lang= and operation B's locale.
	Tag string
	// Name is its name in itself, as the language menu shows it.
	Name string
	// Dir is its script direction.
	Dir Dir
	// Format is the tag numbers and plural rules follow (Arabic with Western
	// digits, as the browser's Intl does for "ar").
	Format string
}

// Languages lists the languages in the language menu's order; the first is
// the fallback. A new language is one row here and one file locales/<tag>.json.
var Languages = []Language{
	{Tag: "en", Name: "English", Dir: LTR, Format: "en"},
	{Tag: "es", Name: "Español", Dir: LTR, Format: "es"},
	{Tag: "fr", Name: "Français", Dir: LTR, Format: "fr"},
	{Tag: "de", Name: "Deutsch", Dir: LTR, Format: "de"},
	{Tag: "ar", Name: "العربية", Dir: RTL, Format: "ar-u-nu-latn"},
}

// Pseudo is the test-only pseudo-language: English with every message
// wrapped in ⟦ ⟧, its letters accented and its length grown by 40 %, so a
// test sees text that did not come from the catalog and layouts that break
// with longer words. It is offered only when Options.Pseudo is set.
var Pseudo = Language{Tag: "en-XA", Name: "Pseudo", Dir: LTR, Format: "en"}

// Fallback is the language used when nothing else is asked for.
func Fallback() Language { return Languages[0] }

//go:embed locales/*.json
var files embed.FS

// Message is one catalog entry: a text, or a text per CLDR plural category
// ("zero", "one", "two", "few", "many", "other").
type Message struct {
	Text   string
	Plural map[string]string
}

// UnmarshalJSON reads a string or an object of plural forms.
func (m *Message) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &m.Text)
	}
	return json.Unmarshal(b, &m.Plural)
}

// MarshalJSON writes the message as the catalog file holds it.
func (m Message) MarshalJSON() ([]byte, error) {
	if m.Plural != nil {
		return json.Marshal(m.Plural)
	}
	return json.Marshal(m.Text)
}

// Catalog is the messages of one language by id.
type Catalog map[string]Message

// catalogs is every embedded catalog, read once: the files are part of the
// binary, so a bad one fails the tests (catalog_test.go), not a request.
var catalogs = sync.OnceValues(func() (map[string]Catalog, error) {
	out := map[string]Catalog{}
	for _, l := range Languages {
		b, err := files.ReadFile(path.Join("locales", l.Tag+".json"))
		if err != nil {
			return nil, fmt.Errorf("i18n: catalog of %s: %w", l.Tag, err)
		}
		var c Catalog
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("i18n: catalog of %s: %w", l.Tag, err)
		}
		out[l.Tag] = c
	}
	out[Pseudo.Tag] = pseudoCatalog(out[Fallback().Tag])
	return out, nil
})

// Catalogs returns every language's catalog (and the pseudo-language's),
// keyed by tag.
func Catalogs() (map[string]Catalog, error) { return catalogs() }

// catalogOf returns the catalog of tag; a broken embedded catalog panics,
// which the package's tests rule out.
func catalogOf(tag string) Catalog {
	all, err := catalogs()
	if err != nil {
		panic(err)
	}
	return all[tag]
}

// Lookup returns the language of tag (one of Languages, compared ignoring
// case); ok is false for any other tag.
func Lookup(tag string) (Language, bool) {
	for _, l := range Languages {
		if strings.EqualFold(l.Tag, tag) {
			return l, true
		}
	}
	return Language{}, false
}

// Tags lists the tags of Languages, in order.
func Tags() []string {
	out := make([]string, len(Languages))
	for i, l := range Languages {
		out[i] = l.Tag
	}
	return out
}

// Match picks the best of Languages for an Accept-Language header; ok is
// false when none of them is acceptable.
func Match(acceptLanguage string) (Language, bool) {
	prefs, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(prefs) == 0 {
		return Language{}, false
	}
	supported := make([]language.Tag, len(Languages))
	for i, l := range Languages {
		supported[i] = language.Make(l.Tag)
	}
	_, i, conf := language.NewMatcher(supported).Match(prefs...)
	if conf == language.No {
		return Language{}, false
	}
	return Languages[i], true
}

// IDs lists a catalog's message ids, sorted.
func (c Catalog) IDs() []string {
	ids := make([]string, 0, len(c))
	for id := range c {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
