package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// wordingMethods are the Localizer's methods that make words.
var wordingMethods = map[string]bool{
	"T": true, "Say": true, "Date": true, "Time": true, "DateTime": true, "Number": true,
	"Decimal": true, "Month": true, "PluralCategory": true,
}

// problemWriterFiles are the problem writer (docs/words.md): it words a
// refusal, a detection problem and a finding in the reader's language, and
// the API's English detail; api_words.go is the API's one other English
// sentence (the default invitation subject its JSON reads back).
var problemWriterFiles = map[string]bool{
	"problem.go": true, "problem_words.go": true, "detect_words.go": true, "api_words.go": true,
}

// TestHandlersMakeNoWords (docs/words.md, issue 39 item 8): no handler
// file outside the problem writer calls a Localizer's wording method
// (T, Say, Date, DateTime, Number, …) or i18n.T; handlers fill view models
// with codes, ids, numbers, time.Time and i18n.Words, and the templ views
// word them in the request's language.
func TestHandlersMakeNoWords(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") || problemWriterFiles[p] {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, pos := range wordingCalls(f) {
			t.Errorf("%s: a handler makes words with the Localizer: put codes, ids, times or i18n.Words in the view model and word them in the view", fset.Position(pos))
		}
	}
	if checked < 50 {
		t.Fatalf("only %d handler files read: the test looks in the wrong place", checked)
	}
}

// wordingCalls finds f's calls of a wording method on a Localizer (a
// variable or parameter of type *i18n.Localizer, or i18n.From(…),
// i18n.English(), i18n.New(…) called in place) and of i18n.T.
func wordingCalls(f *ast.File) []token.Pos {
	localizers := map[string]bool{}
	isLocalizerType := func(e ast.Expr) bool {
		star, ok := e.(*ast.StarExpr)
		if !ok {
			return false
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		return ok && isIdent(sel.X, "i18n") && sel.Sel.Name == "Localizer"
	}
	isLocalizerCall := func(e ast.Expr) bool {
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		return ok && isIdent(sel.X, "i18n") && (sel.Sel.Name == "From" || sel.Sel.Name == "English" || sel.Sel.Name == "New")
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isLocalizerType(n.Type) {
				for _, name := range n.Names {
					localizers[name.Name] = true
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil && isLocalizerType(n.Type) {
				for _, name := range n.Names {
					localizers[name.Name] = true
				}
			}
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if i < len(n.Lhs) && isLocalizerCall(rhs) {
					if id, ok := n.Lhs[i].(*ast.Ident); ok {
						localizers[id.Name] = true
					}
				}
			}
		}
		return true
	})
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !wordingMethods[sel.Sel.Name] {
			return true
		}
		id, isID := sel.X.(*ast.Ident)
		switch {
		case isID && id.Name == "i18n" && sel.Sel.Name == "T",
			isID && localizers[id.Name],
			isLocalizerCall(sel.X):
			out = append(out, call.Pos())
		}
		return true
	})
	return out
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
