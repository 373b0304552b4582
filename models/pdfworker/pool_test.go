package pdfworker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdfworker"
)

// TestMain makes this test binary the workers' binary too: started by a
// Pool, it serves the jobs of testHandler instead of running the tests.
func TestMain(m *testing.M) {
	if pdfworker.IsWorker() {
		pdfworker.Main(testHandler)
	}
	os.Exit(m.Run())
}

// testHandler's jobs misbehave in each of the ways the limits stop.
func testHandler(ctx context.Context, req pdfworker.Request) (any, error) {
	var n int64
	if len(req.Args) > 0 {
		_ = json.Unmarshal(req.Args, &n)
	}
	switch req.Kind {
	case "pid":
		return os.Getpid(), nil
	case "alloc": // hold n MiB, touched, until the job's end
		held := make([][]byte, 0, n)
		for range n {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			held = append(held, b)
		}
		time.Sleep(500 * time.Millisecond)
		return len(held), nil
	case "spin": // use n seconds of the processor, deaf to the context
		x := 0
		for cpuUsed() < time.Duration(n)*time.Second {
			for range 1_000_000 {
				x++
			}
		}
		return x, nil
	case "sleep": // take n seconds, deaf to the context
		time.Sleep(time.Duration(n) * time.Second)
		return "slept", nil
	case "big": // answer n bytes
		return strings.Repeat("x", int(n)), nil
	case "write": // write n bytes to the output file
		err := os.WriteFile(req.Output, make([]byte, n), 0o600)
		if err != nil {
			return nil, &pdfworker.JobError{Code: "write_failed", Message: err.Error()}
		}
		return n, nil
	case "pidsleep": // write the worker's pid to the output file, then take n seconds
		if err := os.WriteFile(req.Output, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			return nil, err
		}
		time.Sleep(time.Duration(n) * time.Second)
		return "slept", nil
	case "exit":
		os.Exit(3)
	case "panic":
		panic("the parser fell over")
	case "refuse":
		return nil, &pdfworker.JobError{Code: "not_pdf", Args: json.RawMessage(`{"page":5}`)}
	}
	return nil, fmt.Errorf("unknown job %q", req.Kind)
}

func job(kind string, arg int64) pdfworker.Request {
	return pdfworker.Request{Kind: kind, Args: json.RawMessage(strconv.FormatInt(arg, 10))}
}

func newPool(t *testing.T, o pdfworker.Options) *pdfworker.Pool {
	t.Helper()
	p := pdfworker.New(o)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func pid(t *testing.T, p *pdfworker.Pool) int {
	t.Helper()
	raw, err := p.Do(context.Background(), job("pid", 0))
	if err != nil {
		t.Fatalf("pid job: %v", err)
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		t.Fatalf("pid answer %q: %v", raw, err)
	}
	return n
}

func limitReason(t *testing.T, err error) pdfworker.Reason {
	t.Helper()
	var le *pdfworker.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T), want a *LimitError", err, err)
	}
	return le.Reason
}

func TestJobsRunInAWarmWorkerOfTheirOwn(t *testing.T) {
	p := newPool(t, pdfworker.Options{Size: 1})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := pid(t, p)
	if first == os.Getpid() {
		t.Fatal("the job ran in the test's own process")
	}
	if again := pid(t, p); again != first {
		t.Errorf("second job ran in process %d, want the warm worker %d", again, first)
	}
	if s := p.Stats(); s.Started != 1 || s.Jobs != 2 {
		t.Errorf("stats %+v, want 1 start and 2 jobs", s)
	}
}

func TestAJobsOwnRefusalReachesTheCallerAndTheWorkerStays(t *testing.T) {
	p := newPool(t, pdfworker.Options{Size: 1})
	before := pid(t, p)
	_, err := p.Do(context.Background(), job("refuse", 0))
	var je *pdfworker.JobError
	if !errors.As(err, &je) || je.Code != "not_pdf" || string(je.Args) != `{"page":5}` {
		t.Fatalf("error %v, want the job's not_pdf with its arguments", err)
	}
	_, err = p.Do(context.Background(), job("panic", 0))
	if !errors.As(err, &je) || je.Code != pdfworker.CodePanic || !strings.Contains(je.Message, "fell over") {
		t.Fatalf("error %v, want a panic code", err)
	}
	if after := pid(t, p); after != before {
		t.Errorf("worker %d replaced by %d after refusals; it should stay", before, after)
	}
}

func TestMemoryLimitKillsTheWorkerNotTheServer(t *testing.T) {
	for _, noCgroup := range []bool{false, true} {
		t.Run(fmt.Sprintf("watchdog-only=%v", noCgroup), func(t *testing.T) {
			p := newPool(t, pdfworker.Options{Size: 1, Memory: 200 << 20, NoCgroup: noCgroup})
			if !noCgroup && !p.Cgroups() {
				t.Log("no writable memory cgroup here: the watchdog is the wall in both runs")
			}
			before := pid(t, p)
			rss0 := ownRSS(t)
			_, err := p.Do(context.Background(), job("alloc", 1200))
			if r := limitReason(t, err); r != pdfworker.ReasonMemory {
				t.Fatalf("reason %s, want memory (%v)", r, err)
			}
			if grew := ownRSS(t) - rss0; grew > 64<<20 {
				t.Errorf("the test process grew by %d MB", grew>>20)
			}
			if after := pid(t, p); after == before {
				t.Error("the killed worker answered again")
			}
			if got := p.Stats().Killed[pdfworker.ReasonMemory]; got != 1 {
				t.Errorf("memory kills %d, want 1", got)
			}
		})
	}
}

func TestCPUAndWallClockLimits(t *testing.T) {
	t.Run("cpu", func(t *testing.T) {
		// The job would use 20 s of CPU; the limit is 1 s. One second of
		// CPU is about a second idle and many on a loaded machine (at load
		// 40 on two cores, 20 s and more), so the wall clock's limit is far
		// away: the reason says the CPU limit came first.
		p := newPool(t, pdfworker.Options{Size: 1, CPU: time.Second, Timeout: 5 * time.Minute})
		_, err := p.Do(context.Background(), job("spin", 20))
		if r := limitReason(t, err); r != pdfworker.ReasonCPU {
			t.Fatalf("reason %s, want cpu (%v)", r, err)
		}
	})
	t.Run("time", func(t *testing.T) {
		p := newPool(t, pdfworker.Options{Size: 1, Timeout: 500 * time.Millisecond})
		start := time.Now()
		_, err := p.Do(context.Background(), job("sleep", 30))
		if r := limitReason(t, err); r != pdfworker.ReasonTime {
			t.Fatalf("reason %s, want time (%v)", r, err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("stopped after %s", took)
		}
	})
}

func TestOutputLimits(t *testing.T) {
	p := newPool(t, pdfworker.Options{Size: 1, MaxOutput: 1 << 20})
	if _, err := p.Do(context.Background(), job("big", 1000)); err != nil {
		t.Fatalf("a small answer: %v", err)
	}
	_, err := p.Do(context.Background(), job("big", 2<<20))
	if r := limitReason(t, err); r != pdfworker.ReasonOutput {
		t.Fatalf("reason %s, want output (%v)", r, err)
	}
	out := t.TempDir() + "/out"
	req := job("write", 2<<20)
	req.Output = out
	_, err = p.Do(context.Background(), req)
	var je *pdfworker.JobError
	var le *pdfworker.LimitError
	if !errors.As(err, &je) && !errors.As(err, &le) {
		t.Fatalf("writing 2 MiB past a 1 MiB limit: %v, want a refusal", err)
	}
	if fi, err := os.Stat(out); err == nil && fi.Size() > 1<<20 {
		t.Errorf("the worker wrote %d bytes", fi.Size())
	}
}

func TestAWorkerThatDiesMidJobIsReplaced(t *testing.T) {
	p := newPool(t, pdfworker.Options{Size: 1})
	_, err := p.Do(context.Background(), job("exit", 0))
	if r := limitReason(t, err); r != pdfworker.ReasonCrash {
		t.Fatalf("reason %s, want crash", r)
	}
	done := make(chan error, 1)
	req := job("pidsleep", 10)
	req.Output = t.TempDir() + "/pid"
	go func() {
		_, err := p.Do(context.Background(), req)
		done <- err
	}()
	var victim int
	for deadline := time.Now().Add(5 * time.Second); victim == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(req.Output)
		victim, _ = strconv.Atoi(string(b))
	}
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if r := limitReason(t, err); r != pdfworker.ReasonCrash {
			t.Fatalf("reason %s, want crash", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the job of a killed worker did not end")
	}
	if next := pid(t, p); next == victim {
		t.Error("the killed worker answered")
	}
}

// TestAJobGoesToAnotherWorkerWhenItsWorkerWentIdle: a warm worker killed
// while it waited for work (by an operator, or the kernel) never read the
// next job, so that job is given to a fresh worker instead of failing. The
// worker is stopped first, so that the pool still takes it for alive and
// sends it the job, and killed while the job waits unread.
func TestAJobGoesToAnotherWorkerWhenItsWorkerWentIdle(t *testing.T) {
	p := newPool(t, pdfworker.Options{Size: 1})
	victim := pid(t, p)
	if err := syscall.Kill(victim, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// A stop is delivered, not done, when kill returns: the job must not
	// reach a worker that can still answer it.
	for deadline := time.Now().Add(5 * time.Second); processState(victim) != "T"; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("worker %d not stopped: state %q", victim, processState(victim))
		}
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		_ = syscall.Kill(victim, syscall.SIGKILL)
	}()
	if next := pid(t, p); next == victim {
		t.Fatal("the killed worker answered")
	}
	s := p.Stats()
	if s.Jobs != 2 {
		t.Errorf("stats %+v, want 2 jobs", s)
	}
	for reason, n := range s.Killed {
		if n != 0 {
			t.Errorf("the idle worker's death was counted as a job's kill (%s: %d)", reason, n)
		}
	}
}

func TestBusyCancelledAndRecycled(t *testing.T) {
	p := newPool(t, pdfworker.Options{Size: 1, Wait: 100 * time.Millisecond, MaxJobs: 2})
	first := pid(t, p)
	if second := pid(t, p); second != first {
		t.Fatalf("second job in %d, want %d", second, first)
	}
	if third := pid(t, p); third == first {
		t.Error("a worker did a third job past MaxJobs 2")
	}
	started := make(chan struct{})
	go func() {
		close(started)
		_, _ = p.Do(context.Background(), job("sleep", 1))
	}()
	<-started
	time.Sleep(100 * time.Millisecond)
	_, err := p.Do(context.Background(), job("pid", 0))
	if !errors.Is(err, pdfworker.ErrBusy) {
		t.Errorf("with the one worker busy: %v, want ErrBusy", err)
	}
	time.Sleep(1500 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = p.Do(ctx, job("sleep", 10))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a job whose caller left: %v, want the context's error", err)
	}
	pid(t, p)
}

// processState is the state letter of process pid in /proc ("T": stopped).
func processState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 || i+3 > len(b) {
		return ""
	}
	return string(b[i+2 : i+3])
}

// ownRSS is this process's resident set.
func ownRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc here")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// BenchmarkJobRoundTrip is the pool's own cost per job: a job that does
// nothing, sent to a warm worker and answered (the frames, the limits set
// before the job, the worker handing its memory back after it).
func BenchmarkJobRoundTrip(b *testing.B) {
	p := pdfworker.New(pdfworker.Options{Size: 1})
	defer p.Close()
	if err := p.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := p.Do(ctx, job("pid", 0)); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuUsed is the processor time this process has used, user and system.
func cpuUsed() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
