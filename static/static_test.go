package static

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func newAssets(t *testing.T) *Assets {
	t.Helper()
	a, err := New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return a
}

// diskHash is the hash the URL must carry for a file in this directory.
func diskHash(t *testing.T, name string) (string, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(name))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:hashLen], b
}

func get(t *testing.T, a *Assets, method, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, "http://example.com/", nil)
	req.URL.Path = target // set directly so paths such as "/static/../x" reach the handler unchanged
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, req)
	return rec
}

func TestURLFormat(t *testing.T) {
	a := newAssets(t)
	for _, tc := range []struct{ name, pattern string }{
		{"css/app.css", `^/static/css/app\.([0-9a-f]{10})\.css$`},
		{"js/app.js", `^/static/js/app\.([0-9a-f]{10})\.js$`},
		{"vendor/htmx/htmx.min.js", `^/static/vendor/htmx/htmx\.min\.([0-9a-f]{10})\.js$`},
		{"vendor/htmx/LICENSE", `^/static/vendor/htmx/LICENSE\.([0-9a-f]{10})$`},
		{"img/logo.svg", `^/static/img/logo\.([0-9a-f]{10})\.svg$`},
	} {
		if !a.Has(tc.name) {
			t.Errorf("Has(%q) = false", tc.name)
			continue
		}
		u := a.URL(tc.name)
		m := regexp.MustCompile(tc.pattern).FindStringSubmatch(u)
		if m == nil {
			t.Errorf("URL(%q) = %q, want match for %s", tc.name, u, tc.pattern)
			continue
		}
		if want, _ := diskHash(t, tc.name); m[1] != want {
			t.Errorf("URL(%q) carries hash %s, want the content hash %s", tc.name, m[1], want)
		}
	}
}

func TestURLIsStable(t *testing.T) {
	a, b := newAssets(t), newAssets(t)
	for _, name := range a.Names() {
		first, again, other := a.URL(name), a.URL(name), b.URL(name)
		if first != again || first != other {
			t.Errorf("URL(%q) is not stable: %q, then %q, another instance %q", name, first, again, other)
		}
	}
}

func TestUnknownName(t *testing.T) {
	a := newAssets(t)
	if a.Has("css/missing.css") {
		t.Error(`Has("css/missing.css") = true`)
	}
	if got := a.URL("css/missing.css"); got != "/static/css/missing.css" {
		t.Errorf("URL of unknown name = %q, want the unhashed path", got)
	}
	if a.Has("css") || a.Has("") {
		t.Error("Has is true for a directory or the empty name")
	}
}

// TestEmbedsEveryFile guards against go:embed silently skipping files
// (names starting with "_" are left out) or a directory missing from the directive.
func TestEmbedsEveryFile(t *testing.T) {
	a := newAssets(t)
	var onDisk []string
	for _, dir := range []string{"css", "img", "js", "vendor"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				onDisk = append(onDisk, filepath.ToSlash(p))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	onDisk = append(onDisk, "embed.js")
	slices.Sort(onDisk)
	if got := a.Names(); !slices.Equal(got, onDisk) {
		t.Errorf("embedded files differ from the files on disk:\n embedded %q\n on disk  %q", got, onDisk)
	}
}

func TestEveryVendorFileHasAHashedURL(t *testing.T) {
	a := newAssets(t)
	var n int
	err := filepath.WalkDir("vendor", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		n++
		name := filepath.ToSlash(p)
		hash, content := diskHash(t, name)
		u := a.URL(name)
		if u != "/static/"+hashedName(name, hash) {
			t.Errorf("URL(%q) = %q, want the hashed %q", name, u, "/static/"+hashedName(name, hash))
			return nil
		}
		rec := get(t, a, http.MethodGet, u)
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != cacheImmutable || rec.Body.String() != string(content) {
			t.Errorf("GET %s = %d, Cache-Control %q, %d bytes", u, rec.Code, rec.Header().Get("Cache-Control"), rec.Body.Len())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("static/vendor is empty: run `npm ci && npm run vendor`")
	}
}

func TestServeHashed(t *testing.T) {
	a := newAssets(t)
	_, content := diskHash(t, "css/app.css")
	rec := get(t, a, http.MethodGet, a.URL("css/app.css"))
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	h := rec.Header()
	for k, want := range map[string]string{
		"Cache-Control":          "public, max-age=31536000, immutable",
		"Content-Type":           "text/css; charset=utf-8",
		"X-Content-Type-Options": "nosniff",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if etag := h.Get("ETag"); !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(etag) {
		t.Errorf("ETag = %q", etag)
	}
	if rec.Body.String() != string(content) {
		t.Error("body differs from css/app.css")
	}
}

func TestServeUnhashedAndStale(t *testing.T) {
	a := newAssets(t)
	_, content := diskHash(t, "js/app.js")
	stale := "/static/" + hashedName("js/app.js", "0000000000")
	if stale == a.URL("js/app.js") {
		t.Fatal("the stale URL happens to be current")
	}
	for _, target := range []string{"/static/js/app.js", stale, "/static/" + hashedName("vendor/htmx/LICENSE", "abcdef0123")} {
		rec := get(t, a, http.MethodGet, target)
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: status %d", target, rec.Code)
			continue
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control = %q, want no-cache", target, got)
		}
		if rec.Header().Get("ETag") == "" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: missing ETag or nosniff: %v", target, rec.Header())
		}
	}
	if rec := get(t, a, http.MethodGet, stale); rec.Body.String() != string(content) {
		t.Error("a stale hash does not serve the current content")
	}
}

func TestIfNoneMatch(t *testing.T) {
	a := newAssets(t)
	for _, target := range []string{a.URL("css/app.css"), "/static/css/app.css"} {
		first := get(t, a, http.MethodGet, target)
		etag := first.Header().Get("ETag")
		rec := get(t, a, http.MethodGet, target, "If-None-Match", etag)
		if rec.Code != http.StatusNotModified {
			t.Errorf("GET %s with If-None-Match %s: status %d, want 304", target, etag, rec.Code)
		}
		if rec.Body.Len() != 0 {
			t.Errorf("304 has a body of %d bytes", rec.Body.Len())
		}
		if rec := get(t, a, http.MethodGet, target, "If-None-Match", `"other"`); rec.Code != http.StatusOK {
			t.Errorf("GET %s with a different ETag: status %d, want 200", target, rec.Code)
		}
	}
}

func TestHead(t *testing.T) {
	a := newAssets(t)
	_, content := diskHash(t, "js/app.js")
	rec := get(t, a, http.MethodHead, a.URL("js/app.js"))
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Fatalf("HEAD: status %d, %d body bytes", rec.Code, rec.Body.Len())
	}
	if got, want := rec.Header().Get("Content-Length"), strconv.Itoa(len(content)); got != want {
		t.Errorf("Content-Length = %q, want %s", got, want)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	a := newAssets(t)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions} {
		rec := get(t, a, m, a.URL("css/app.css"))
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: status %d, Allow %q", m, rec.Code, rec.Header().Get("Allow"))
		}
	}
}

func TestNotFound(t *testing.T) {
	a := newAssets(t)
	for _, target := range []string{
		"/static/",
		"/static",
		"/static/css",
		"/static/css/",
		"/static/vendor/htmx",
		"/static/css/missing.css",
		"/static/css/app.zzzzzzzzzz.css",
		"/static/css/app.0000000000.js",
		"/static/../static.go",
		"/static/css/../static.go",
		"/static/css/../css/app.css",
		"/static/./css/app.css",
		"/static//css/app.css",
		"/static/css//app.css",
		`/static/css\app.css`,
		"/static/static.go",
		"/static/static_test.go",
		"/assets/css/app.css",
		"/css/app.css",
	} {
		rec := get(t, a, http.MethodGet, target)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %q: status %d, want 404", target, rec.Code)
		}
		if strings.Contains(rec.Body.String(), "{") {
			t.Errorf("GET %q: 404 body looks like file content", target)
		}
	}
}

func TestContentTypes(t *testing.T) {
	a := newAssets(t)
	for name, want := range map[string]string{
		"css/app.css":             "text/css; charset=utf-8",
		"js/app.js":               "text/javascript; charset=utf-8",
		"vendor/htmx/htmx.min.js": "text/javascript; charset=utf-8",
		"vendor/htmx/LICENSE":     "text/plain; charset=utf-8",
		"img/logo.svg":            "image/svg+xml",
	} {
		if got := get(t, a, http.MethodGet, a.URL(name)).Header().Get("Content-Type"); got != want {
			t.Errorf("%s: Content-Type = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]string{
		"a/b.mjs":           "text/javascript; charset=utf-8",
		"a/b.js.map":        "application/json; charset=utf-8",
		"a/b.woff2":         "font/woff2",
		"a/b.WOFF2":         "font/woff2",
		"a/b.svg":           "image/svg+xml",
		"a/b.png":           "image/png",
		"a/b.wasm":          "application/wasm",
		"cmaps/Adobe.bcmap": "application/octet-stream",
		"NOTICE":            "text/plain; charset=utf-8",
		"a/b.html":          "application/octet-stream",
	} {
		if got := contentType(name); got != want {
			t.Errorf("contentType(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestHashedNameRoundTrip(t *testing.T) {
	const h = "0123456789"
	for name, want := range map[string]string{
		"css/app.css":             "css/app." + h + ".css",
		"vendor/htmx/htmx.min.js": "vendor/htmx/htmx.min." + h + ".js",
		"vendor/htmx/LICENSE":     "vendor/htmx/LICENSE." + h,
		"pdf/pdf.worker.min.mjs":  "pdf/pdf.worker.min." + h + ".mjs",
	} {
		got := hashedName(name, h)
		if got != want {
			t.Errorf("hashedName(%q) = %q, want %q", name, got, want)
		}
		if !slices.Contains(unhashCandidates(got), name) {
			t.Errorf("unhashCandidates(%q) = %q, want it to contain %q", got, unhashCandidates(got), name)
		}
	}
	for _, name := range []string{"css/app.css", "LICENSE", ".0123456789", "a/.0123456789.css", "app.0123456789x.css", "app.ABCDEF0123.css"} {
		if c := unhashCandidates(name); len(c) != 0 {
			t.Errorf("unhashCandidates(%q) = %q, want none", name, c)
		}
	}
}

func TestNewFromFS(t *testing.T) {
	a, err := newFromFS(fstest.MapFS{
		"x/NOTICE":      {Data: []byte("n")},
		"x/site.css":    {Data: []byte("body{}")},
		"x/deep/a.b.js": {Data: []byte("1")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Names(); !slices.Equal(got, []string{"x/NOTICE", "x/deep/a.b.js", "x/site.css"}) {
		t.Errorf("Names = %q", got)
	}
	rec := get(t, a, http.MethodGet, a.URL("x/NOTICE"))
	if rec.Code != http.StatusOK || rec.Body.String() != "n" || rec.Header().Get("Cache-Control") != cacheImmutable {
		t.Errorf("GET %s: %d %q %q", a.URL("x/NOTICE"), rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"))
	}

	// A file whose name is another file's hashed name would make URLs ambiguous.
	sum := sha256.Sum256([]byte("body{}"))
	clash := hashedName("site.css", hex.EncodeToString(sum[:])[:hashLen])
	if _, err := newFromFS(fstest.MapFS{"site.css": {Data: []byte("body{}")}, clash: {Data: []byte("x")}}); err == nil {
		t.Error("newFromFS accepted a file named like another file's hashed URL")
	}
}
