package models

import (
	"testing"
	"time"
)

// The Store keeps the indexes of at most max organizations, dropping the one
// used least recently first.
func TestTemplateIndexesDropTheLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	x := newTemplateIndexes(2)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	first := x.entry(1, at)
	x.entry(2, at.Add(time.Second))
	if x.entry(1, at.Add(2*time.Second)) != first {
		t.Fatal("organization 1 got a new slot while it was kept")
	}
	x.entry(3, at.Add(3*time.Second))
	if len(x.orgs) != 2 || x.orgs[2] != nil || x.orgs[1] != first || x.orgs[3] == nil {
		t.Fatalf("kept %v; want organizations 1 and 3", x.orgs)
	}
}
