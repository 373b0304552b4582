package pdf

import (
	"context"
	"fmt"
	"time"
)

// Caps on the work of reading one document's layout that no single count
// of operators or glyphs sees (docs/decisions.md, "Bounds on reading a PDF's
// content").
const (
	// DefaultMaxLayoutTime is the wall-clock time reading one document's
	// layout may take (Limits.MaxLayoutTime): past it the layout is not read
	// (ErrTooComplex) and the upload still answers well within its 10 s.
	DefaultMaxLayoutTime = 5 * time.Second
	// maxLexedBytes caps the content stream bytes lexed per document, a
	// form XObject counted each time it is drawn and CMaps included: a
	// 30 MB form of white space drawn a thousand times is 30 GB of lexing
	// that no operator count sees. The largest file of the test corpus
	// lexes under 1 MiB; 256 MiB is under a second of lexing.
	maxLexedBytes = 256 << 20
	// clockEvery is how many units of work (operators, codes shown, map
	// entries written) pass between two reads of the clock.
	clockEvery = 64
	// checkEvery is the work time after which the context and the time
	// budget are checked again, so work stops within about this long of a
	// client leaving.
	checkEvery = 10 * time.Millisecond
)

// budget is what one document's layout reading may still spend of what
// counts work in time rather than in things: wall-clock time, bytes lexed,
// and the context's end. Every long loop calls tick.
type budget struct {
	ctx      context.Context
	deadline time.Time
	limit    time.Duration
	now      func() time.Time // time.Now; tests move the clock themselves
	last     time.Time        // when the context was last checked
	n        int              // ticks since the clock was last read
	lexed    int64
	err      error // the first budget passed, kept
}

// newBudget starts the clock of a document's layout reading.
func newBudget(ctx context.Context, limit time.Duration) *budget {
	return newBudgetAt(ctx, limit, time.Now)
}

// newBudgetAt is newBudget reading the clock now.
func newBudgetAt(ctx context.Context, limit time.Duration, now func() time.Time) *budget {
	b := &budget{ctx: ctx, limit: limit, now: now}
	b.last = b.now()
	b.deadline = b.last.Add(limit)
	return b
}

// tick counts one unit of work and, every clockEvery units, reads the
// clock: once checkEvery has passed since the last check, it checks the
// context and the deadline. It returns the first budget passed.
func (b *budget) tick() error {
	if b.err != nil {
		return b.err
	}
	b.n++
	if b.n < clockEvery {
		return nil
	}
	b.n = 0
	return b.check(false)
}

// check reads the clock now (always when force is true, else only once
// checkEvery has passed since the last check).
func (b *budget) check(force bool) error {
	if b.err != nil {
		return b.err
	}
	now := b.now()
	if !force && now.Sub(b.last) < checkEvery {
		return nil
	}
	b.last = now
	if err := b.ctx.Err(); err != nil {
		b.err = err
		return err
	}
	if now.After(b.deadline) {
		b.err = fmt.Errorf("%w: more than %v of work", ErrTooComplex, b.limit)
	}
	return b.err
}

// lex counts n more bytes to lex against maxLexedBytes.
func (b *budget) lex(n int) error {
	if b.err != nil {
		return b.err
	}
	b.lexed += int64(n)
	if b.lexed > maxLexedBytes {
		b.err = fmt.Errorf("%w: more than %s of content lexed", ErrTooComplex, MiB(maxLexedBytes))
	}
	return b.err
}
