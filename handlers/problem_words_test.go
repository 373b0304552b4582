package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/web/i18n"
)

// problemCodesInSource collects every problem code literal the models and
// handlers packages hand out: the code argument of Problems.Add, Invalid,
// Unprocessable and NotFoundAt, a FieldError{Code: …} literal, and the code
// result of the functions that return (code, detail) pairs.
func problemCodesInSource(t *testing.T) map[string]string {
	t.Helper()
	codes := map[string]string{}
	fset, files := productSource(t)
	// A code may be a named constant (models.CodeBidiControl): its value.
	consts := map[string]*ast.BasicLit{}
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
								consts[name.Name] = lit
							}
						}
					}
				}
			}
		}
	}
	// add records the code e is; resolve looks a named constant up (not
	// in a literal whose type is elided, which may be another Code).
	add := func(e ast.Expr, resolve bool) {
		switch x := e.(type) {
		case *ast.Ident:
			if resolve {
				e = consts[x.Name]
			}
		case *ast.SelectorExpr:
			if resolve {
				e = consts[x.Sel.Name]
			}
		}
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit == nil || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err == nil && s != "" {
			codes[s] = fset.Position(lit.Pos()).String()
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				var fn string
				switch f := n.Fun.(type) {
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				case *ast.Ident:
					fn = f.Name
				}
				switch fn {
				case "Add", "Invalid", "Unprocessable", "NotFoundAt", "AddMessage":
					if len(n.Args) >= 3 {
						add(n.Args[1], true)
					}
				case "Refusal":
					if len(n.Args) >= 4 {
						add(n.Args[2], true)
					}
				}
			case *ast.CompositeLit:
				if !isFieldErrorType(n.Type) {
					return true
				}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Code" {
							add(kv.Value, n.Type != nil)
						}
					}
				}
			case *ast.FuncDecl:
				idx := codeResult(n)
				if idx < 0 || n.Body == nil {
					return true
				}
				ast.Inspect(n.Body, func(m ast.Node) bool {
					if _, ok := m.(*ast.FuncLit); ok {
						return false
					}
					if r, ok := m.(*ast.ReturnStmt); ok && len(r.Results) > idx {
						add(r.Results[idx], true)
					}
					return true
				})
			}
			return true
		})
	}
	return codes
}

// isFieldErrorType tells whether a composite literal's type is FieldError
// (models.FieldError, or a []FieldError's element, whose type is elided).
func isFieldErrorType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "FieldError"
	case *ast.SelectorExpr:
		return e.Sel.Name == "FieldError"
	case nil:
		return true // an element of a []FieldError literal: its Code key tells
	}
	return false
}

// codeResult is the index of a function's result named code, or -1.
func codeResult(fn *ast.FuncDecl) int {
	if fn.Type.Results == nil {
		return -1
	}
	i := 0
	for _, field := range fn.Type.Results.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, name := range field.Names {
			if name.Name == "code" {
				return i
			}
			i++
		}
	}
	return -1
}

// snakeCase is a problem code's form: lower-case words joined by "_".
var snakeCase = regexp.MustCompile(`^[a-z]+(_[a-z0-9]+)*$`)

// TestEveryProblemCodeIsACode: every code the models and handlers hand out
// is a stable snake_case word (programs switch on it; its words come from
// the message beside it, TestEveryProblemMessageSpeaksEveryLanguage), and
// every problem type's English title is its catalog title.
func TestEveryProblemCodeIsACode(t *testing.T) {
	t.Parallel()
	codes := problemCodesInSource(t)
	if len(codes) < 50 {
		t.Fatalf("found only %d codes: the source scan is broken", len(codes))
	}
	for code, at := range codes {
		if !snakeCase.MatchString(code) {
			t.Errorf("code %q (%s) is not snake_case", code, at)
		}
	}
	en := i18n.English()
	for _, pt := range problemTypes() {
		if got := en.T(problemTitleIDs[pt.Slug]); got != pt.Title {
			t.Errorf("%s: English title %q, problemTypes says %q", pt.Slug, got, pt.Title)
		}
	}
}

// productSource parses the product's Go files of models and handlers (not
// their tests), the source the problem tests read.
func productSource(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, dir := range []string{"../models", "."} {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	return fset, files
}
