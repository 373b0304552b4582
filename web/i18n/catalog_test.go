package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// placeholder matches a {name} of a message.
var placeholder = regexp.MustCompile(`\{([a-zA-Z][a-zA-Z0-9_]*)\}`)

func placeholders(s string) map[string]bool {
	out := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		out[m[1]] = true
	}
	return out
}

// texts lists a message's texts (one, or one per plural form).
func texts(m Message) []string {
	if m.Plural == nil {
		return []string{m.Text}
	}
	out := make([]string, 0, len(m.Plural))
	for _, s := range m.Plural {
		out = append(out, s)
	}
	return out
}

// categories lists the plural categories a language's whole numbers fall in.
func categories(l Language) map[string]bool {
	loc := New(l)
	out := map[string]bool{}
	for n := 0; n <= 1000; n++ {
		out[loc.PluralCategory(n)] = true
	}
	return out
}

// TestCatalogsMatchEnglish: every catalog has exactly English's ids, the same
// {placeholders} ({count} may be left out of a plural form, as Arabic's
// "one" does), and a plural message the forms its language's numbers use.
func TestCatalogsMatchEnglish(t *testing.T) {
	all, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	en := all[Fallback().Tag]
	if len(en) == 0 {
		t.Fatal("the English catalog is empty")
	}
	for _, l := range Languages {
		c := all[l.Tag]
		forms := categories(l)
		for _, id := range en.IDs() {
			m, ok := c[id]
			if !ok {
				t.Errorf("%s lacks %q", l.Tag, id)
				continue
			}
			want := map[string]bool{}
			for _, s := range texts(en[id]) {
				for p := range placeholders(s) {
					want[p] = true
				}
			}
			if (m.Plural == nil) != (en[id].Plural == nil) {
				t.Errorf("%s %q: plural in one catalog and not the other", l.Tag, id)
				continue
			}
			for _, s := range texts(m) {
				if strings.TrimSpace(s) == "" {
					t.Errorf("%s %q is empty", l.Tag, id)
				}
				got := placeholders(s)
				for p := range got {
					if !want[p] {
						t.Errorf("%s %q: {%s} is not a placeholder of English's message", l.Tag, id, p)
					}
				}
				for p := range want {
					if !got[p] && !(m.Plural != nil && p == "count") {
						t.Errorf("%s %q: {%s} is missing from %q", l.Tag, id, p, s)
					}
				}
			}
			if m.Plural != nil {
				for f := range forms {
					if _, ok := m.Plural[f]; !ok {
						t.Errorf("%s %q lacks the plural form %q", l.Tag, id, f)
					}
				}
				for f := range m.Plural {
					if !forms[f] {
						t.Errorf("%s %q has the plural form %q, which %s does not use", l.Tag, id, f, l.Tag)
					}
				}
			}
		}
		for _, id := range c.IDs() {
			if _, ok := en[id]; !ok {
				t.Errorf("%s has %q, which English lacks", l.Tag, id)
			}
		}
	}
}

// sourceFiles are the files that may name a message id.
func sourceFiles(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	out := map[string]string{}
	for _, dir := range []string{"cmd", "handlers", "models", "templates", "web/src", "web/i18n", "static/js"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if name == "node_modules" || name == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") || p == filepath.Join(root, "static/js/editor.js") {
				return nil
			}
			switch filepath.Ext(name) {
			case ".go", ".templ", ".mjs", ".js":
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				out[p] = string(b)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// idCall finds a message id handed to a translating call: t(ctx, "id"),
// T("id"), i18n.T(ctx, "id"), tr("id"), t("id") in scripts.
var idCall = regexp.MustCompile(`\b(?:t|T|tr|msg)\((?:ctx,\s*)?["'` + "`" + `]([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["'` + "`" + `]`)

// TestEveryMessageIsUsed: each English id appears as a quoted literal in
// the source (ids are never built from parts, so this finds them all), and
// each id a translating call names is in the catalog.
func TestEveryMessageIsUsed(t *testing.T) {
	all, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	en := all[Fallback().Tag]
	src := sourceFiles(t)
	var unused []string
	for _, id := range en.IDs() {
		found := false
		for _, body := range src {
			if strings.Contains(body, `"`+id+`"`) || strings.Contains(body, `'`+id+`'`) || strings.Contains(body, "`"+id+"`") {
				found = true
				break
			}
		}
		if !found {
			unused = append(unused, id)
		}
	}
	if len(unused) > 0 {
		t.Errorf("%d messages nobody uses: %s", len(unused), strings.Join(unused, ", "))
	}
	var unknown []string
	for p, body := range src {
		for _, m := range idCall.FindAllStringSubmatch(body, -1) {
			if _, ok := en[m[1]]; !ok {
				unknown = append(unknown, m[1]+" ("+p+")")
			}
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("ids used but not in the English catalog: %s", strings.Join(unknown, ", "))
	}
}

func TestPseudoWrapsAndLengthens(t *testing.T) {
	all, err := Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	en, ps := all[Fallback().Tag], all[Pseudo.Tag]
	for _, id := range en.IDs() {
		for form, s := range map[string]string{"": en[id].Text, "other": en[id].Plural["other"]} {
			p := ps[id].Text
			if form != "" {
				p = ps[id].Plural[form]
			}
			if s == "" {
				continue
			}
			if !strings.HasPrefix(p, PseudoOpen) || !strings.HasSuffix(p, PseudoClose) {
				t.Errorf("%q: pseudo %q is not wrapped", id, p)
			}
			if utf8.RuneCountInString(p) < utf8.RuneCountInString(s)*14/10 {
				t.Errorf("%q: pseudo %q is not 40 %% longer than %q", id, p, s)
			}
			for ph := range placeholders(s) {
				if !strings.Contains(p, "{"+ph+"}") {
					t.Errorf("%q: pseudo %q lost {%s}", id, p, ph)
				}
			}
		}
	}
}
