package templates

import (
	"context"
	"html"
	"strings"

	"github.com/a-h/templ"

	"github.com/markuproom/markuproom/web/i18n"
)

// Markup is the message id in the page's language with some placeholders
// filled by pieces of HTML (a <code> example inside a sentence), given as
// name, html pairs; the message's own words are escaped, the pieces are
// written as they are, so they must be trusted markup (docs/i18n.md).
func Markup(ctx context.Context, id string, pieces ...string) templ.Component {
	args := make([]any, 0, len(pieces))
	for i := 0; i+1 < len(pieces); i += 2 {
		args = append(args, pieces[i], "\x00"+pieces[i]+"\x00")
	}
	s := html.EscapeString(i18n.T(ctx, id, args...))
	for i := 0; i+1 < len(pieces); i += 2 {
		s = strings.ReplaceAll(s, "\x00"+pieces[i]+"\x00", pieces[i+1])
	}
	return templ.Raw(s)
}

// Code is s as an HTML <code> element, for Markup.
func Code(s string) string { return "<code>" + html.EscapeString(s) + "</code>" }
