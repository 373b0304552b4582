package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/markuproom/markuproom/web/i18n"
)

// englishWords are the English catalog's messages (every plural form), as
// the people reading the product see them: a phrase, or a word written for
// people (capitalised); a lone lower-case word ("completed", "type") is
// also a code, which programs compare.
func englishWords(t *testing.T) map[string]string {
	t.Helper()
	all, err := i18n.Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for id, m := range all[i18n.Fallback().Tag] {
		texts := []string{m.Text}
		for _, f := range m.Plural {
			texts = append(texts, f)
		}
		for _, s := range texts {
			s = strings.TrimSpace(s)
			if s == "" || strings.Contains(s, "{") {
				continue
			}
			if strings.Contains(s, " ") || unicode.IsUpper([]rune(s)[0]) {
				out[s] = id
			}
		}
	}
	return out
}

// TestNoCodeComparesWithAnEnglishWord (docs/words.md): no Go file outside
// the catalogs and the views chooses what to do by comparing a string with
// an English word people read — an ==, a switch case or a map key holding a
// whole English message — as the outbox's, the actors' and the problems'
// English-to-id tables did. Models and handlers pass codes and ids; the
// views and the problem writer make the words.
func TestNoCodeComparesWithAnEnglishWord(t *testing.T) {
	t.Parallel()
	words := englishWords(t)
	if len(words) < 500 {
		t.Fatalf("only %d English messages: the catalog read is broken", len(words))
	}
	// Literals that are data as well as words: codes and names a program
	// compares, which the catalog also shows as they are.
	allowed := map[string]bool{
		"Pages": true, "Version": true, // PDF dictionary keys (models/pdf)
	}
	root := ".."
	fset := token.NewFileSet()
	files := 0
	for _, dir := range []string{"models", "handlers", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" || d.Name() == "apispec" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			files++
			check := func(e ast.Expr, how string) {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || allowed[s] {
					return
				}
				if id, ok := words[strings.TrimSpace(s)]; ok {
					t.Errorf("%s: %s the English words %q (%s): pass a code or an id instead", fset.Position(lit.Pos()), how, s, id)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					if n.Op == token.EQL || n.Op == token.NEQ {
						check(n.X, "compares with")
						check(n.Y, "compares with")
					}
				case *ast.CaseClause:
					for _, e := range n.List {
						check(e, "switches on")
					}
				case *ast.CompositeLit:
					if _, ok := n.Type.(*ast.MapType); ok {
						for _, el := range n.Elts {
							if kv, ok := el.(*ast.KeyValueExpr); ok {
								check(kv.Key, "looks up by")
							}
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 200 {
		t.Fatalf("only %d Go files scanned: the walk is broken", files)
	}
}
