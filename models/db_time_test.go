package models

import (
	"testing"
	"time"
)

func TestDBTimeReadsEveryDriversForm(t *testing.T) {
	t.Parallel()
	want := time.Date(2026, 11, 26, 9, 30, 15, 123000000, time.UTC)
	for _, src := range []any{want, "2026-11-26 09:30:15.123+00:00", []byte("2026-11-26T09:30:15.123Z"), "2026-11-26 09:30:15.123"} {
		var got dbTime
		if err := got.Scan(src); err != nil || !got.Equal(want) {
			t.Errorf("Scan(%v) = %v, %v; want %v", src, got.Time, err, want)
		}
	}
	var null dbTime
	if err := null.Scan(nil); err != nil || !null.IsZero() {
		t.Errorf("Scan(nil) = %v, %v", null.Time, err)
	}
	if v, _ := null.Value(); v != nil {
		t.Errorf("the zero time's value = %v, want NULL", v)
	}
	for _, bad := range []any{"yesterday", 42} {
		if err := new(dbTime).Scan(bad); err == nil {
			t.Errorf("Scan(%v) read a time", bad)
		}
	}
}
