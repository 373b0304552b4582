package handlers

import (
	"fmt"
	"time"

	"github.com/markuproom/markuproom/web/i18n"
)

// shortIDLength is how many of an id's last characters the console's lists
// show: a UUIDv7 begins with its time, so rows made in one second share the
// start; the end is random.
const shortIDLength = 8

// shortID is the end of id the console shows in a list (the copy button
// copies the whole id).
func shortID(id string) string {
	if len(id) <= shortIDLength {
		return id
	}
	return id[len(id)-shortIDLength:]
}

// consoleWeekdayIDs are the console's short weekday names, Sunday first.
var consoleWeekdayIDs = [7]string{
	"admin.list.weekday.sun", "admin.list.weekday.mon", "admin.list.weekday.tue", "admin.list.weekday.wed",
	"admin.list.weekday.thu", "admin.list.weekday.fri", "admin.list.weekday.sat",
}

// The console writes its times in UTC, day first in English ("22 Nov 2026",
// "22 Nov 2026, 09:00 UTC"); each language orders them by its catalog
// (admin.list.date…), with the catalog's month names (docs/i18n.md).

// consoleDate is a day: "22 Nov 2026".
func consoleDate(l *i18n.Localizer, t time.Time) string {
	return l.Date(t.UTC())
}

// consoleDay is a day without its year, for an axis: "22 Nov".
func consoleDay(l *i18n.Localizer, t time.Time) string {
	t = t.UTC()
	return l.T("admin.list.day", "day", fmt.Sprint(t.Day()), "month", l.Month(t.Month()))
}

// consoleDateTime is a day and a time of day (layout "15:04" or
// "15:04:05"): "22 Nov 2026, 09:00".
func consoleDateTime(l *i18n.Localizer, t time.Time, layout string) string {
	return l.T("format.datetime", "date", consoleDate(l, t), "time", t.UTC().Format(layout))
}

// consoleDateTimeUTC is consoleDateTime naming the zone: "22 Nov 2026, 09:00 UTC".
func consoleDateTimeUTC(l *i18n.Localizer, t time.Time, layout string) string {
	return l.T("admin.list.utc", "time", consoleDateTime(l, t, layout))
}

// consoleTimeUTC is a time of day naming the zone: "09:14:03 UTC".
func consoleTimeUTC(l *i18n.Localizer, t time.Time) string {
	return l.T("admin.list.utc", "time", t.UTC().Format("15:04:05"))
}

// consoleWeekday is a day's short name: "Mon".
func consoleWeekday(l *i18n.Localizer, t time.Time) string {
	return l.T(consoleWeekdayIDs[t.UTC().Weekday()])
}
