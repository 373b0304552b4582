package content_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf/content"
)

// A deadline holds for work counted by bytes: one huge unit of work reads
// the clock, where Tick reads it only every 64 units; small units read it
// once their bytes add up.
func TestTickerWeigh(t *testing.T) {
	late := errors.New("late")
	at := time.Unix(0, 0)
	reads := 0
	clock := func() time.Time { reads++; return at }
	tk := content.NewTickerAt(context.Background(), clock).WithDeadline(time.Second, late)
	at = at.Add(2 * time.Second) // the deadline has passed; only a read of the clock can tell
	before := reads
	for range 10 {
		if err := tk.Tick(); err != nil {
			t.Fatalf("Tick read the clock before 64 ticks: %v", err)
		}
	}
	if reads != before {
		t.Fatalf("10 ticks read the clock %d times", reads-before)
	}
	if err := tk.Weigh(31 << 20); !errors.Is(err, late) {
		t.Fatalf("Weigh(31 MiB) past the deadline = %v, want the deadline's error", err)
	}

	small := content.NewTickerAt(context.Background(), clock).WithDeadline(time.Second, late)
	at = at.Add(2 * time.Second)
	var err error
	n := 0
	for ; err == nil && n < 1<<20; n++ {
		err = small.Weigh(1 << 10)
	}
	if !errors.Is(err, late) || n > 1024 {
		t.Fatalf("1 KiB at a time: %v after %d calls, want the deadline's error within 1 MiB", err, n)
	}
}
