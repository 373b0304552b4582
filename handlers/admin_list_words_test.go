package handlers

import (
	"testing"
	"time"

	"github.com/markuproom/markuproom/web/i18n"
)

func TestListWords(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	en := i18n.English()
	for _, c := range []struct {
		ago  time.Duration
		want string
	}{{10 * time.Second, "<1 min"}, {5 * time.Minute, "5 min"}, {3 * time.Hour, "3 h"}, {47 * time.Hour, "47 h"}, {72 * time.Hour, "3 d"}} {
		if got := age(en, now, now.Add(-c.ago)); got != c.want {
			t.Errorf("age(%v) = %q, want %q", c.ago, got, c.want)
		}
	}
	if got := shortID("019abcde-1234-7abc-8def-0123456789ab"); got != "456789ab" {
		t.Errorf("shortID = %q", got)
	}
	if got := ago(en, now, now.Add(-10*time.Second)); got != "just now" {
		t.Errorf("ago of 10 s = %q", got)
	}
	if got := ago(en, now, now.Add(-3*time.Hour)); got != "3 h ago" {
		t.Errorf("ago of 3 h = %q", got)
	}
	names := []string{"Ann A", "Bo B", "Cy C", "Di D", "Ed E"}
	if got := namesList(en, names, 3); got != "Ann A, Bo B, Cy C and 2 more" {
		t.Errorf("namesList = %q", got)
	}
	if got := namesList(en, names[:3], 3); got != "Ann A, Bo B, Cy C" {
		t.Errorf("namesList of three = %q", got)
	}
	if got := shortID("abc"); got != "abc" {
		t.Errorf("shortID of a short id = %q", got)
	}
}
