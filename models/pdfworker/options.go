package pdfworker

import (
	"log/slog"
	"os"
	"testing"
	"time"
)

// Defaults of Options.
const (
	// DefaultSize is how many workers a Pool keeps.
	DefaultSize = 2
	// DefaultWait is how long a job waits for a free worker.
	DefaultWait = 5 * time.Second
	// DefaultMemory is a worker's resident memory limit.
	DefaultMemory int64 = 1 << 30
	// DefaultTimeout is a job's wall-clock limit.
	DefaultTimeout = 20 * time.Second
	// DefaultMaxOutput bounds a job's answer and every file it writes.
	DefaultMaxOutput int64 = 50 << 20
	// DefaultMaxJobs is how many jobs a worker does before it is replaced.
	DefaultMaxJobs = 200
	// pollEvery is how often the parent reads a busy worker's memory and CPU time.
	pollEvery = 50 * time.Millisecond
	// killGrace is how long past its timeout a job's worker is killed: the
	// job's own context ends at the timeout, so an honest job answers first.
	killGrace = time.Second
	// startTimeout bounds a worker's start, up to its first frame.
	startTimeout = 15 * time.Second
)

// Options configures a Pool; zero fields take the defaults.
type Options struct {
	// Command is the worker's argv: by default this executable, with the
	// argument "pdf-worker" (in a test binary: "-test.run=^$", so that a
	// test binary whose TestMain does not serve jobs runs no test).
	Command []string
	// Env is added to the worker's environment (after this process's own).
	Env []string
	// Size is how many workers run at once, each doing one job.
	Size int
	// Wait is how long a job waits for a free worker before *BusyError.
	Wait time.Duration
	// Memory is a worker's resident memory limit in bytes.
	Memory int64
	// CPU is the processor time one job may use (default: the Timeout).
	CPU time.Duration
	// Timeout is one job's wall-clock limit.
	Timeout time.Duration
	// MaxOutput bounds a job's answer and the size of every file a worker writes.
	MaxOutput int64
	// MaxJobs is how many jobs a worker does before it is replaced.
	MaxJobs int
	// NoCgroup keeps the workers out of memory cgroups even where one is
	// writable (the watchdog is then the wall; tests of the watchdog).
	NoCgroup bool
	// Logger receives the workers' starts, kills and standard error.
	Logger *slog.Logger
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if len(o.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			exe = os.Args[0]
		}
		o.Command = []string{exe, "pdf-worker"}
		if testing.Testing() {
			o.Command = []string{exe, "-test.run=^$"}
		}
	}
	if o.Size <= 0 {
		o.Size = DefaultSize
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	if o.Memory <= 0 {
		o.Memory = DefaultMemory
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.CPU <= 0 {
		o.CPU = o.Timeout
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	if o.MaxJobs <= 0 {
		o.MaxJobs = DefaultMaxJobs
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// addressSpace is the worker's RLIMIT_AS: a backstop several times the
// memory limit, since Go reserves address space it never touches (a Go
// program under 1 GiB of address space dies at 256–512 MB of heap).
func (o Options) addressSpace() int64 {
	return 4*o.Memory + 2<<30
}

// workerGOGC is the worker's GOGC (see startWorker).
const workerGOGC = "400"

// goMemLimit is the worker's GOMEMLIMIT: its collector works hard before
// the wall.
func (o Options) goMemLimit() int64 { return o.Memory / 4 * 3 }
