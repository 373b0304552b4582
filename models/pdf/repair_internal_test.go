package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The repair pass reads its clock by the bytes it goes through, not only by
// the objects it finds: a file of 20 objects, each after 512 KiB of white
// space, reads it at each object (Tick alone would read it every 64), and
// so stops at the deadline (the clock here moves a second each read).
func TestRepairDeadlineByBytes(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	}
	for len(objs) < 20 {
		objs = append(objs, "<< /Filler true >>")
	}
	for i, o := range objs {
		b.WriteString(strings.Repeat(" ", 512<<10))
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	b.WriteString("trailer\n<< /Root 1 0 R >>\n%%EOF\n")
	data := b.Bytes()

	run := func(clock func() time.Time) ([]byte, error) {
		rb := newRebuilder(context.Background(), data, 0, int64(len(data)), repairGrowth, DefaultLimits())
		defer rb.cancel()
		rb.ticker = NewTickerAt(context.Background(), clock).WithDeadline(maxRepairTime, rb.late)
		return rb.run()
	}
	if out, err := run(time.Now); err != nil || len(out) == 0 {
		t.Fatalf("the file is repaired in time: %v", err)
	}
	at, reads := time.Now(), 0
	_, err := run(func() time.Time { reads++; at = at.Add(time.Second); return at })
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "took longer") {
		t.Fatalf("with a clock a second a read: %v after %d reads, want the deadline's error", err, reads)
	}
	if reads < 10 {
		t.Errorf("the clock was read %d times", reads)
	}
}

// The buffer a copy is written into refuses the write that would pass its
// cap, and every write after it: it never holds more than the cap.
func TestCappedBuffer(t *testing.T) {
	over := errors.New("over")
	c := &cappedBuffer{limit: 10, over: over}
	if n, err := c.WriteString("12345"); n != 5 || err != nil {
		t.Fatalf("WriteString within the cap = %d, %v", n, err)
	}
	if _, err := c.Write([]byte("123456")); !errors.Is(err, over) {
		t.Fatalf("Write past the cap = %v", err)
	}
	if _, err := c.WriteString("1"); !errors.Is(err, over) || c.Len() != 5 {
		t.Fatalf("after the cap: %v, %d bytes held", err, c.Len())
	}
	if err := c.failed(errors.New("pdfcpu's words")); !errors.Is(err, over) {
		t.Errorf("failed = %v, want the cap's error", err)
	}
}

// A copy's cap is its growth bound, or MaxOutputBytes when lower, each with
// its own error.
func TestOutputCap(t *testing.T) {
	limit, err := Limits{}.outputCap(1<<20, repairGrowth)
	if limit != 2<<20+copySlack || !errors.Is(err, ErrMalformed) {
		t.Errorf("no MaxOutputBytes: %d, %v", limit, err)
	}
	limit, err = Limits{MaxOutputBytes: 3 << 20}.outputCap(1<<20, decryptGrowth)
	var tooLarge *OutputTooLargeError
	if limit != 3<<20 || !errors.As(err, &tooLarge) || tooLarge.Limit != 3<<20 {
		t.Errorf("MaxOutputBytes 3 MiB: %d, %v", limit, err)
	}
	if limit, _ := (Limits{MaxOutputBytes: 1 << 40}).outputCap(1<<20, decryptGrowth); limit != 8<<20+copySlack {
		t.Errorf("MaxOutputBytes above the bound: %d", limit)
	}
}
