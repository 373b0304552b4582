package handlers

import "testing"

func TestShortID(t *testing.T) {
	t.Parallel()
	if got := shortID("019abcde-1234-7abc-8def-0123456789ab"); got != "456789ab" {
		t.Errorf("shortID = %q", got)
	}
	if got := shortID("abc"); got != "abc" {
		t.Errorf("shortID of a short id = %q", got)
	}
}
