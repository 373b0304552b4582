package pdfworker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"syscall"
	"time"
)

// EnvWorker is set in the environment of every process a Pool starts; a
// binary that finds it set serves jobs (Main) instead of doing what it
// otherwise does.
const EnvWorker = "MARKUPROOM_PDF_WORKER"

// Handler does one job inside a worker. It returns the job's result, which
// is sent as JSON, or an error: a *JobError reaches the caller as it is,
// any other error as code CodeFailed.
type Handler func(ctx context.Context, req Request) (any, error)

// Codes of failures the worker itself reports (a Handler has its own).
const (
	// CodeFailed: the handler failed with an error that is not a *JobError.
	CodeFailed = "failed"
	// CodePanic: the handler panicked.
	CodePanic = "panic"
	// CodeBadRequest: the request could not be decoded.
	CodeBadRequest = "bad_request"
)

// IsWorker reports whether this process was started by a Pool.
func IsWorker() bool { return os.Getenv(EnvWorker) != "" }

// Main serves jobs on the standard input and output with handle and exits
// the process when the input ends. Anything else the process writes to its
// standard output goes to its standard error instead, so no stray print can
// break a frame.
func Main(handle Handler) {
	out := os.Stdout
	if fd, err := syscall.Dup(1); err == nil {
		out = os.NewFile(uintptr(fd), "pdf-worker-frames")
		_ = syscall.Dup2(2, 1)
	}
	if err := Serve(os.Stdin, out, handle); err != nil {
		fmt.Fprintln(os.Stderr, "pdf worker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Serve announces itself on out, then runs each job read from in, one at a
// time, answering on out, until in ends.
func Serve(in io.Reader, out io.Writer, handle Handler) error {
	bw := bufio.NewWriter(out)
	if err := writeFrame(bw, hello{PID: os.Getpid()}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	br := bufio.NewReader(in)
	for {
		b, err := readFrame(br, maxRequestBytes)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		// An empty frame says the job was read: a worker that dies before
		// it (killed while idle) never had the job, which the pool then
		// gives to another worker.
		if err := writeAck(bw); err != nil {
			return err
		}
		a := serveOne(b, handle)
		if err := writeFrame(bw, a); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		releaseMemory()
	}
}

// heapKept is how much heap a worker may keep between jobs before it hands
// its memory back to the system.
const heapKept = 32 << 20

// releaseMemory hands what a large job held back to the system, so that the
// parent's reading of the resident set measures the next job alone. A small
// heap is left as it is: forcing a collection and a scavenge costs ~10 ms,
// several times an ordinary job's own work.
func releaseMemory() {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	var held uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			held += x.Value.Uint64()
		}
	}
	if held > heapKept {
		debug.FreeOSMemory()
	}
}

// serveOne decodes and runs one request.
func serveOne(b []byte, handle Handler) (a answer) {
	var req Request
	if err := json.Unmarshal(b, &req); err != nil {
		return answer{Error: &JobError{Code: CodeBadRequest, Message: err.Error()}}
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			a = answer{Error: &JobError{Code: CodePanic, Message: fmt.Sprint(p)}}
		}
	}()
	start := time.Now()
	res, err := handle(ctx, req)
	if err != nil {
		var je *JobError
		if errors.As(err, &je) {
			return answer{Error: je}
		}
		return answer{Error: &JobError{Code: CodeFailed, Message: fmt.Sprintf("%v (after %s)", err, time.Since(start).Round(time.Millisecond))}}
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return answer{Error: &JobError{Code: CodeFailed, Message: "encode the result: " + err.Error()}}
	}
	return answer{Result: raw}
}
