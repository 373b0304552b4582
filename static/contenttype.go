package static

import (
	"path"
	"strings"
)

// contentType returns the Content-Type for an embedded file name. The table
// is fixed here rather than read from the host's mime.types so every machine
// agrees. Files without an extension (LICENSE, NOTICE) are plain text;
// unknown extensions are opaque bytes, which with nosniff browsers never run.
func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case "", ".txt", ".md", ".ftl":
		return "text/plain; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".map", ".json":
		return "application/json; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".avif":
		return "image/avif"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	case ".woff":
		return "font/woff"
	case ".ttf":
		return "font/ttf"
	case ".otf":
		return "font/otf"
	case ".wasm":
		return "application/wasm"
	case ".pdf":
		return "application/pdf"
	default:
		return "application/octet-stream"
	}
}
