// Package i18ntest holds the tests' one check that a page speaks its
// language: no English message of the areas it tests left on it
// (docs/i18n.md, "Tests"). Only tests import it.
package i18ntest

import (
	"html"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/web/i18n"
)

var (
	// scriptOrStyle are not read; <code> holds data (codes, examples).
	scriptOrStyle = regexp.MustCompile(`(?s)<(script|style|code)\b.*?</(script|style|code)>`)
	anyTag        = regexp.MustCompile(`(?s)<[^>]*>`)
	// readAttr are the attributes people read or hear: a screen reader's
	// label, a tooltip, a field's hint, an image's text, and the messages
	// app.js shows from the page (confirmations, a success).
	readAttr    = regexp.MustCompile(`\b(?:aria-label|title|placeholder|alt|data-confirm[a-z-]*|data-success)="([^"]*)"`)
	placeholder = regexp.MustCompile(`\{[a-zA-Z][a-zA-Z0-9_]*\}`)
)

// Words is what an HTML page (or a part of one) says to people: the
// attributes they read or hear, one a line, then its text without scripts
// and styles, one text node a line; a <code>'s contents are data and left out.
func Words(page string) string {
	var b strings.Builder
	for _, m := range readAttr.FindAllStringSubmatch(page, -1) {
		b.WriteString(html.UnescapeString(m[1]) + "\n")
	}
	b.WriteString(html.UnescapeString(anyTag.ReplaceAllString(scriptOrStyle.ReplaceAllString(page, " "), "\n")))
	return b.String()
}

// EnglishLeft lists the English messages of the catalog areas prefixes
// (id prefixes such as "room.") that text — a page's Words, less what the
// test knows to be data — still shows although lang says them otherwise,
// sorted, each as "id: piece". A message is looked for by its fixed pieces
// (between its placeholders; each plural form's) longer than 3 characters,
// as whole words (a code's "_" is part of its word); a piece lang's message keeps (a name, a code) and an
// English text that is also one of lang's messages ("Expire" in French) are
// not English left.
func EnglishLeft(t testing.TB, text, lang string, prefixes ...string) []string {
	t.Helper()
	cats, err := i18n.Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	en, other := cats[i18n.Fallback().Tag], cats[lang]
	if other == nil {
		t.Fatalf("no catalog for %q", lang)
	}
	theirWords := map[string]bool{}
	for _, m := range other {
		theirWords[m.Text] = true
	}
	var left []string
	for _, id := range en.IDs() {
		if !hasPrefix(id, prefixes) {
			continue
		}
		for _, f := range forms(en[id], other[id]) {
			english, theirs := f[0], f[1]
			if english == theirs || theirWords[english] {
				continue
			}
			for _, piece := range placeholder.Split(english, -1) {
				piece = strings.TrimSpace(piece)
				if len([]rune(piece)) <= 3 || strings.Contains(theirs, piece) {
					continue
				}
				if regexp.MustCompile(`(^|[^\pL_])` + regexp.QuoteMeta(piece) + `($|[^\pL_])`).MatchString(text) {
					left = append(left, id+": "+piece)
				}
			}
		}
	}
	sort.Strings(left)
	return slices.Compact(left)
}

// forms pairs each English form of a message (its text, or each plural
// form) with lang's.
func forms(en, theirs i18n.Message) [][2]string {
	if en.Plural == nil {
		return [][2]string{{en.Text, theirs.Text}}
	}
	var out [][2]string
	for f, s := range en.Plural {
		t := theirs.Plural[f]
		if t == "" {
			t = theirs.Plural["other"]
		}
		out = append(out, [2]string{s, t})
	}
	return out
}

func hasPrefix(id string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}
