package detect

import (
	"context"
	"time"
)

// clock checks, from detection's long loops, whether the request is still
// wanted: the clock is read every clockEvery steps and the context once
// checkEvery has passed (the pdf package's interpreter does the same).
type clock struct {
	ctx  context.Context
	now  func() time.Time // time.Now; tests move the clock themselves
	last time.Time
	n    int
	err  error // the context's error once seen, kept
}

const (
	clockEvery = 64
	checkEvery = 10 * time.Millisecond
)

func newClock(ctx context.Context) *clock {
	c := &clock{ctx: ctx, now: time.Now}
	c.last = c.now()
	return c
}

// tick counts one step; it returns the context's error once it is done.
func (c *clock) tick() error {
	if c.err != nil {
		return c.err
	}
	c.n++
	if c.n < clockEvery {
		return nil
	}
	c.n = 0
	if now := c.now(); now.Sub(c.last) >= checkEvery {
		c.last = now
		c.err = c.ctx.Err()
		return c.err
	}
	return nil
}
