package pdfworker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// worker is one worker process.
type worker struct {
	cmd    *exec.Cmd
	pid    int
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *tail
	// cgroup is the worker's memory cgroup directory ("" when none).
	cgroup  string
	cgroups cgroups
	jobs    int
	// exited is closed once the process has been waited for.
	exited chan struct{}
	// broken is set once the worker must not get another job.
	broken bool
	// killedFor is the limit the parent killed the worker for ("" when none).
	killedFor Reason
	stopOnce  sync.Once
}

// startWorker starts a worker process, limits it and waits for its hello.
func startWorker(ctx context.Context, name string, o Options, cg cgroups) (*worker, error) {
	cmd := exec.Command(o.Command[0], o.Command[1:]...)
	// GOGC is raised (before o.Env, which may set it) because GOMEMLIMIT,
	// not the heap's growth, is what bounds a worker: an ordinary job then
	// collects less often than in the server, and costs what it cost there
	// (BenchmarkStageOrdinary in models/pdfjob compares the two).
	cmd.Env = append(cmd.Environ(), "GOGC="+workerGOGC)
	cmd.Env = append(cmd.Env, o.Env...)
	cmd.Env = append(cmd.Env, EnvWorker+"=1", "GOMEMLIMIT="+strconv.FormatInt(o.goMemLimit(), 10))
	cmd.SysProcAttr = procAttr()
	w := &worker{cmd: cmd, stderr: newTail(8 << 10), exited: make(chan struct{}), cgroups: cg}
	cmd.Stderr = w.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the pdf worker %q: %w", o.Command[0], err)
	}
	w.pid, w.stdin, w.stdout = cmd.Process.Pid, in, bufio.NewReader(out)
	go func() {
		_ = cmd.Wait()
		close(w.exited)
	}()
	fail := func(err error) (*worker, error) {
		w.stop()
		return nil, fmt.Errorf("start the pdf worker: %w (its standard error: %q; a test binary must call the worker's entry point from TestMain)", err, w.stderr.String())
	}
	if err := limitStart(w.pid, o.addressSpace(), o.MaxOutput); err != nil && !errors.Is(err, errUnsupported) {
		return fail(fmt.Errorf("set its limits: %w", err))
	}
	if cg.base != "" {
		dir, err := cg.create(name, w.pid, o.Memory)
		if err != nil {
			o.Logger.Warn("pdf worker: no memory cgroup of its own; the watchdog enforces the limit", "error", err.Error())
		}
		w.cgroup = dir
	}
	hi := make(chan error, 1)
	go func() {
		b, err := readFrame(w.stdout, maxRequestBytes)
		if err == nil {
			var h hello
			err = json.Unmarshal(b, &h)
		}
		hi <- err
	}()
	t := time.NewTimer(startTimeout)
	defer t.Stop()
	select {
	case err := <-hi:
		if err != nil {
			return fail(err)
		}
	case <-t.C:
		return fail(errors.New("no answer within " + startTimeout.String()))
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	return w, nil
}

// healthy reports whether w may take another job.
func (w *worker) healthy() bool {
	if w.broken {
		return false
	}
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// stop kills the process (if it still runs), waits for it and removes its
// cgroup.
func (w *worker) stop() {
	w.stopOnce.Do(func() {
		w.broken = true
		_ = w.stdin.Close()
		if w.cmd.Process != nil {
			_ = w.cmd.Process.Kill()
		}
		<-w.exited
		if w.cgroup != "" {
			_ = w.cgroups.remove(w.cgroup)
		}
	})
}

// kill stops w for passing limit.
func (w *worker) kill(limit Reason) {
	if w.killedFor == "" {
		w.killedFor = limit
	}
	w.broken = true
	_ = w.cmd.Process.Kill()
}

// run does one job in w, watching its limits.
func (w *worker) run(ctx context.Context, req Request, o Options) (json.RawMessage, error) {
	w.jobs++
	used, cpuErr := cpuTime(w.pid)
	if cpuErr == nil {
		if err := limitCPU(w.pid, used, o.CPU); err != nil {
			cpuErr = err
		}
	}
	if err := writeFrame(w.stdin, req); err != nil {
		w.broken = true
		return nil, w.notTaken(err)
	}
	type reply struct {
		b     []byte
		err   error
		taken bool
	}
	got := make(chan reply, 1)
	go func() {
		if _, err := readFrame(w.stdout, 0); err != nil {
			got <- reply{err: err}
			return
		}
		b, err := readFrame(w.stdout, o.MaxOutput)
		got <- reply{b, err, true}
	}()
	deadline := time.NewTimer(o.Timeout + killGrace)
	defer deadline.Stop()
	poll := time.NewTicker(pollEvery)
	defer poll.Stop()
	var peak int64
	for {
		select {
		case r := <-got:
			if !r.taken && w.killedFor == "" {
				return nil, w.notTaken(r.err)
			}
			return w.answer(r.b, r.err, o)
		case <-poll.C:
			if rss, err := residentBytes(w.pid); err == nil {
				peak = max(peak, rss)
				if rss > o.Memory {
					w.kill(ReasonMemory)
				}
			}
			if cpuErr == nil {
				if now, err := cpuTime(w.pid); err == nil && now-used > o.CPU {
					w.kill(ReasonCPU)
				}
			}
		case <-deadline.C:
			w.kill(ReasonTime)
		case <-ctx.Done():
			w.broken = true
			_ = w.cmd.Process.Kill()
			<-w.exited
			return nil, ctx.Err()
		case <-w.exited:
			// Whatever it wrote before it went is read to its end first.
			r := <-got
			if !r.taken && w.killedFor == "" {
				return nil, w.notTaken(r.err)
			}
			if r.err == nil {
				return w.answer(r.b, nil, o)
			}
			return nil, w.died(r.err, used, o)
		}
	}
}

// errNotTaken reports a worker that went before it read the job (killed
// while it waited for work): the job did not run, and the pool gives it to
// another worker.
var errNotTaken = errors.New("pdf worker: gone before it read the job")

// notTaken stops w, which went before acknowledging its job.
func (w *worker) notTaken(cause error) error {
	w.broken = true
	_ = w.cmd.Process.Kill()
	<-w.exited
	return fmt.Errorf("%w: %v", errNotTaken, cause)
}

// answer decodes a worker's reply to a job (or the error reading it).
func (w *worker) answer(b []byte, err error, o Options) (json.RawMessage, error) {
	if err != nil {
		if errors.Is(err, errFrameTooLarge) {
			w.kill(ReasonOutput)
			<-w.exited
			return nil, &LimitError{Reason: ReasonOutput, Bytes: o.MaxOutput, Detail: err.Error()}
		}
		return nil, w.died(err, 0, o)
	}
	var a answer
	if err := json.Unmarshal(b, &a); err != nil {
		w.broken = true
		return nil, fmt.Errorf("pdf worker: decode its answer: %w", err)
	}
	if a.Error != nil {
		return nil, a.Error
	}
	return a.Result, nil
}

// died explains a worker that stopped answering during a job: the limit the
// parent killed it for, the kernel's kill for the cgroup's memory or a
// resource limit, or a crash.
func (w *worker) died(cause error, used time.Duration, o Options) error {
	w.broken = true
	_ = w.cmd.Process.Kill()
	<-w.exited
	reason := w.killedFor
	if reason == "" {
		reason = w.exitReason(used, o.CPU)
	}
	le := &LimitError{Reason: reason, Detail: cause.Error()}
	switch reason {
	case ReasonMemory, ReasonOutput:
		le.Bytes = o.Memory
		if reason == ReasonOutput {
			le.Bytes = o.MaxOutput
		}
	case ReasonCPU:
		le.Duration = o.CPU
	case ReasonTime:
		le.Duration = o.Timeout
	}
	if st := w.cmd.ProcessState; st != nil {
		le.Detail += "; " + st.String()
	}
	return le
}

// exitReason reads why a worker the parent did not kill has gone.
func (w *worker) exitReason(used, budget time.Duration) Reason {
	if w.cgroup != "" && w.cgroups.oomKilled(w.cgroup) {
		return ReasonMemory
	}
	st := w.cmd.ProcessState
	if st == nil {
		return ReasonCrash
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		switch ws.Signal() {
		case syscall.SIGXCPU:
			return ReasonCPU
		case syscall.SIGXFSZ:
			return ReasonOutput
		}
	}
	if st.UserTime()+st.SystemTime()-used >= budget {
		return ReasonCPU // the kernel's SIGKILL at RLIMIT_CPU's hard limit
	}
	if w.stderr.contains("out of memory") || w.stderr.contains("cannot allocate memory") {
		return ReasonMemory
	}
	return ReasonCrash
}
