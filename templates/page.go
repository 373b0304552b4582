package templates

import (
	"context"
	"strings"

	"github.com/a-h/templ"

	"github.com/markuproom/markuproom/web/i18n"
)

// productName is shown in the header and appended to every page title.
const productName = "Markup Room"

// AssetURLs turns a logical static file name such as "css/app.css" into the
// URL a page links to; *static.Assets satisfies it.
type AssetURLs interface {
	URL(name string) string
}

// Page is the view model every full page shares.
type Page struct {
	// Title is shown as "<Title> · Markup Room"; none shows "Markup Room".
	Title i18n.Words
	// Assets resolves static file names to their content-hashed URLs.
	Assets AssetURLs
	// BodyClass is an optional layout variant on <body>, e.g. "app" for the editor.
	BodyClass string
	// CSRFToken, when set, is exposed as <meta name="csrf-token"> and sent by
	// htmx as the X-CSRF-Token header on every request.
	CSRFToken string
	// RoomSession, when set, is the room session an embedded room's page
	// carries instead of a cookie (docs/decisions.md, "Embedded rooms"):
	// exposed as <meta name="room-session"> and sent by htmx as the
	// X-Room-Session header on every request.
	RoomSession string
	// Lang, when set, is the language an embedded room's visitor chose
	// (?lang=): its requests carry no language cookie, so the page exposes
	// it as <meta name="markup-lang"> and htmx sends it as the X-Markup-Lang
	// header on every request (docs/i18n.md, "Choosing the language").
	Lang string
	// Nav lists optional header links.
	Nav []NavLink
	// Styles and Scripts name extra static files a page needs (e.g.
	// "css/editor.css", "js/editor.js"); scripts load deferred, after app.js.
	Styles  []string
	Scripts []string
	// ModulePreloads are ES modules the page will import (fetched early);
	// Prefetches are files it will need soon (e.g. a worker), fetched at
	// low priority into the HTTP cache.
	ModulePreloads []string
	Prefetches     []string
	// SignOutURL, when set, puts a "Sign out" button in the header (admin console).
	SignOutURL string
	// SignOutEverywhereURL, when set, adds a "Sign out everywhere" button
	// beside it, which ends every session of the signed-in admin.
	SignOutEverywhereURL string
}

// NavLink is one link in the page header.
type NavLink struct {
	// Label is the visible link text.
	Label i18n.Words
	// Href is the link target, normally a path on this site.
	Href string
	// Current marks the link to the page being shown (aria-current="page").
	Current bool
}

// fullTitle is the document <title>, in the page's language.
func (p Page) fullTitle(ctx context.Context) string {
	t := strings.TrimSpace(i18n.From(ctx).Say(p.Title))
	if t == "" || t == productName {
		return productName
	}
	return t + " · " + productName
}

// assetURL resolves a static file name, falling back to its unhashed URL
// when no AssetURLs is set.
func (p Page) assetURL(name string) string {
	if p.Assets == nil {
		return "/static/" + name
	}
	return p.Assets.URL(name)
}

// csrfHeaders is the hx-headers JSON that makes htmx send the CSRF token.
// An embedded room's page adds the session it carries (RoomSession) and
// the language its visitor chose (Lang).
func (p Page) csrfHeaders() (string, error) {
	h := map[string]string{"X-CSRF-Token": p.CSRFToken}
	if p.RoomSession != "" {
		h["X-Room-Session"] = p.RoomSession
	}
	if p.Lang != "" {
		h["X-Markup-Lang"] = p.Lang
	}
	return templ.JSONString(h)
}
