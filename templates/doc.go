// Package templates holds Markup Room's server-rendered pages, written in
// templ (*.templ, compiled to the committed *_templ.go files by
// `go tool templ generate -path templates`, or `go generate ./templates`, which
// runs the templ version pinned in go.mod through the line below).
//
// Pages receive view-model structs (Page, HomeView, ErrorView, …) and render
// them; they never query anything. The package may import types from package
// models, nothing else of the application. Every page must stay within the
// Content-Security-Policy: no inline <script>, no on…= handler attributes and
// no style="…" attributes; behaviour lives in static/js, looks in static/css (written in web/src/css).
package templates

//go:generate go tool templ generate -path .
