package pdfworker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Pool runs jobs in worker processes; see the package documentation. Its
// methods are safe for concurrent use.
type Pool struct {
	o       Options
	cgroups cgroups
	// slots holds one token per job that may run: a job takes one before
	// it takes a worker, so at most Size workers are busy.
	slots chan struct{}
	// idle holds the warm workers.
	idle chan *worker

	mu      sync.Mutex
	closed  bool
	workers map[*worker]struct{}
	// spawning counts replacements starting in the background; Close waits for them.
	spawning sync.WaitGroup

	seq   atomic.Int64
	stats counters
}

// counters are the Pool's running totals (Stats).
type counters struct {
	jobs, started, failedStarts atomic.Int64
	killed                      [len(reasonIndex)]atomic.Int64
}

// reasonIndex orders the Reasons for counters.
var reasonIndex = [...]Reason{ReasonMemory, ReasonCPU, ReasonTime, ReasonOutput, ReasonCrash}

// Stats are a Pool's totals since it was made.
type Stats struct {
	// Jobs is how many jobs ran to an answer or a kill.
	Jobs int64
	// Started is how many worker processes were started.
	Started int64
	// FailedStarts is how many worker processes did not start.
	FailedStarts int64
	// Killed counts the workers killed, by the limit they passed.
	Killed map[Reason]int64
}

// New makes a Pool. No process starts until Start or the first job.
func New(o Options) *Pool {
	o = o.withDefaults()
	p := &Pool{o: o, slots: make(chan struct{}, o.Size), idle: make(chan *worker, o.Size), workers: map[*worker]struct{}{}}
	if !o.NoCgroup {
		cg, err := findCgroups()
		if err != nil {
			o.Logger.Info("pdf workers: no memory cgroup; the parent's watchdog enforces the memory limit", "reason", err.Error())
		}
		p.cgroups = cg
		cg.removeStale(o.Logger)
	}
	return p
}

// Options returns the Pool's options with the defaults filled in.
func (p *Pool) Options() Options { return p.o }

// Stats returns the Pool's totals.
func (p *Pool) Stats() Stats {
	s := Stats{Jobs: p.stats.jobs.Load(), Started: p.stats.started.Load(), FailedStarts: p.stats.failedStarts.Load(), Killed: map[Reason]int64{}}
	for i, r := range reasonIndex {
		s.Killed[r] = p.stats.killed[i].Load()
	}
	return s
}

// Cgroups reports whether workers run in memory cgroups of their own.
func (p *Pool) Cgroups() bool { return p.cgroups.base != "" }

// Start starts the workers now, so that the first jobs find them warm; it
// returns once they answered (or the first error).
func (p *Pool) Start(ctx context.Context) error {
	for range p.o.Size {
		w, err := p.spawn(ctx)
		if err != nil {
			return err
		}
		p.park(w)
	}
	return nil
}

// Close stops every worker; jobs running get an error. Later jobs fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	ws := make([]*worker, 0, len(p.workers))
	for w := range p.workers {
		ws = append(ws, w)
	}
	p.mu.Unlock()
	for _, w := range ws {
		w.stop()
	}
	p.spawning.Wait()
	return nil
}

// errClosed is returned by jobs after Close.
var errClosed = errors.New("pdf worker pool closed")

// Do runs one job in a worker and returns its result. The job waits up to
// Options.Wait for a free worker (*BusyError after that). A worker that
// passes a limit is killed, the error is a *LimitError, and a fresh worker
// takes its place; a failure the job reports about its input is a
// *JobError. A job whose worker went before reading it (killed while it
// waited for work) is given to another worker, maxTries in all, and ends
// as a crash *LimitError when none takes it. When ctx ends first, the
// worker is killed and ctx's error returned.
func (p *Pool) Do(ctx context.Context, req Request) (json.RawMessage, error) {
	if IsWorker() {
		return nil, errors.New("pdf worker: a worker cannot start workers of its own")
	}
	release, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	req.Timeout = p.o.Timeout
	var (
		w   *worker
		res json.RawMessage
	)
	for tries := 1; ; tries++ {
		if w, err = p.take(ctx); err != nil {
			if tries > 1 && ctx.Err() == nil {
				// The workers it was offered went, and the next one did not
				// start: the job ends as a job whose worker crashed (422),
				// not as a fault of the server.
				p.stats.jobs.Add(1)
				p.stats.killed[reasonPos(ReasonCrash)].Add(1)
				return nil, &LimitError{Reason: ReasonCrash, Detail: err.Error()}
			}
			return nil, err
		}
		res, err = w.run(ctx, req, p.o)
		if !errors.Is(err, errNotTaken) {
			break
		}
		if tries == maxTries {
			err = &LimitError{Reason: ReasonCrash, Detail: err.Error()}
			break
		}
		p.o.Logger.Warn("pdf worker gone before it read a job; the job goes to another", "pid", w.pid, "job", req.Kind)
		p.retire(w)
	}
	p.stats.jobs.Add(1)
	var le *LimitError
	if errors.As(err, &le) {
		p.stats.killed[reasonPos(le.Reason)].Add(1)
		p.o.Logger.Warn("pdf worker killed", "reason", string(le.Reason), "detail", le.Detail, "pid", w.pid, "job", req.Kind, "stderr", w.stderr.String())
	}
	if w.healthy() && w.jobs < p.o.MaxJobs {
		p.park(w)
	} else {
		p.retire(w)
	}
	return res, err
}

// maxTries bounds how many workers one job is offered to when each goes
// before reading it.
const maxTries = 3

func reasonPos(r Reason) int {
	for i, x := range reasonIndex {
		if x == r {
			return i
		}
	}
	return len(reasonIndex) - 1
}

// Acquire takes a job slot without running a job, as Do does (waiting at
// most Options.Wait, then *BusyError); release it when done. While held,
// one worker fewer takes jobs: tests fill the pool with it.
func (p *Pool) Acquire(ctx context.Context) (release func(), err error) { return p.acquire(ctx) }

// acquire takes a job slot, waiting at most Options.Wait.
func (p *Pool) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-p.slots }
	select {
	case p.slots <- struct{}{}:
		return release, nil
	default:
	}
	t := time.NewTimer(p.o.Wait)
	defer t.Stop()
	select {
	case p.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, &BusyError{RetryAfter: p.o.Wait}
	}
}

// take returns a warm worker, or starts one when none is warm.
func (p *Pool) take(ctx context.Context) (*worker, error) {
	for {
		select {
		case w := <-p.idle:
			if w.healthy() {
				return w, nil
			}
			p.retire(w)
		default:
			return p.spawn(ctx)
		}
	}
}

// park makes w available to the next job, or stops it when the pool is
// closed or full.
func (p *Pool) park(w *worker) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		w.stop()
		return
	}
	select {
	case p.idle <- w:
	default: // more warm workers than slots: this one goes, without a replacement
		w.stop()
		p.mu.Lock()
		delete(p.workers, w)
		p.mu.Unlock()
	}
}

// retire stops w and starts its replacement in the background, so that the
// next job finds a warm worker.
func (p *Pool) retire(w *worker) {
	w.stop()
	p.mu.Lock()
	delete(p.workers, w)
	enough := p.closed || len(p.workers) >= p.o.Size
	p.mu.Unlock()
	if enough {
		return
	}
	p.spawning.Add(1)
	go func() {
		defer p.spawning.Done()
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		nw, err := p.spawn(ctx)
		if err != nil {
			p.o.Logger.Warn("pdf worker: start a replacement", "error", err.Error())
			return
		}
		p.park(nw)
	}()
}

// spawn starts a worker process and waits for its first frame.
func (p *Pool) spawn(ctx context.Context) (*worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed
	}
	p.mu.Unlock()
	name := fmt.Sprintf("markuproom-pdf-%d-%d", os.Getpid(), p.seq.Add(1))
	w, err := startWorker(ctx, name, p.o, p.cgroups)
	if err != nil {
		p.stats.failedStarts.Add(1)
		return nil, err
	}
	p.stats.started.Add(1)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.stop()
		return nil, errClosed
	}
	p.workers[w] = struct{}{}
	p.mu.Unlock()
	return w, nil
}
