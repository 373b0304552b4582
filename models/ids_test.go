package models

import (
	"encoding/base64"
	"testing"
)

func TestIDShapes(t *testing.T) {
	t.Parallel()
	const uuid = "01900000-0000-7000-8000-00000000a2a2"
	for _, c := range []struct {
		s       string
		service bool
		caller  bool
	}{
		{uuid, true, true},
		{"01900000-0000-7000-8000-00000000A2A2", false, true}, // not the canonical form
		{"01900000000070008000-00000000a2a2-", false, true},
		{"p1", false, true},
		{"", false, false},
		{"a\x00b", false, false},
		{"\xff\xfe", false, false},
		{"\xc0\xaf", false, false},
		{"\xed\xa0\x80", false, false},
		{string(make([]byte, MaxShortTextLength+1)), false, false},
	} {
		if got := ValidServiceID(c.s); got != c.service {
			t.Errorf("ValidServiceID(%q) = %v", c.s, got)
		}
		if got := ValidCallerID(c.s); got != c.caller {
			t.Errorf("ValidCallerID(%q) = %v", c.s, got)
		}
	}
	for s, want := range map[string]int64{"1": 1, "42": 42, "9223372036854775807": 9223372036854775807,
		"0": 0, "-1": 0, "01": 0, "+1": 0, "9223372036854775808": 0, "1e3": 0, "": 0, "1\x00": 0} {
		if got, ok := ParseRowID(s); got != want || ok != (want != 0) {
			t.Errorf("ParseRowID(%q) = %d, %v", s, got, ok)
		}
	}
	for s, want := range map[string]int{"0": 0, "7": 7, "2147483647": 2147483647,
		"2147483648": -1, "9223372036854775807": -1, "-1": -1, "00": -1, " 1": -1, "": -1} {
		if got, ok := ParseIndex(s); ok != (want >= 0) || ok && got != want {
			t.Errorf("ParseIndex(%q) = %d, %v", s, got, ok)
		}
	}
}

func TestCursorsAreOnlyThoseIssued(t *testing.T) {
	t.Parallel()
	const id = "01900000-0000-7000-8000-00000000a2a2"
	issued := encodeCursor(id)
	if got, ok := ParseCursor(issued); !ok || got != id {
		t.Fatalf("ParseCursor(issued) = %q, %v", got, ok)
	}
	for _, c := range []string{
		"", "x", issued + "=", issued + "A", " " + issued,
		base64.RawURLEncoding.EncodeToString([]byte("anything")),
		base64.RawURLEncoding.EncodeToString([]byte("\x00\x00\x00")),
		base64.RawURLEncoding.EncodeToString([]byte("01900000-0000-7000-8000-00000000A2A2")),
		issued[:len(issued)-1] + "j",
	} {
		if got, ok := ParseCursor(c); ok {
			t.Errorf("ParseCursor(%q) accepted %q", c, got)
		}
	}
}
