package content

import (
	"context"
	"time"
)

const (
	// clockEvery is how many units of work (operators, codes shown, map
	// entries written, tags compared) pass between two reads of the clock.
	clockEvery = 64
	// checkEvery is the work time after which the context (and a deadline)
	// are checked again, so work stops within about this long of a client
	// leaving.
	checkEvery = 10 * time.Millisecond
	// bytesEvery is how many bytes of work (Weigh) pass between two reads
	// of the clock: well under a millisecond of scanning or parsing.
	bytesEvery = 256 << 10
)

// Ticker tells the long loops that read hostile input when to stop. Each
// call of Tick counts one unit of work; every clockEvery units the clock is
// read, and once checkEvery has passed since the last look the context is
// checked, and the deadline when there is one. The first reason to stop is
// kept and returned from then on. Layout reading and detection share it.
type Ticker struct {
	ctx      context.Context
	now      func() time.Time // time.Now; tests move the clock themselves
	deadline time.Time        // zero: none
	late     error            // what Tick returns past the deadline
	last     time.Time        // when the context was last checked
	n        int              // ticks since the clock was last read
	bytes    int              // bytes weighed since the clock was last read
	err      error
}

// NewTicker returns a Ticker that stops when ctx ends.
func NewTicker(ctx context.Context) *Ticker { return NewTickerAt(ctx, time.Now) }

// NewTickerAt is NewTicker reading the clock now (tests pass a clock that
// moves as they say).
func NewTickerAt(ctx context.Context, now func() time.Time) *Ticker {
	return &Ticker{ctx: ctx, now: now, last: now()}
}

// WithDeadline makes t stop with late once limit has passed.
func (t *Ticker) WithDeadline(limit time.Duration, late error) *Ticker {
	t.deadline, t.late = t.last.Add(limit), late
	return t
}

// Tick counts one unit of work and returns the first reason to stop: the
// context's error, or the deadline's error once it has passed.
func (t *Ticker) Tick() error {
	if t.err != nil {
		return t.err
	}
	t.n++
	if t.n < clockEvery {
		return nil
	}
	t.n = 0
	return t.check(false)
}

// Weigh counts n bytes of work (a region scanned, an object parsed) and
// returns the first reason to stop, as Tick does. The clock is read once
// bytesEvery bytes have been weighed, however few ticks they took, so that
// work made of a few huge units (one object per 31 MiB of white space)
// cannot outrun the deadline by more than one unit.
func (t *Ticker) Weigh(n int) error {
	if t.err != nil {
		return t.err
	}
	t.bytes += n
	if t.bytes < bytesEvery {
		return nil
	}
	t.bytes, t.n = 0, 0
	return t.check(false)
}

// check reads the clock now and checks when checkEvery has passed since
// the last check, or always when force is true.
func (t *Ticker) check(force bool) error {
	if t.err != nil {
		return t.err
	}
	now := t.now()
	if !force && now.Sub(t.last) < checkEvery {
		return nil
	}
	t.last = now
	if err := t.ctx.Err(); err != nil {
		t.err = err
		return err
	}
	if !t.deadline.IsZero() && now.After(t.deadline) {
		t.err = t.late
	}
	return t.err
}
