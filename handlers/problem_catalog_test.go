package handlers

import (
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// problemMessage is one message a problem is made of, as the source names
// it: its catalog id and the names of its arguments.
type problemMessage struct {
	id   string
	args []string
	at   string
}

// messageCalls are the calls that take a message's id and then its
// arguments, by the index of the id: models.Problems.Add and Err,
// models.Invalid, Unprocessable, NotFoundAt, models.Msg and errStatus.
var messageCalls = map[string]int{
	"Add": 2, "Err": 1, "Invalid": 2, "Unprocessable": 2, "NotFoundAt": 2, "Msg": 0, "errStatus": 1,
}

// problemMessagesInSource finds every message the models and handlers hand
// out (ids are written whole: docs/i18n.md).
func problemMessagesInSource(t *testing.T) []problemMessage {
	t.Helper()
	var out []problemMessage
	fset, files := productSource(t)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var fn string
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				fn = f.Sel.Name
			case *ast.Ident:
				fn = f.Name
			}
			idx, ok := messageCalls[fn]
			if !ok || len(call.Args) <= idx {
				return true
			}
			lit, ok := call.Args[idx].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			id, err := strconv.Unquote(lit.Value)
			if err == nil && strings.Contains(id, " ") {
				// A sentence where a message id belongs: words made
				// in English outside the catalogs (docs/words.md).
				out = append(out, problemMessage{id: id, at: fset.Position(lit.Pos()).String()})
				return true
			}
			if err != nil || !strings.Contains(id, ".") {
				return true // not an id (another package's Add)
			}
			m := problemMessage{id: id, at: fset.Position(lit.Pos()).String()}
			for i := idx + 1; i+1 < len(call.Args); i += 2 {
				if a, ok := call.Args[i].(*ast.BasicLit); ok && a.Kind == token.STRING {
					name, _ := strconv.Unquote(a.Value)
					m.args = append(m.args, name)
				}
			}
			out = append(out, m)
			return true
		})
	}
	return out
}

var placeholderRE = regexp.MustCompile(`\{([a-zA-Z][a-zA-Z0-9_]*)\}`)

// TestEveryProblemMessageSpeaksEveryLanguage: every message a refusal is
// made of is in the catalogs, names the arguments its call gives, and
// rendered with sample arguments in each of the five languages keeps every
// argument (a page number, a limit, a field's name) and leaves no
// placeholder unfilled; in English it is a sentence (docs/words.md).
func TestEveryProblemMessageSpeaksEveryLanguage(t *testing.T) {
	t.Parallel()
	msgs := problemMessagesInSource(t)
	if len(msgs) < 150 {
		t.Fatalf("found only %d messages: the source scan is broken", len(msgs))
	}
	all, err := i18n.Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	en := all[i18n.Fallback().Tag]
	for _, m := range msgs {
		msg, ok := en[m.id]
		if !ok {
			t.Errorf("%s: %q is not in the English catalog", m.at, m.id)
			continue
		}
		texts := []string{msg.Text}
		if msg.Plural != nil {
			texts = []string{msg.Plural["other"]}
		}
		want := map[string]bool{}
		for _, p := range placeholderRE.FindAllStringSubmatch(texts[0], -1) {
			want[p[1]] = true
		}
		got := map[string]bool{}
		args := []any{}
		for i, name := range m.args {
			got[name] = true
			if name == "count" {
				args = append(args, name, 7)
				continue
			}
			args = append(args, name, models.Quoted("arg"+strconv.Itoa(i)+"·"+name))
		}
		for name := range want {
			if !got[name] {
				t.Errorf("%s: %s says {%s}, which the call does not give", m.at, m.id, name)
			}
		}
		// A plural message may take its count only to pick its form.
		formOnly := msg.Plural != nil && !want["count"]
		for name := range got {
			if !want[name] && (name != "count" || !formOnly) {
				t.Errorf("%s: the call gives %s the argument %q, which its English text does not say", m.at, m.id, name)
			}
		}
		for _, lang := range i18n.Languages {
			out := say(i18n.New(lang), models.Msg(m.id, args...))
			if placeholderRE.MatchString(out) {
				t.Errorf("%s: %s in %s leaves a placeholder: %q", m.at, m.id, lang.Tag, out)
			}
			for i := 1; i < len(args); i += 2 {
				name := args[i-1].(string)
				if name == "count" {
					if !formOnly && !strings.Contains(out, "7") {
						t.Errorf("%s: %s in %s loses its count: %q", m.at, m.id, lang.Tag, out)
					}
					continue
				}
				if v := strconv.Quote(string(args[i].(models.Quoted))); !strings.Contains(out, v) {
					t.Errorf("%s: %s in %s loses the argument %s: %q", m.at, m.id, lang.Tag, name, out)
				}
			}
			if lang.Tag == i18n.Fallback().Tag && (out == m.id || strings.TrimSpace(out) == "") {
				t.Errorf("%s: %s has no English words", m.at, m.id)
			}
		}
	}
}

// TestARefusalKeepsItsPageInEveryLanguage: a refusal with arguments keeps
// them in every language ("La página 5 no existe" keeps its 5), while its
// code and pointer stay what they are.
func TestARefusalKeepsItsPageInEveryLanguage(t *testing.T) {
	t.Parallel()
	err := models.Unprocessable("#/documents/0/tags/3/page", "page_out_of_range", "problem.doc.page_out_of_range", "pages", 3, "page", 5)
	seen := map[string]bool{}
	for _, lang := range i18n.Languages {
		p := problemIn(i18n.New(lang), err)
		if p.Status != 422 || len(p.Errors) != 1 || p.Errors[0].Code != "page_out_of_range" || p.Errors[0].Pointer != "#/documents/0/tags/3/page" {
			t.Fatalf("%s: %+v", lang.Tag, p)
		}
		d := p.Errors[0].Detail
		if !strings.Contains(d, "5") || !strings.Contains(d, "3") || p.Detail != d {
			t.Errorf("%s: the detail %q lost the page (5) or the count (3)", lang.Tag, d)
		}
		if seen[d] {
			t.Errorf("%s: the detail %q is another language's", lang.Tag, d)
		}
		seen[d] = true
	}
	if en := problemFromError(err); en.Detail != "The document has 3 pages; page 5 does not exist." {
		t.Errorf("English detail = %q", en.Detail)
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("%s", strings.Join(keys, "\n"))
}
