package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the product may be, from its
// func line to its closing brace (issue #27): past that, it is cut where its
// comments already divide it.
const maxFuncLines = 100

// longFuncsAllowed are the functions that may be longer because they read as
// a table: the route registrations, the configuration's variables, the
// content interpreter's operator switch.
var longFuncsAllowed = []string{
	"cmd/markuproom/config.go:loadConfig",
	"handlers/router.go:New",
	"models/pdf/content/interp.go:do",
}

// TestNoLongFunctions walks the module's Go files (tests and generated
// files aside; tools such as cmd/loadbench and models/pdf/pdftest included)
// and fails on a function longer than maxFuncLines that is not in
// longFuncsAllowed, and on an allowed one that has become short (its entry
// goes).
func TestNoLongFunctions(t *testing.T) {
	root := filepath.Join("..", "..")
	long, err := longFuncs(root, maxFuncLines)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range long {
		seen[f.name] = true
		if !slices.Contains(longFuncsAllowed, f.name) {
			t.Errorf("%s is %d lines long; cut it to at most %d where its comments divide it (or, when it reads as a table, add it to longFuncsAllowed)", f.name, f.lines, maxFuncLines)
		}
	}
	for _, name := range longFuncsAllowed {
		if !seen[name] {
			t.Errorf("%s is no longer over %d lines: remove it from longFuncsAllowed", name, maxFuncLines)
		}
	}
}

// longFunc is a function over the limit: file:name, as the module's path
// with slashes, and its length in lines.
type longFunc struct {
	name  string
	lines int
}

// longFuncs lists the functions and methods of the Go files under root
// that are longer than limit lines. It skips hidden directories,
// node_modules and testdata, tests and generated files.
func longFuncs(root string, limit int) ([]longFunc, error) {
	var out []longFunc
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if lines > limit {
				out = append(out, longFunc{name: fmt.Sprintf("%s:%s", filepath.ToSlash(rel), fn.Name.Name), lines: lines})
			}
		}
		return nil
	})
	return out, err
}
