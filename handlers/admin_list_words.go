package handlers

import (
	"strconv"
	"time"
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

// ago says when t was: "just now", "5 min ago", "3 h ago", "2 d ago".
func ago(now, t time.Time) string {
	if now.Sub(t) < time.Minute {
		return "just now"
	}
	return age(now, t) + " ago"
}

// age says how long since t, in the largest whole unit: "<1 min", "5 min",
// "3 h", "2 d".
func age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "<1 min"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h"
	default:
		return strconv.Itoa(int(d/(24*time.Hour))) + " d"
	}
}
