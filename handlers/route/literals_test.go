package route_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// pathPrefixes are the beginnings of the server's own paths that only the
// route table may write.
var pathPrefixes = regexp.MustCompile(`^/(admin|rooms|api/v1|markup-room)([/?#]|$)`)

// generated matches Go's marker of generated code, which nobody edits by hand.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// templAttr finds a quoted path in templ markup: action="/admin/…", '/rooms/…'.
var templAttr = regexp.MustCompile("[\"'`](/(?:admin|rooms|api/v1|markup-room)(?:[/?#][^\"'`]*)?)[\"'`]")

// goLiterals lists the string literals of one Go source that begin with a
// server path.
func goLiterals(t *testing.T, name string, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && pathPrefixes.MatchString(s) {
			found = append(found, s)
		}
		return true
	})
	return found
}

// TestPathsComeFromTheRouteTable fails on a string literal beginning with
// /admin, /rooms, /api/v1 or /markup-room in the handlers or the templates
// outside this package: URLs are built with Route.Path. Tests are exempt
// (they call the server as a client does), and so are generated *_templ.go
// files, whose .templ sources are checked instead.
func TestPathsComeFromTheRouteTable(t *testing.T) {
	var offenders []string
	for _, root := range []string{"..", filepath.Join("..", "..", "templates")} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "route" || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			name := d.Name()
			if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") {
				return nil
			}
			switch filepath.Ext(name) {
			case ".go":
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				if generated.Match(src) {
					return nil // e.g. handlers/apispec/apiclient, a client generated from the OpenAPI document
				}
				for _, s := range goLiterals(t, path, src) {
					offenders = append(offenders, path+": "+strconv.Quote(s))
				}
			case ".templ":
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				for _, m := range templAttr.FindAllStringSubmatch(string(src), -1) {
					offenders = append(offenders, path+": "+strconv.Quote(m[1]))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range offenders {
		t.Errorf("a path written outside the route table (build it with route.X.Path): %s", o)
	}
}

// TestTheLiteralCheckSeesPaths shows the check above finds what it looks for.
func TestTheLiteralCheckSeesPaths(t *testing.T) {
	src := []byte("package x\nvar a = \"/rooms/\" + id\nvar b = `/admin/login`\nvar c = \"/roomsy\"\nvar d = \"/static/app.css\"\n")
	if got := goLiterals(t, "x.go", src); len(got) != 2 || got[0] != "/rooms/" || got[1] != "/admin/login" {
		t.Errorf("goLiterals = %q, want the two server paths", got)
	}
	templ := `<form action="/admin/login"><a href='/rooms/x'>x</a><a href="/static/x">`
	if got := templAttr.FindAllStringSubmatch(templ, -1); len(got) != 2 {
		t.Errorf("templ check found %d paths, want 2", len(got))
	}
}
