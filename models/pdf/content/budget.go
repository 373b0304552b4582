package content

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
)

// budget is what one document's layout reading may still spend of what
// counts work in time rather than in things: wall-clock time and the
// context's end (its Ticker, with a deadline), and bytes lexed. Every long
// loop calls tick.
type budget struct {
	*Ticker
	lexed int64
}

// newBudget starts the clock of a document's layout reading.
func newBudget(ctx context.Context, limit time.Duration) *budget {
	return newBudgetAt(ctx, limit, time.Now)
}

// newBudgetAt is newBudget reading the clock now.
func newBudgetAt(ctx context.Context, limit time.Duration, now func() time.Time) *budget {
	late := fmt.Errorf("%w: more than %v of work", ErrTooComplex, limit)
	return &budget{Ticker: NewTickerAt(ctx, now).WithDeadline(limit, late)}
}

// lex counts n more bytes to lex against maxLexedBytes.
func (b *budget) lex(n int) error {
	if b.err != nil {
		return b.err
	}
	b.lexed += int64(n)
	if b.lexed > maxLexedBytes {
		b.err = fmt.Errorf("%w: more than %s of content lexed", ErrTooComplex, fmt.Sprintf("%d MiB", maxLexedBytes>>20))
	}
	return b.err
}
