package static

import (
	"bytes"
	"io/fs"
	"net/http"
	"strings"
	"time"
)

// Cache-Control values: hashed URLs never change; anything else must be revalidated.
const (
	cacheImmutable   = "public, max-age=31536000, immutable"
	cacheRevalidate  = "no-cache"
	allowedMethods   = "GET, HEAD"
	notFoundBodyText = "404 page not found"
)

// ServeHTTP serves r.URL.Path, which starts with "/static/": a current hashed
// name is cacheable forever; an unhashed or stale-hashed name gets the current
// bytes with Cache-Control: no-cache; anything else is 404.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", allowedMethods)
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	f, immutable := a.lookup(r.URL.Path)
	if f == nil {
		h := w.Header()
		h.Set("Cache-Control", cacheRevalidate)
		h.Set("X-Content-Type-Options", "nosniff")
		http.Error(w, notFoundBodyText, http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("ETag", f.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	if immutable {
		h.Set("Cache-Control", cacheImmutable)
	} else {
		h.Set("Cache-Control", cacheRevalidate)
	}
	// ServeContent answers If-None-Match with 304, HEAD without a body, and Range.
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(f.content))
}

// lookup resolves a request path to an asset; immutable is true only when the
// path names the asset's current hash.
func (a *Assets) lookup(urlPath string) (f *asset, immutable bool) {
	name, ok := strings.CutPrefix(urlPath, prefix)
	if !ok || !fs.ValidPath(name) || name == "." || strings.Contains(name, `\`) {
		return nil, false // also rejects "..", empty elements and a trailing slash
	}
	if f, ok := a.byHashed[name]; ok {
		return f, true
	}
	if f, ok := a.byName[name]; ok {
		return f, false
	}
	for _, logical := range unhashCandidates(name) {
		if f, ok := a.byName[logical]; ok {
			return f, false // a stale hash, e.g. a page rendered before a deploy
		}
	}
	return nil, false
}
