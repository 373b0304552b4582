package pdfworker

import (
	"errors"
	"fmt"
	"time"
)

// Reason names the limit a worker passed.
type Reason string

// The limits a worker can pass (Options says each one's size).
const (
	// ReasonMemory: the worker's resident memory passed Options.Memory.
	ReasonMemory Reason = "memory"
	// ReasonCPU: the job used more than Options.CPU of processor time.
	ReasonCPU Reason = "cpu"
	// ReasonTime: the job took longer than Options.Timeout.
	ReasonTime Reason = "time"
	// ReasonOutput: the job's answer or a file it wrote passed Options.MaxOutput.
	ReasonOutput Reason = "output"
	// ReasonCrash: the worker died during the job without passing a
	// limit the parent saw (a fatal error of the runtime, a signal).
	ReasonCrash Reason = "crash"
)

// Reasons lists every Reason, for metrics that show each one from the start.
func Reasons() []Reason {
	return []Reason{ReasonMemory, ReasonCPU, ReasonTime, ReasonOutput, ReasonCrash}
}

// ErrLimit is wrapped by every *LimitError.
var ErrLimit = errors.New("pdf worker stopped at a limit")

// LimitError reports a job stopped because its worker passed a limit; the
// worker was killed and is replaced.
type LimitError struct {
	Reason Reason
	// Bytes is the limit passed, for ReasonMemory and ReasonOutput.
	Bytes int64
	// Duration is the limit passed, for ReasonCPU and ReasonTime.
	Duration time.Duration
	// Detail says what was seen, for the log.
	Detail string
}

func (e *LimitError) Error() string {
	var limit string
	switch {
	case e.Bytes > 0:
		limit = fmt.Sprintf(" (%d bytes)", e.Bytes)
	case e.Duration > 0:
		limit = fmt.Sprintf(" (%s)", e.Duration)
	}
	s := fmt.Sprintf("%v: %s%s", ErrLimit, e.Reason, limit)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Unwrap() error { return ErrLimit }

// ErrBusy is wrapped by *BusyError.
var ErrBusy = errors.New("every pdf worker is busy")

// BusyError reports that no worker came free within Options.Wait.
type BusyError struct{ RetryAfter time.Duration }

func (e *BusyError) Error() string { return fmt.Sprintf("%v; retry in %s", ErrBusy, e.RetryAfter) }

// Unwrap makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Unwrap() error { return ErrBusy }

// errUnsupported: the limits and the watchdog need Linux's /proc and
// prlimit; elsewhere a worker runs under the wall-clock limit alone.
var errUnsupported = errors.New("pdf worker limits need Linux")
