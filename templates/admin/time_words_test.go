package admin

import (
	"context"
	"testing"
	"time"
)

func TestListWords(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	ctx := context.Background() // English
	for _, c := range []struct {
		ago  time.Duration
		want string
	}{{10 * time.Second, "<1 min"}, {5 * time.Minute, "5 min"}, {3 * time.Hour, "3 h"}, {47 * time.Hour, "47 h"}, {72 * time.Hour, "3 d"}} {
		if got := age(ctx, now, now.Add(-c.ago)); got != c.want {
			t.Errorf("age(%v) = %q, want %q", c.ago, got, c.want)
		}
	}
	if got := ago(ctx, now, now.Add(-10*time.Second)); got != "just now" {
		t.Errorf("ago of 10 s = %q", got)
	}
	if got := ago(ctx, now, now.Add(-3*time.Hour)); got != "3 h ago" {
		t.Errorf("ago of 3 h = %q", got)
	}
	names := []string{"Ann A", "Bo B", "Cy C", "Di D", "Ed E"}
	if got := namesList(ctx, names, 3); got != "Ann A, Bo B, Cy C and 2 more" {
		t.Errorf("namesList = %q", got)
	}
	if got := namesList(ctx, names[:3], 3); got != "Ann A, Bo B, Cy C" {
		t.Errorf("namesList of three = %q", got)
	}
	if got := consoleDateTimeUTC(ctx, now, "15:04:05"); got != "26 Nov 2026, 12:00:00 UTC" {
		t.Errorf("consoleDateTimeUTC = %q", got)
	}
}
