package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/markuproom/markuproom/models/pdf"
)

// Defaults of PDFWorkOptions.
const (
	// DefaultPDFConcurrency is how many PDF operations run at once. Reading a
	// PDF can take up to the decode caps in memory (pdfcpu holds what it
	// decodes), so the slots are sized from memory, not from the CPU count.
	DefaultPDFConcurrency = 2
	// DefaultPDFSlotWait is how long a request waits for a slot before it is
	// answered 503.
	DefaultPDFSlotWait = 5 * time.Second
)

// ErrPDFBusy reports that every PDF slot stayed taken for the whole wait;
// returned errors are *PDFBusyError values that wrap it.
var ErrPDFBusy = errors.New("the server is busy reading other PDF documents")

// PDFBusyError is ErrPDFBusy with the time after which a retry makes sense.
type PDFBusyError struct {
	RetryAfter time.Duration
}

func (e *PDFBusyError) Error() string {
	return fmt.Sprintf("%v; retry in %s", ErrPDFBusy, e.RetryAfter)
}

// Unwrap makes errors.Is(err, ErrPDFBusy) true.
func (e *PDFBusyError) Unwrap() error { return ErrPDFBusy }

// PDFWorkOptions configures PDFWork; zero fields take the defaults.
type PDFWorkOptions struct {
	// Concurrency is how many PDF operations may run at once.
	Concurrency int
	// Wait is how long an operation waits for a slot.
	Wait time.Duration
	// Limits are the decode caps of every PDF read.
	Limits pdf.Limits
}

// PDFWork bounds PDF work: the decode caps of each read and how many reads
// (upload checks, page edits) run at once. One value is shared by every
// Store of a process (and its transactions).
type PDFWork struct {
	sem    *semaphore.Weighted
	wait   time.Duration
	limits pdf.Limits
}

// NewPDFWork builds a PDFWork.
func NewPDFWork(o PDFWorkOptions) *PDFWork {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultPDFConcurrency
	}
	if o.Wait <= 0 {
		o.Wait = DefaultPDFSlotWait
	}
	return &PDFWork{sem: semaphore.NewWeighted(int64(o.Concurrency)), wait: o.Wait, limits: o.Limits}
}

// Limits are the decode caps.
func (w *PDFWork) Limits() pdf.Limits { return w.limits }

// Acquire takes a slot, waiting at most the configured wait; release it
// when the PDF work is done. It fails with a *PDFBusyError when no slot
// came free in time, or with ctx's error when ctx ended first.
func (w *PDFWork) Acquire(ctx context.Context) (release func(), err error) {
	if w.sem.TryAcquire(1) {
		return func() { w.sem.Release(1) }, nil
	}
	waitCtx, cancel := context.WithTimeout(ctx, w.wait)
	defer cancel()
	if err := w.sem.Acquire(waitCtx, 1); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, &PDFBusyError{RetryAfter: w.wait}
	}
	return func() { w.sem.Release(1) }, nil
}
