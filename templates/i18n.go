package templates

import (
	"context"

	"github.com/markuproom/markuproom/web/i18n"
)

// t is the message id in the page's language (i18n.T).
func t(ctx context.Context, id string, args ...any) string { return i18n.T(ctx, id, args...) }

// say writes words of a view model in the page's language.
func say(ctx context.Context, w i18n.Words) string { return i18n.From(ctx).Say(w) }

// lang is the page's language.
func lang(ctx context.Context) i18n.Language { return i18n.From(ctx).Language() }

// scriptMessagePrefixes name the messages the page hands to its scripts
// (static/js/app.js reads "app.", the editor "editor."), so no script keeps
// a second copy of a string.
var scriptMessagePrefixes = []string{"app.", "editor."}

// scriptMessages is what the page's <script id="i18n-messages"> holds.
type scriptMessages struct {
	Lang     string       `json:"lang"`
	Format   string       `json:"format"`
	Messages i18n.Catalog `json:"messages"`
}

func messagesFor(ctx context.Context) scriptMessages {
	l := i18n.From(ctx)
	return scriptMessages{Lang: l.Language().Tag, Format: l.Language().Format, Messages: l.Messages(scriptMessagePrefixes...)}
}

// languageOptions are the language menu's choices: every language, and the
// pseudo-language while it is the page's.
func languageOptions(ctx context.Context) []i18n.Language {
	cur := lang(ctx)
	if cur.Tag == i18n.Pseudo.Tag {
		return append(append([]i18n.Language(nil), i18n.Languages...), cur)
	}
	return i18n.Languages
}
