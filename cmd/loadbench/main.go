// Command loadbench compares Markup Room's two API write operations with
// same-work baselines (net/http and pgx doing the product's work: see
// baseline.go), and operation A with raw pgx writing the same rows and
// nothing else (rawpgx.go), over real TCP on 127.0.0.1, at a fixed concurrency and duration,
// and times Store.ReplaceTransaction at 250 and 2,500 tags. It needs
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/markuproom_bench (created when
// missing). Everything it writes lives in schemas of its own that it drops
// at the end. See docs/benchmarks.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdfjob"
)

// Aims (docs/benchmarks.md).
const (
	aimReplaceRatio = 0.8  // scenario A: product throughput / same-work baseline throughput (issue 19)
	aimRawRatio     = 0.5  // scenario A: product throughput / raw-pgx throughput (issue 38)
	floorRawRatio   = 0.45 // under it loadbench fails (exit 4) whatever -strict says (issue 38, "kept there")
	aimRoomRatio    = 0.8  // scenario B
	aimScaling      = 11.0 // 10× the tags costs at most 11× the time
)

// poolSize matches the product's PostgreSQL pool (models.OpenDatabase).
const poolSize = 25

func main() {
	pdfjob.ServeIfWorker() // its store's PDF workers are this binary too
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	c           int
	d, warmup   time.Duration
	rounds      int
	scaleRounds int
	scaleTime   time.Duration
	strict      bool
	cpuprofile  string
	// allocprofile is where allocation profiles of each measured slice go.
	allocprofile string
	// onlyA measures scenario A alone (no scaling timing, no B, no C).
	onlyA       bool
	minRawRatio float64
	uploadC     int
	uploadD     time.Duration
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "soak" {
		return runSoak(args[1:], stdout, stderr)
	}
	var o options
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.c, "c", 8, "concurrent workers per run (each with its own keep-alive connection)")
	fs.DurationVar(&o.d, "d", 10*time.Second, "measured duration of each run")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured warm-up of each server")
	fs.IntVar(&o.rounds, "rounds", 2, "slices each run's -d is measured in, alternating product and baseline")
	fs.IntVar(&o.scaleRounds, "scale-rounds", 3, "alternating rounds of the 250 vs 2,500 tag timing")
	fs.DurationVar(&o.scaleTime, "scale-time", time.Second, "time spent on each size in each round of the scaling timing")
	fs.BoolVar(&o.strict, "strict", false, "exit with status 3 when an aim is missed")
	fs.IntVar(&o.uploadC, "upload-c", 2, "concurrent workers of the upload timing (scenario C; the server's PDF slots by default)")
	fs.DurationVar(&o.uploadD, "upload-d", 5*time.Second, "measured duration of the upload timing (scenario C)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of each measured run (whole process) into this directory")
	fs.StringVar(&o.allocprofile, "allocprofile", "", "write allocation profiles of each measured run (whole process; before and after, for pprof -diff_base) into this directory")
	fs.BoolVar(&o.onlyA, "only-a", false, "measure scenario A alone (no scaling timing, no B, no C): for profiles")
	fs.Float64Var(&o.minRawRatio, "min-raw-ratio", floorRawRatio, "exit with status 4 when A's product / raw-pgx throughput is under this")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.c < 1 || o.d <= 0 || o.rounds < 1 || o.warmup < 0 || o.scaleRounds < 1 || o.scaleTime <= 0 || o.uploadC < 1 || o.uploadD <= 0 {
		fmt.Fprintln(stderr, "loadbench: -c, -d, -rounds, -scale-rounds, -scale-time, -upload-c and -upload-d must be positive, -warmup not negative")
		return 2
	}
	gin.SetMode(gin.ReleaseMode)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	code, err := bench(ctx, o, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "loadbench:", err)
		return 1
	}
	return code
}

// bench sets up the product and the baselines, times the replace's
// scaling, loads A and B and times C, checks the writes and prints the
// report. It returns the exit code: 1 when a request or a check failed, 4
// when A's product / raw-pgx ratio is under -min-raw-ratio, 3 when an aim is
// missed under -strict.
func bench(ctx context.Context, o options, stdout, stderr io.Writer) (code int, err error) {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "loadbench: "+format+"\n", args...) }
	e := &benchEnv{}
	defer func() { err = errors.Join(err, e.close(logf)) }()
	if err := e.setup(ctx, o, logf); err != nil {
		return 1, err
	}

	var sc scaling
	if !o.onlyA {
		logf("timing ReplaceTransaction at 250 and 2,500 tags (%d rounds of %s per size)", o.scaleRounds, o.scaleTime)
		if sc, err = measureScaling(ctx, e.prod, o.scaleRounds, o.scaleTime); err != nil {
			return 1, fmt.Errorf("scaling timing: %w", err)
		}
	}
	rBody := roomBody(e.prod.sender.ID, productBaseURL+e.prod.doc.LocationPath())
	runs := e.loadRuns(rBody, o.onlyA)
	if err := measureGroups(ctx, o, e.client, runs.groups(), logf); err != nil {
		return 1, err
	}

	// C: uploads of an ordinary 3-page PDF, timed on the product alone.
	var uploads result
	var uploadPDF []byte
	if !o.onlyA {
		if uploadPDF, err = pdf.Sample(3, "Bench"); err != nil {
			return 1, err
		}
		logf("C  POST /api/v1/documents/upload — product: warm-up %s, then %d workers for %s", o.warmup, o.uploadC, o.uploadD)
		uploads = measureUploads(ctx, e.client, e.prodSrv.URL, e.prod.token, uploadPDF, o.uploadC, o.warmup, o.uploadD)
		if err := ctx.Err(); err != nil {
			return 1, err
		}
	}

	problems, err := e.checkWrites(ctx, runs)
	if err != nil {
		return 1, err
	}
	printSetup(stdout, o, e, len(rBody))
	totalErrors := printRuns(stdout, runs.all())
	uploadErrs, missed, rawRatio := printAims(stdout, o, runs, sc, uploads, len(uploadPDF))
	totalErrors += uploadErrs
	if totalErrors > 0 || len(problems) > 0 {
		printFailures(stdout, totalErrors, runs.all(), uploads, problems)
		return 1, nil
	}
	fmt.Fprintln(stdout, "\nchecked: every 2xx answer's writes are in the database; no request failed")
	if rawRatio < o.minRawRatio {
		fmt.Fprintf(stdout, "\n!!! FAILED: A's product / raw-pgx throughput is %.2f, under the floor of %.2f (issue 38; docs/benchmarks.md, \"Where the time goes\")\n", rawRatio, o.minRawRatio)
		fmt.Fprintf(stderr, "loadbench: FAILED: A product / raw pgx = %.2f < %.2f\n", rawRatio, o.minRawRatio)
		return 4, nil
	}
	if missed > 0 {
		fmt.Fprintf(stdout, "%d aim(s) MISSED — see docs/benchmarks.md for where the time goes\n", missed)
		if o.strict {
			return 3, nil
		}
	}
	return 0, nil
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

// startProfile starts a CPU profile of the whole process (load generator
// included) into path and returns the function that ends it.
func startProfile(path string, logf func(string, ...any)) func() {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		logf("cpuprofile: %v", err)
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		logf("cpuprofile: %v", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		logf("cpuprofile: %v", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}

// loadRun is the load against one server of one scenario.
type loadRun struct {
	scenario, server, file string
	req                    request
	stmts                  *roundTrips
	stmtsBefore            int64
	stmtsPerReq            float64
	res                    result
	cpu                    cpuUse
	// mallocs and allocBytes are the process's allocations while measured.
	mallocs, allocBytes uint64
}

// writeAllocs writes the process's allocation profile (as of a garbage
// collection run first, since the profile is updated by collections) to path.
func writeAllocs(path string, logf func(string, ...any)) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		logf("allocprofile: %v", err)
		return
	}
	f, err := os.Create(path)
	if err != nil {
		logf("allocprofile: %v", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		logf("allocprofile: %v", err)
	}
}
