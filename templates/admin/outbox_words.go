package admin

import (
	"context"
	"time"

	"github.com/markuproom/markuproom/web/i18n"
)

// outboxStatusLabel is an outgoing message's status (or the "All" tab) in
// the page's language; data-filter, data-status and the badge's class keep
// the code.
func outboxStatusLabel(ctx context.Context, status string) string {
	switch status {
	case "All":
		return i18n.T(ctx, "admin.outbox.filter.all")
	case "pending":
		return i18n.T(ctx, "admin.outbox.status.pending")
	case "sending":
		return i18n.T(ctx, "admin.outbox.status.sending")
	case "sent":
		return i18n.T(ctx, "admin.outbox.status.sent")
	case "held":
		return i18n.T(ctx, "admin.outbox.status.held")
	case "dead":
		return i18n.T(ctx, "admin.outbox.status.dead")
	}
	return status
}

// outboxKindLabel is "E-mail" or "Webhook" in the page's language.
func outboxKindLabel(ctx context.Context, kind string) string {
	switch kind {
	case "E-mail":
		return i18n.T(ctx, "admin.outbox.kind.email")
	case "Webhook":
		return i18n.T(ctx, "admin.outbox.kind.webhook")
	}
	return kind
}

// outboxNextTry is a message's next try in the page's language: "now",
// "due", or a time of day as it is.
func outboxNextTry(ctx context.Context, next string) string {
	switch next {
	case "now":
		return i18n.T(ctx, "admin.outbox.next.now")
	case "due":
		return i18n.T(ctx, "admin.outbox.next.due")
	}
	return next
}

// outboxWhen is when a message was written, in the page's language (the
// handler's English text when the instant cannot be read).
func outboxWhen(ctx context.Context, iso, fallback string) string {
	t, err := time.Parse(time.RFC3339, iso)
	if err != nil {
		return fallback
	}
	return i18n.From(ctx).DateTime(t.UTC())
}
