package admin

import (
	"context"

	"github.com/markuproom/markuproom/web/i18n"
)

// activityAction is a row's action: a repeated refusal says how many times,
// and when the last was ("failed login ×37, last 09:14:03 UTC").
func activityAction(ctx context.Context, r ActivityRowView) string {
	action := say(ctx, r.Action)
	switch {
	case r.Repeats <= 1:
		return action
	case r.LastAt != nil:
		return i18n.T(ctx, "admin.activity.repeated_last", "action", action, "repeats", r.Repeats, "last", consoleTimeUTC(ctx, *r.LastAt))
	default:
		return i18n.T(ctx, "admin.activity.repeated", "action", action, "repeats", r.Repeats)
	}
}
