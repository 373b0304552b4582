package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/anchor"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// Defaults of PDFWorkOptions.
const (
	// DefaultPDFConcurrency is how many PDF jobs run at once, each in a
	// worker process of its own (pdfworker.DefaultSize).
	DefaultPDFConcurrency = pdfworker.DefaultSize
	// DefaultPDFSlotWait is how long a request waits for a free worker
	// before it is answered 503.
	DefaultPDFSlotWait = pdfworker.DefaultWait
)

// ErrPDFBusy reports that every PDF worker stayed busy for the whole wait;
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
	// Concurrency is how many PDF jobs may run at once (the workers).
	Concurrency int
	// Wait is how long a job waits for a free worker.
	Wait time.Duration
	// Limits are the decode caps of every PDF read, inside the workers.
	Limits pdf.Limits
	// MaxOutput bounds every PDF a job writes (a repaired, decrypted or
	// edited file; Limits.MaxOutputBytes) and a job's answer: the upload
	// limit.
	MaxOutput int64
	// Worker configures the worker processes (memory, CPU, time, how many
	// jobs each does); its Size and Wait are Concurrency and Wait.
	Worker pdfworker.Options
}

// PDFWork runs every job that reads an uploaded PDF in the PDF workers
// (package pdfworker), with the decode caps inside them. One value is
// shared by every Store of a process (and its transactions); Close stops
// its workers.
type PDFWork struct {
	pool *pdfworker.Pool
	// limits are the decode caps, with MaxOutputBytes the upload limit.
	limits pdf.Limits
}

// NewPDFWork builds a PDFWork; its workers start with Start or the first job.
func NewPDFWork(o PDFWorkOptions) *PDFWork {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultPDFConcurrency
	}
	if o.Wait <= 0 {
		o.Wait = DefaultPDFSlotWait
	}
	w := o.Worker
	w.Size, w.Wait = o.Concurrency, o.Wait
	if o.MaxOutput > 0 {
		w.MaxOutput = o.MaxOutput
	}
	pool := pdfworker.New(w)
	limits := o.Limits
	limits.MaxOutputBytes = pool.Options().MaxOutput
	return &PDFWork{pool: pool, limits: limits}
}

// Limits are the decode caps, with MaxOutputBytes the upload limit.
func (w *PDFWork) Limits() pdf.Limits { return w.limits }

// Start starts the workers, so that the first uploads find them warm.
func (w *PDFWork) Start(ctx context.Context) error { return w.pool.Start(ctx) }

// Close stops the workers.
func (w *PDFWork) Close() error { return w.pool.Close() }

// Stats are the workers' totals (jobs, starts, kills by limit), for /metrics.
func (w *PDFWork) Stats() pdfworker.Stats { return w.pool.Stats() }

// Cgroups reports whether the workers run in memory cgroups of their own
// (else the parent's watchdog enforces their memory limit).
func (w *PDFWork) Cgroups() bool { return w.pool.Cgroups() }

// Options are the workers' settings with their defaults filled in.
func (w *PDFWork) Options() pdfworker.Options { return w.pool.Options() }

// Acquire takes one worker's slot without running a job, waiting at most
// the configured wait, as a job does (a *PDFBusyError when none came free);
// release it when done. Tests fill the pool with it.
func (w *PDFWork) Acquire(ctx context.Context) (release func(), err error) {
	release, err = w.pool.Acquire(ctx)
	return release, busy(err)
}

// stage checks the upload at input in a worker; a repaired or decrypted
// copy (at most maxOutput bytes) is written to output.
func (w *PDFWork) stage(ctx context.Context, input, output string, maxOutput int64) (pdfjob.Staged, error) {
	l := w.limits
	l.MaxOutputBytes = min(maxOutput, l.MaxOutputBytes)
	res, err := pdfjob.Stage(ctx, w.pool, pdfjob.StageArgs{Limits: l}, input, output)
	return res, busy(err)
}

// edit edits the pages of the PDF at input in a worker, writing the new
// version to output.
func (w *PDFWork) edit(ctx context.Context, a pdfjob.EditArgs, input, output string) (pdfjob.Staged, error) {
	a.Limits = w.limits
	res, err := pdfjob.Edit(ctx, w.pool, a, input, output)
	return res, busy(err)
}

// detect reads the detection of the PDF at input in a worker.
func (w *PDFWork) detect(ctx context.Context, input string) (pdfjob.Detected, error) {
	res, err := pdfjob.Detect(ctx, w.pool, w.limits, input)
	return res, busy(err)
}

// fingerprint reads the template fingerprint of the PDF at input in a worker.
func (w *PDFWork) fingerprint(ctx context.Context, input string) (pdfjob.Fingerprinted, error) {
	res, err := pdfjob.Fingerprint(ctx, w.pool, w.limits, input)
	return res, busy(err)
}

// printedWords reads the printed words of the PDF at input in a worker.
func (w *PDFWork) printedWords(ctx context.Context, input string) (pdfjob.Words, error) {
	res, err := pdfjob.PrintedWords(ctx, w.pool, w.limits, input)
	return res, busy(err)
}

// placeAnchors places one document's anchors in the PDF at input in a worker.
func (w *PDFWork) placeAnchors(ctx context.Context, req anchor.Request, input string) (anchor.Result, error) {
	res, err := pdfjob.PlaceAnchors(ctx, w.pool, pdfjob.AnchorArgs{Limits: w.limits, Request: req}, input)
	return res, busy(err)
}

// busy turns the pool's refusal into the package's *PDFBusyError.
func busy(err error) error {
	var be *pdfworker.BusyError
	if errors.As(err, &be) {
		return &PDFBusyError{RetryAfter: be.RetryAfter}
	}
	return err
}
