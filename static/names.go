package static

import (
	"path"
	"strings"
)

// hashedName splices hash in front of the last extension:
// "css/app.css" → "css/app.<hash>.css"; "vendor/htmx/LICENSE" → "vendor/htmx/LICENSE.<hash>".
func hashedName(name, hash string) string {
	dir, file := path.Split(name)
	if i := strings.LastIndexByte(file, '.'); i > 0 {
		return dir + file[:i] + "." + hash + file[i:]
	}
	return name + "." + hash
}

// unhashCandidates returns the logical names a requested name could stand for
// if one of its segments is a (possibly stale) hash, in both shapes
// hashedName produces: "app.<hash>.css" → "app.css", "LICENSE.<hash>" → "LICENSE".
func unhashCandidates(name string) []string {
	dir, file := path.Split(name)
	parts := strings.Split(file, ".")
	n := len(parts)
	if n < 2 || parts[0] == "" {
		return nil
	}
	var out []string
	if n >= 3 && isHash(parts[n-2]) {
		out = append(out, dir+strings.Join(parts[:n-2], ".")+"."+parts[n-1])
	}
	if isHash(parts[n-1]) {
		out = append(out, dir+strings.Join(parts[:n-1], "."))
	}
	return out
}

// isHash reports whether s looks like a content hash: hashLen lowercase hex digits.
func isHash(s string) bool {
	if len(s) != hashLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
