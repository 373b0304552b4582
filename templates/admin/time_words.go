package admin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/markuproom/markuproom/web/i18n"
)

// The console writes its times in UTC, day first in English ("22 Nov 2026",
// "22 Nov 2026, 09:00 UTC"); each language orders them by its catalog
// (admin.list.date…), with the catalog's month names (docs/i18n.md). View
// models carry the time.Time; these word it.

// say writes words of a view model in the page's language.
func say(ctx context.Context, w i18n.Words) string { return i18n.From(ctx).Say(w) }

// consoleDate is a day: "22 Nov 2026".
func consoleDate(ctx context.Context, t time.Time) string { return i18n.From(ctx).Date(t.UTC()) }

// consoleDateTime is a day and a time of day (layout "15:04" or
// "15:04:05"): "22 Nov 2026, 09:00".
func consoleDateTime(ctx context.Context, t time.Time, layout string) string {
	return i18n.T(ctx, "format.datetime", "date", consoleDate(ctx, t), "time", t.UTC().Format(layout))
}

// consoleDateTimeUTC is consoleDateTime naming the zone: "22 Nov 2026, 09:00 UTC".
func consoleDateTimeUTC(ctx context.Context, t time.Time, layout string) string {
	return i18n.T(ctx, "admin.list.utc", "time", consoleDateTime(ctx, t, layout))
}

// consoleDay is a day without its year, for an axis: "22 Nov".
func consoleDay(ctx context.Context, t time.Time) string {
	t = t.UTC()
	l := i18n.From(ctx)
	return l.T("admin.list.day", "day", fmt.Sprint(t.Day()), "month", l.Month(t.Month()))
}

// consoleTimeUTC is a time of day naming the zone: "09:14:03 UTC".
func consoleTimeUTC(ctx context.Context, t time.Time) string {
	return i18n.T(ctx, "admin.list.utc", "time", t.UTC().Format("15:04:05"))
}

// consoleWeekdayIDs are the console's short weekday names, Sunday first.
var consoleWeekdayIDs = [7]string{
	"admin.list.weekday.sun", "admin.list.weekday.mon", "admin.list.weekday.tue", "admin.list.weekday.wed",
	"admin.list.weekday.thu", "admin.list.weekday.fri", "admin.list.weekday.sat",
}

// consoleWeekday is a day's short name: "Mon".
func consoleWeekday(ctx context.Context, t time.Time) string {
	return i18n.T(ctx, consoleWeekdayIDs[t.UTC().Weekday()])
}

// isoTime is t as a <time datetime> attribute holds it.
func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// ago says when t was: "just now", "5 min ago", "3 h ago", "2 d ago".
func ago(ctx context.Context, now, t time.Time) string {
	if now.Sub(t) < time.Minute {
		return i18n.T(ctx, "admin.list.just_now")
	}
	return i18n.T(ctx, "admin.list.ago", "age", age(ctx, now, t))
}

// age says how long since t, in the largest whole unit: "<1 min", "5 min",
// "3 h", "2 d".
func age(ctx context.Context, now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return i18n.T(ctx, "admin.list.under_a_minute")
	case d < time.Hour:
		return i18n.T(ctx, "admin.list.minutes", "count", int(d/time.Minute))
	case d < 48*time.Hour:
		return i18n.T(ctx, "admin.list.hours", "count", int(d/time.Hour))
	default:
		return i18n.T(ctx, "admin.list.days", "count", int(d/(24*time.Hour)))
	}
}

// yesNo is a switch's state: "Yes" or "No".
func yesNo(ctx context.Context, on bool) string {
	if on {
		return i18n.T(ctx, "admin.transaction.yes")
	}
	return i18n.T(ctx, "admin.transaction.no")
}

// namesList is the first few names, then "and N more".
func namesList(ctx context.Context, names []string, few int) string {
	if len(names) <= few {
		return strings.Join(names, ", ")
	}
	return i18n.T(ctx, "admin.list.names_and_more", "names", strings.Join(names[:few], ", "), "count", len(names)-few)
}

// dateTime is a day and time of day in UTC, the zone unnamed: "22 Nov 2026, 09:00".
func dateTime(ctx context.Context, t time.Time) string { return i18n.From(ctx).DateTime(t.UTC()) }

// utcDateTime is dateTime followed by "UTC" (the console's facts and
// version lists, whose times are UTC).
func utcDateTime(ctx context.Context, t time.Time) string { return dateTime(ctx, t) + " UTC" }
