// Package static embeds Markup Room's CSS, JavaScript, images and vendored
// front-end libraries, and serves them under content-hashed URLs.
//
// Templates ask for a logical name ("css/app.css") and get a URL that changes
// whenever the file's bytes change ("/static/css/app.3f2a1b9c0d.css"), so the
// server can tell browsers to cache every hashed URL forever.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"
)

// files holds everything served under /static/; dot-files are not embedded.
// embed.js is the script a caller's page loads to embed a room (README,
// "Embedding a room"), at a stable address: /static/embed.js.
//
//go:embed css img js vendor embed.js
var files embed.FS

// prefix is the URL path under which the router mounts Assets.
const prefix = "/static/"

// hashLen is how many hex characters of the SHA-256 digest go into a URL.
const hashLen = 10

// Assets serves the embedded static files under content-hashed URLs.
type Assets struct {
	byName   map[string]*asset // logical name, e.g. "css/app.css"
	byHashed map[string]*asset // hashed name, e.g. "css/app.3f2a1b9c0d.css"
}

// asset is one embedded file, read and hashed once at start-up.
type asset struct {
	name        string // logical name, slash-separated, relative to static/
	hashed      string // name with the content hash spliced in
	hash        string // first hashLen hex characters of the SHA-256 of content
	etag        string // strong ETag derived from the full digest
	contentType string
	content     []byte
}

// New reads and hashes every embedded file; call it once at start-up.
func New() (*Assets, error) {
	return newFromFS(files)
}

// newFromFS builds Assets from any file system, so tests can use fstest.MapFS.
func newFromFS(fsys fs.FS) (*Assets, error) {
	a := &Assets{byName: map[string]*asset{}, byHashed: map[string]*asset{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		content, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(content)
		digest := hex.EncodeToString(sum[:])
		f := &asset{
			name:        name,
			hash:        digest[:hashLen],
			etag:        `"` + digest[:32] + `"`,
			contentType: contentType(name),
			content:     content,
		}
		f.hashed = hashedName(name, f.hash)
		a.byName[name] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static: read embedded files: %w", err)
	}
	for _, f := range a.byName {
		if other, ok := a.byName[f.hashed]; ok {
			return nil, fmt.Errorf("static: %s collides with the hashed name of %s", other.name, f.name)
		}
		a.byHashed[f.hashed] = f
	}
	return a, nil
}

// URL returns the content-hashed URL of a logical name such as "css/app.css";
// an unknown name yields its unhashed URL, which Has lets tests catch.
func (a *Assets) URL(name string) string {
	if f, ok := a.byName[name]; ok {
		return prefix + f.hashed
	}
	return prefix + name
}

// Has reports whether name (e.g. "js/app.js") is an embedded file.
func (a *Assets) Has(name string) bool {
	_, ok := a.byName[name]
	return ok
}

// Names lists every embedded file's logical name, sorted.
func (a *Assets) Names() []string {
	names := make([]string, 0, len(a.byName))
	for name := range a.byName {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
