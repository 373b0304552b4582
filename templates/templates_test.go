package templates_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"golang.org/x/net/html"

	"github.com/markuproom/markuproom/static"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// fakeAssets hashes every name with a fixed hash and records what was asked for.
type fakeAssets struct{ asked []string }

func (f *fakeAssets) URL(name string) string {
	f.asked = append(f.asked, name)
	ext := path.Ext(name)
	return "/static/" + strings.TrimSuffix(name, ext) + ".0123456789" + ext
}

func render(t *testing.T, c templ.Component) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.String()
}

// pages renders every full page with the given Page.
func pages(t *testing.T, p templates.Page) map[string]string {
	t.Helper()
	return map[string]string{
		"Home": render(t, templates.Home(p, templates.HomeView{
			BaseURL: "https://markup.example.com/", APIDocURL: "/api/openapi.json", AdminURL: "/admin",
		})),
		"ErrorPage": render(t, templates.ErrorPage(p, templates.ErrorView{
			Status: 410, Title: "This Markup Room link has expired", Message: "Ask the sender for a new link.",
			RequestID: "req-42", HomeURL: "/",
		})),
	}
}

func TestAssetURLsAreHashed(t *testing.T) {
	for name, doc := range pages(t, templates.Page{Title: i18n.Plain("T"), Assets: &fakeAssets{}}) {
		for _, want := range []string{
			`<link rel="stylesheet" href="/static/css/app.0123456789.css">`,
			`<script src="/static/vendor/htmx/htmx.min.0123456789.js" defer></script>`,
			`<script src="/static/js/app.0123456789.js" defer></script>`,
		} {
			if !strings.Contains(doc, want) {
				t.Errorf("%s: missing %s", name, want)
			}
		}
		if strings.Index(doc, "htmx.min.") > strings.Index(doc, "js/app.") {
			t.Errorf("%s: js/app.js must load after htmx so it can configure it", name)
		}
	}
}

// TestPagesUseOnlyExistingAssets catches a typo in an asset name: every name
// a page asks for must be a file the static package embeds.
func TestPagesUseOnlyExistingAssets(t *testing.T) {
	assets, err := static.New()
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeAssets{}
	pages(t, templates.Page{Title: i18n.Plain("T"), Assets: fake})
	if len(fake.asked) == 0 {
		t.Fatal("pages asked for no assets")
	}
	for _, name := range fake.asked {
		if !assets.Has(name) {
			t.Errorf("a page links static file %q, which does not exist", name)
		}
	}
}

// TestCSPSafe walks every element: no inline script, no inline style, no
// event-handler attributes, no javascript: URLs.
func TestCSPSafe(t *testing.T) {
	p := templates.Page{
		Title: i18n.Plain("T"), Assets: &fakeAssets{}, CSRFToken: "tok", BodyClass: "app",
		Nav: []templates.NavLink{{Label: i18n.Plain("Home"), Href: "/", Current: true}, {Label: i18n.Plain("Evil"), Href: "javascript:alert(1)"}},
	}
	for name, doc := range pages(t, p) {
		z := html.NewTokenizer(strings.NewReader(doc))
		inScript := false
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				if z.Err() != io.EOF {
					t.Fatalf("%s: %v", name, z.Err())
				}
				break
			}
			tok := z.Token()
			switch tt {
			case html.StartTagToken, html.SelfClosingTagToken:
				if tok.Data == "style" {
					t.Errorf("%s: <style> element", name)
				}
				hasSrc, data := false, false
				for _, a := range tok.Attr {
					key := strings.ToLower(a.Key)
					switch {
					case key == "style":
						t.Errorf("%s: <%s style=%q>", name, tok.Data, a.Val)
					case strings.HasPrefix(key, "on"):
						t.Errorf("%s: <%s %s=%q> event handler", name, tok.Data, a.Key, a.Val)
					case strings.HasPrefix(key, "hx-on"):
						t.Errorf("%s: <%s %s> needs eval, which the CSP forbids", name, tok.Data, a.Key)
					case key == "src":
						hasSrc = a.Val != ""
					case key == "type" && a.Val == "application/json":
						data = true // data the scripts read, never run
					}
					if strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Val)), "javascript:") {
						t.Errorf("%s: <%s %s=%q>", name, tok.Data, a.Key, a.Val)
					}
				}
				if tok.Data == "script" {
					if !hasSrc && !data {
						t.Errorf("%s: <script> without src", name)
					}
					inScript = tt == html.StartTagToken && !data
				}
			case html.TextToken:
				if inScript && strings.TrimSpace(tok.Data) != "" {
					t.Errorf("%s: inline script content %q", name, tok.Data)
				}
			case html.EndTagToken:
				if tok.Data == "script" {
					inScript = false
				}
			}
		}
		for _, bad := range []string{" style=", " onclick=", " onload=", "<script>"} {
			if strings.Contains(doc, bad) {
				t.Errorf("%s: contains %q", name, bad)
			}
		}
	}
}

func TestHostileTitleIsEscaped(t *testing.T) {
	const hostile = `<script>alert(1)</script>`
	for name, doc := range pages(t, templates.Page{Title: i18n.Plain(hostile), Assets: &fakeAssets{}}) {
		if strings.Contains(doc, hostile) {
			t.Errorf("%s: the title is not escaped", name)
		}
		if !strings.Contains(doc, "<title>&lt;script&gt;alert(1)&lt;/script&gt; · Markup Room</title>") {
			t.Errorf("%s: escaped title missing", name)
		}
	}
}

func TestTitle(t *testing.T) {
	for title, want := range map[string]string{
		"Documents":   "<title>Documents · Markup Room</title>",
		"":            "<title>Markup Room</title>",
		"Markup Room": "<title>Markup Room</title>",
	} {
		doc := render(t, templates.Home(templates.Page{Title: i18n.Plain(title), Assets: &fakeAssets{}}, templates.HomeView{}))
		if !strings.Contains(doc, want) {
			t.Errorf("Title %q: want %s", title, want)
		}
	}
}

func TestCSRFOnlyWhenSet(t *testing.T) {
	for name, doc := range pages(t, templates.Page{Title: i18n.Plain("T"), Assets: &fakeAssets{}}) {
		if strings.Contains(doc, "csrf-token") || strings.Contains(doc, "hx-headers") {
			t.Errorf("%s: CSRF markup without a token", name)
		}
	}
	const token = `a"b<c>&d`
	for name, doc := range pages(t, templates.Page{Title: i18n.Plain("T"), Assets: &fakeAssets{}, CSRFToken: token}) {
		root, err := html.Parse(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		meta := find(root, func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "csrf-token" })
		if meta == nil || attr(meta, "content") != token {
			t.Errorf("%s: <meta name=csrf-token> missing or wrong", name)
		}
		body := find(root, func(n *html.Node) bool { return n.Data == "body" })
		var headers map[string]string
		if err := json.Unmarshal([]byte(attr(body, "hx-headers")), &headers); err != nil || headers["X-CSRF-Token"] != token {
			t.Errorf("%s: hx-headers = %q (%v)", name, attr(body, "hx-headers"), err)
		}
	}
}

func TestShell(t *testing.T) {
	p := templates.Page{
		Title: i18n.Plain("T"), Assets: &fakeAssets{}, BodyClass: "app",
		Nav: []templates.NavLink{{Label: i18n.Plain("Documents"), Href: "/admin/documents", Current: true}, {Label: i18n.Plain("Tokens"), Href: "/admin/tokens"}},
	}
	doc := render(t, templates.Home(p, templates.HomeView{}))
	for _, want := range []string{
		`<html lang="en" dir="ltr">`,
		`<meta charset="utf-8">`,
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		`<meta name="referrer" content="no-referrer">`,
		`<a class="skip-link" href="#main">`,
		`<main id="main"`,
		`<body class="app">`,
		`Markup Room</span>`,
		`<a class="site-nav__link" href="/admin/documents" aria-current="page">Documents</a>`,
		`<a class="site-nav__link" href="/admin/tokens">Tokens</a>`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %s", want)
		}
	}
	plain := render(t, templates.Home(templates.Page{Assets: &fakeAssets{}}, templates.HomeView{}))
	if strings.Contains(plain, "<body class") || strings.Contains(plain, "site-nav") {
		t.Error("empty BodyClass / Nav still rendered")
	}
}

func TestHome(t *testing.T) {
	doc := render(t, templates.Home(templates.Page{Title: i18n.Plain("Home"), Assets: &fakeAssets{}}, templates.HomeView{
		BaseURL: "https://markup.example.com/", APIDocURL: "/api/openapi.json", AdminURL: "/admin", UploadPath: "/api/v1/documents/upload",
		RoomsPath: "/api/v1/markup-rooms", TransactionPath: "/api/v1/transactions/{id}",
	}))
	text := textOf(t, doc)
	for _, want := range []string{
		`href="/api/openapi.json"`,
		`href="/admin"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %s", want)
		}
	}
	for _, want := range []string{
		`curl -H "Authorization: Bearer $TOKEN" \` + "\n  -F file=@contract.pdf \\\n  https://markup.example.com/api/v1/documents/upload",
		`https://markup.example.com/api/v1/markup-rooms`,
		`"senderId"`, `"documents"`, `"participants"`, `"firstName"`, `"lastName"`, `"email"`,
		`curl -X PUT`,
		`https://markup.example.com/api/v1/transactions/{id}`,
		"Markup Room URL",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("home text is missing %q", want)
		}
	}

	noAdmin := render(t, templates.Home(templates.Page{Assets: &fakeAssets{}}, templates.HomeView{APIDocURL: "/api/openapi.json", UploadPath: "/api/v1/documents/upload"}))
	if strings.Contains(noAdmin, "admin console</a>") {
		t.Error("admin console link shown without AdminURL")
	}
	if !strings.Contains(textOf(t, noAdmin), "$BASE/api/v1/documents/upload") {
		t.Error("an empty BaseURL should show $BASE in the examples")
	}
}

func TestErrorPage(t *testing.T) {
	doc := render(t, templates.ErrorPage(templates.Page{Title: i18n.Plain("Gone"), Assets: &fakeAssets{}}, templates.ErrorView{
		Status: 410, Title: "This Markup Room link has expired", Message: "Ask the sender for a new link.",
		RequestID: "req-42<b>", HomeURL: "/",
	}))
	text := textOf(t, doc)
	for _, want := range []string{"410", "This Markup Room link has expired", "Ask the sender for a new link.", "req-42<b>"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(doc, "req-42<b>") {
		t.Error("request id not escaped")
	}

	// A bare status text gets a friendly headline; an empty message a default one.
	doc = render(t, templates.ErrorPage(templates.Page{Title: i18n.Plain("Not Found"), Assets: &fakeAssets{}}, templates.ErrorView{Status: 404, Title: "Not Found"}))
	text = textOf(t, doc)
	if !strings.Contains(text, "We couldn't find that page") || strings.Contains(text, "request id") {
		t.Errorf("404 page text: %q", text)
	}
	if !strings.Contains(doc, `href="/"`) {
		t.Error("empty HomeURL should link to /")
	}
}

// textOf returns the text content of an HTML document, entities decoded.
func textOf(t *testing.T, doc string) string {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return b.String()
}

func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, match); f != nil {
			return f
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
