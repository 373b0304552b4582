package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// soakOptions are the flags of `loadbench soak`.
type soakOptions struct {
	duration time.Duration // the mixed load
	rate     float64       // requests per second, all operations together
	timeout  time.Duration // the whole run, setup and checks included
	drain    time.Duration // how long the outbox may take to drain after the load
	inflight int           // requests in flight at most; a tick finding them all busy is counted as skipped
	bin      string        // a built server binary; empty: go build it
	env      envList       // extra server environment (KEY=VALUE), e.g. retention settings
	// inspect, when set (tests), runs after the report while the server,
	// the receivers and the schema are still there.
	inspect func(ctx context.Context, l *soakLoad)
}

// runSoak is `loadbench soak [flags]`: the real server binary under a mixed
// open-loop load, then the correctness checks (see soak below).
func runSoak(args []string, stdout, stderr io.Writer) int {
	var o soakOptions
	fs := flag.NewFlagSet("loadbench soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.duration, "duration", 2*time.Minute, "how long the mixed load runs")
	fs.Float64Var(&o.rate, "rate", 20, "requests per second, all operations together (open loop: sent on schedule whether or not earlier ones finished)")
	fs.DurationVar(&o.timeout, "timeout", 0, "hard limit on the whole run (default: duration + 5m)")
	fs.DurationVar(&o.drain, "drain", 90*time.Second, "how long the outbox may take to deliver what is queued once the load stops")
	fs.IntVar(&o.inflight, "inflight", 256, "requests in flight at most (a tick that finds no free slot is counted as skipped)")
	fs.Var(&o.env, "env", "an extra KEY=VALUE for the server's environment (repeatable), e.g. -env MARKUPROOM_RETENTION_MESSAGES=1m")
	fs.StringVar(&o.bin, "bin", "", "the server binary to run (default: go build ./cmd/markuproom into a temporary directory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.duration <= 0 || o.rate <= 0 || o.inflight < 1 || o.drain <= 0 || o.timeout < 0 {
		fmt.Fprintln(stderr, "loadbench soak: -duration, -rate, -drain and -inflight must be positive")
		return 2
	}
	if o.timeout == 0 {
		o.timeout = o.duration + 5*time.Minute
	}
	ctx, stop := signalContext()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	failed, err := soak(ctx, o, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "loadbench soak:", err)
		return 1
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// soakEnv is everything one soak run set up.
type soakEnv struct {
	schema        string
	admin         *pgx.Conn // the run's own connection, for the checks
	srv           *serverProc
	token         string
	senderID      int64
	adminEmail    string
	adminPassword string
	hookURL       string // the webhook sink
	sink          *deliveryCounter
	mails         *deliveryCounter
}

// soak sets up a schema, a webhook sink, an SMTP catcher and the server,
// runs the load and the checks, and prints the report. It returns the
// number of failed checks.
func soak(ctx context.Context, o soakOptions, stdout, stderr io.Writer) (failed int, err error) {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "soak: "+format+"\n", args...) }
	r := &soakRig{}
	defer func() { err = errors.Join(err, r.close(logf)) }()
	if err := r.setup(ctx, o, logf); err != nil {
		return 0, err
	}
	addr, err := freeAddr()
	if err != nil {
		return 0, err
	}
	env := r.serverEnv(o, addr)
	e := &soakEnv{schema: r.schema, admin: r.sch.conn, hookURL: r.hook.URL, sink: r.sink, mails: r.mails,
		adminEmail: "admin@soak.example.com", adminPassword: "soak-admin-password-0123"}
	if err := createTenant(ctx, r.bin, env, e); err != nil {
		return 0, err
	}

	logf("starting the server on %s", addr)
	e.srv, err = startServer(ctx, r.bin, env, "http://"+addr)
	if err != nil {
		return 0, err
	}
	defer func() {
		if serr := e.srv.stop(); serr != nil {
			logf("server: %v", serr)
		}
	}()

	l := newSoakLoad(e, o)
	in, drained, err := l.measure(ctx, e, o, logf)
	if err != nil {
		return 0, err
	}
	if in.checks, err = l.check(ctx, drained); err != nil {
		return 0, err
	}
	if l.errors() > 0 {
		out := e.srv.output()
		logf("requests failed; the server's log ends with:\n%s", out[max(0, len(out)-4096):])
	}
	_ = e.admin.QueryRow(ctx, "SHOW server_version").Scan(&in.pgVersion)
	failed = l.report(stdout, in)
	if o.inspect != nil {
		o.inspect(ctx, l)
	}
	return failed, nil
}

// envList is a repeatable KEY=VALUE flag.
type envList []string

func (l *envList) String() string { return strings.Join(*l, " ") }

// Set implements flag.Value.
func (l *envList) Set(v string) error {
	if k, _, ok := strings.Cut(v, "="); !ok || k == "" {
		return fmt.Errorf("%q is not KEY=VALUE", v)
	}
	*l = append(*l, v)
	return nil
}

// signalContext ends on SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// operator runs one operator command of the server binary and decodes its
// --json output into out.
func operator(ctx context.Context, bin string, env []string, stdin string, out any, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("markuproom %s: %w\n%s", strings.Join(args[:2], " "), err, stderr.Bytes())
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("markuproom %s: %w: %s", strings.Join(args[:2], " "), err, b)
	}
	return nil
}

// freeAddr is a loopback address no one listens on (at the time of asking).
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	return addr, ln.Close()
}

// serverProc is the running server binary.
type serverProc struct {
	cmd    *exec.Cmd
	base   string
	out    *bytes.Buffer
	mu     *sync.Mutex
	exited chan struct{}
}

// syncWriter serializes writes to a buffer shared by stdout and stderr.
type syncWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() > 1<<20 {
		return len(p), nil
	}
	return w.buf.Write(p)
}

// sweepsMessages tells whether the run set the server's message retention
// (-env MARKUPROOM_RETENTION_MESSAGES=…): then sent messages may leave the
// outbox before the end, and a delivery of an id no longer in it counts as
// one of those (if it arrived once).
func (o *soakOptions) sweepsMessages() bool {
	for _, kv := range o.env {
		if strings.HasPrefix(kv, "MARKUPROOM_RETENTION_MESSAGES=") {
			return true
		}
	}
	return false
}

// startServer runs `bin serve` with env and waits until /readyz answers 200.
func startServer(ctx context.Context, bin string, env []string, base string) (*serverProc, error) {
	p := &serverProc{cmd: exec.Command(bin, "serve"), base: base, out: &bytes.Buffer{}, mu: &sync.Mutex{}, exited: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	w := syncWriter{mu: p.mu, buf: p.out}
	p.cmd.Stdout, p.cmd.Stderr = w, w
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		select {
		case <-p.exited:
			return nil, fmt.Errorf("the server exited: %s", p.output())
		case <-ctx.Done():
			_ = p.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = p.stop()
			return nil, fmt.Errorf("the server was not ready within a minute: %s", p.output())
		}
	}
}

func (p *serverProc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// stop asks the server to shut down (SIGINT), and kills it after 15 s.
func (p *serverProc) stop() error {
	select {
	case <-p.exited:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
		return nil
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.exited
		return errors.New("did not stop within 15 s of SIGINT; killed")
	}
}

var vmLine = regexp.MustCompile(`(?m)^(VmHWM|VmRSS):\s+(\d+) kB`)

// memory is the server's peak resident set (VmHWM) and its current one
// (VmRSS), in bytes, from /proc (0 where there is no /proc).
func (p *serverProc) memory() (peak, rss int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	for _, m := range vmLine.FindAllSubmatch(b, -1) {
		var kb int64
		_, _ = fmt.Sscan(string(m[2]), &kb)
		if string(m[1]) == "VmHWM" {
			peak = kb << 10
		} else {
			rss = kb << 10
		}
	}
	return peak, rss
}

// deliveryCounter counts deliveries by message id.
type deliveryCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func newDeliveryCounter() *deliveryCounter { return &deliveryCounter{n: map[string]int{}} }

func (d *deliveryCounter) add(id string) {
	d.mu.Lock()
	d.n[id]++
	d.mu.Unlock()
}

func (d *deliveryCounter) snapshot() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]int, len(d.n))
	for k, v := range d.n {
		out[k] = v
	}
	return out
}

var messageIDHeader = regexp.MustCompile(`(?im)^Message-Id:\s*<([^@>\s]+)@`)

// messageID is the outbox id in an e-mail's Message-ID (<id@domain>).
func messageID(data []byte) string {
	if m := messageIDHeader.FindSubmatch(data); m != nil {
		return string(m[1])
	}
	return ""
}
