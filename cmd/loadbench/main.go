// Command loadbench compares Markup Room's two API write operations with
// same-work baselines (net/http and pgx doing the product's work: see
// baseline.go) over real TCP on 127.0.0.1, at a fixed concurrency and duration,
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
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
)

// Aims (docs/benchmarks.md).
const (
	aimReplaceRatio = 0.8  // scenario A: product throughput / same-work baseline throughput (issue 19)
	aimRoomRatio    = 0.8  // scenario B
	aimScaling      = 11.0 // 10× the tags costs at most 11× the time
)

// poolSize matches the product's PostgreSQL pool (models.OpenDatabase).
const poolSize = 25

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type options struct {
	c           int
	d, warmup   time.Duration
	rounds      int
	scaleRounds int
	scaleTime   time.Duration
	strict      bool
	cpuprofile  string
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

func bench(ctx context.Context, o options, stdout, stderr io.Writer) (code int, err error) {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "loadbench: "+format+"\n", args...) }

	dbURL, source := benchDatabaseURL()
	created, err := ensureDatabase(ctx, dbURL)
	if err != nil {
		return 1, err
	}
	if created {
		logf("created database %s", redact(dbURL))
	}
	sch, err := openSchemas(ctx, dbURL)
	if err != nil {
		return 1, err
	}
	defer func() {
		names := strings.Join(sch.created, ", ")
		if derr := sch.dropAll(); derr != nil {
			err = errors.Join(err, derr)
		} else if names != "" {
			logf("dropped schemas %s", names)
		}
	}()
	var pgVersion string
	if err := sch.conn.QueryRow(ctx, "SHOW server_version").Scan(&pgVersion); err != nil {
		return 1, err
	}

	// Product: a migrated schema, a tenant, one uploaded PDF, c transactions.
	prodSchema, prodURL, err := sch.create(ctx, "loadbench_product")
	if err != nil {
		return 1, err
	}
	logf("setting up the product in schema %s", prodSchema)
	var prodStmts, baseStmts roundTrips
	prod, err := setupProduct(ctx, prodURL, &prodStmts)
	if err != nil {
		return 1, err
	}
	defer prod.close()
	putBody := modelstest.TransactionBody(prod.doc, 1, 25)
	prodTxIDs, err := createTransactions(ctx, prod.store, prod.actor, putBody, o.c)
	if err != nil {
		return 1, err
	}

	// Baselines: the same tables in a schema of their own.
	baseSchema, baseURL, err := sch.create(ctx, "loadbench_baseline")
	if err != nil {
		return 1, err
	}
	logf("setting up the baselines in schema %s", baseSchema)
	pool, baseTxIDs, err := setupBaseline(ctx, sch, prodSchema, baseSchema, baseURL, prod, putBody, o.c, poolSize, &baseStmts)
	if err != nil {
		return 1, err
	}
	defer pool.Close()

	router, err := prod.router()
	if err != nil {
		return 1, err
	}
	prodSrv := httptest.NewServer(router)
	defer prodSrv.Close()
	same := sameWork{pool: pool, store: prod.store}
	mux := http.NewServeMux()
	mux.Handle("PUT /api/v1/transactions/{id}", &replaceBaseline{same})
	mux.Handle("POST /api/v1/markup-rooms", &roomBaseline{same})
	baseSrv := httptest.NewServer(mux)
	defer baseSrv.Close()
	client := newClient(o.c)
	defer client.CloseIdleConnections()

	logf("timing ReplaceTransaction at 250 and 2,500 tags (%d rounds of %s per size)", o.scaleRounds, o.scaleTime)
	sc, err := measureScaling(ctx, prod, o.scaleRounds, o.scaleTime)
	if err != nil {
		return 1, fmt.Errorf("scaling timing: %w", err)
	}

	put := func(base string, ids []string, token string) request {
		return func(ctx context.Context, w int) (*http.Request, error) {
			return jsonRequest(ctx, http.MethodPut, base+"/api/v1/transactions/"+ids[w%len(ids)], token, putBody)
		}
	}
	postRoom := func(base, token string, body []byte) request {
		return func(ctx context.Context, _ int) (*http.Request, error) {
			return jsonRequest(ctx, http.MethodPost, base+"/api/v1/markup-rooms", token, body)
		}
	}
	rBody := roomBody(prod.sender.ID, productBaseURL+prod.doc.LocationPath())
	runs := []*loadRun{
		{scenario: "A  PUT /api/v1/transactions/{id}", server: "product: real router + store", file: "A-product", req: put(prodSrv.URL, prodTxIDs, prod.token), stmts: &prodStmts},
		{scenario: "A  PUT /api/v1/transactions/{id}", server: "same-work baseline: net/http + pgx", file: "A-baseline", req: put(baseSrv.URL, baseTxIDs, prod.token), stmts: &baseStmts},
		{scenario: "B  POST /api/v1/markup-rooms", server: "product: real router + store", file: "B-product", req: postRoom(prodSrv.URL, prod.token, rBody), stmts: &prodStmts},
		{scenario: "B  POST /api/v1/markup-rooms", server: "same-work baseline: net/http + pgx", file: "B-baseline", req: postRoom(baseSrv.URL, prod.token, rBody), stmts: &baseStmts},
	}
	// Each scenario warms both servers up, then measures them in
	// alternating slices (product, baseline, baseline, product, …) so that
	// slow drifts of a shared machine weigh on both alike.
	slice := o.d / time.Duration(o.rounds)
	for _, pair := range [][2]*loadRun{{runs[0], runs[1]}, {runs[2], runs[3]}} {
		for _, r := range pair {
			r.stmtsBefore = r.stmts.load()
			logf("%s — %s: warm-up %s", r.scenario, r.server, o.warmup)
			r.res.addWarmup(phase(ctx, client, o.c, o.warmup, r.req))
		}
		for round := range o.rounds {
			order := pair
			if round%2 == 1 {
				order[0], order[1] = pair[1], pair[0]
			}
			for _, r := range order {
				logf("%s — %s: %d workers for %s (slice %d of %d)", r.scenario, r.server, o.c, slice, round+1, o.rounds)
				stopProfile := func() {}
				if o.cpuprofile != "" {
					stopProfile = startProfile(filepath.Join(o.cpuprofile, fmt.Sprintf("%s-%d.pprof", r.file, round+1)), logf)
				}
				start := sampleCPU()
				r.res.add(phase(ctx, client, o.c, slice, r.req))
				r.cpu = r.cpu.add(cpuSince(start), round == 0)
				stopProfile()
				if err := ctx.Err(); err != nil {
					return 1, err
				}
			}
		}
		for _, r := range pair {
			r.res.finish()
			if n := r.res.Requests + r.res.WarmupOK + r.res.WarmupErr; n > 0 {
				r.stmtsPerReq = float64(r.stmts.load()-r.stmtsBefore) / float64(n)
			}
		}
	}

	// C: uploads of an ordinary 3-page PDF, timed on the product alone.
	uploadPDF, err := pdf.Sample(3, "Bench")
	if err != nil {
		return 1, err
	}
	logf("C  POST /api/v1/documents/upload — product: warm-up %s, then %d workers for %s", o.warmup, o.uploadC, o.uploadD)
	uploads := measureUploads(ctx, client, prodSrv.URL, prod.token, uploadPDF, o.uploadC, o.warmup, o.uploadD)
	if err := ctx.Err(); err != nil {
		return 1, err
	}

	// Check that every server did the work it answered 2xx for.
	var problems []string
	check := func(what string, got, want int64) {
		if got != want {
			problems = append(problems, fmt.Sprintf("%s: %d in the database, %d expected", what, got, want))
		}
	}
	okAll := func(r *result) int64 { return int64(r.OK + r.WarmupOK) }
	for _, v := range []struct {
		name, schema string
		ids          []string
		r            *result
	}{{"product", prodSchema, prodTxIDs, &runs[0].res}, {"baseline", baseSchema, baseTxIDs, &runs[1].res}} {
		s := pgx.Identifier{v.schema}.Sanitize()
		var replaces, tags int64
		if err := sch.conn.QueryRow(ctx, "SELECT coalesce(sum(version - 1), 0) FROM "+s+".transactions WHERE id = ANY($1)", v.ids).Scan(&replaces); err != nil {
			return 1, err
		}
		if err := sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+s+".transaction_tags WHERE transaction_id = ANY($1)", v.ids).Scan(&tags); err != nil {
			return 1, err
		}
		check("A "+v.name+" replaces", replaces, okAll(v.r))
		check("A "+v.name+" tags", tags, int64(25*len(v.ids)))
	}
	var rooms, baseRooms int64
	if err := sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{prodSchema}.Sanitize()+".markup_rooms").Scan(&rooms); err != nil {
		return 1, err
	}
	if err := sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{baseSchema}.Sanitize()+".markup_rooms").Scan(&baseRooms); err != nil {
		return 1, err
	}
	check("B product rooms", rooms, okAll(&runs[2].res))
	check("B baseline rooms", baseRooms, okAll(&runs[3].res))

	// Report.
	fmt.Fprintf(stdout, "\nMarkup Room loadbench — %d CPUs (GOMAXPROCS %d) shared by the load generator, the servers and PostgreSQL %s\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), pgVersion)
	fmt.Fprintf(stdout, "database %s (from %s)\n", redact(dbURL), source)
	fmt.Fprintf(stdout, "%d workers on one shared keep-alive client over loopback TCP; per server %s warm-up, then %s measured in %d slices alternating with its baseline\n",
		o.c, o.warmup, o.d, o.rounds)
	fmt.Fprintf(stdout, "A: PUT of 1 document × 25 tags × 2 participants (%d bytes); worker i replaces transaction i of %d, so no request waits for another's row lock\n",
		len(putBody), o.c)
	fmt.Fprintf(stdout, "B: POST of a sender, 1 document location, 2 participants (%d bytes)\n\n", len(rBody))

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tserver\trequests\treq/s\tp50\tp99\tround trips/req\tGo CPU/req\tother CPU/req\terrors\t")
	totalErrors := 0
	for _, r := range runs {
		errs := r.res.Errors + r.res.WarmupErr
		totalErrors += errs
		mark := fmt.Sprint(errs)
		if errs > 0 {
			mark += "  <-- ERRORS"
		}
		goCPU, otherCPU := "n/a", "n/a"
		if r.cpu.ok && r.res.Requests > 0 {
			goCPU, otherCPU = ms(r.cpu.self/time.Duration(r.res.Requests)), ms(r.cpu.other/time.Duration(r.res.Requests))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%s\t%s\t%.1f\t%s\t%s\t%s\t\n", r.scenario, r.server, r.res.Requests, r.res.Throughput(),
			ms(r.res.P50), ms(r.res.P99), r.stmtsPerReq, goCPU, otherCPU, mark)
	}
	_ = tw.Flush()
	fmt.Fprintln(stdout, "(round trips/req: statements sent to PostgreSQL per request, BEGIN and COMMIT included, counted by a pgx tracer on each side;\n Go CPU: this process, i.e. server + load generator;")
	fmt.Fprintln(stdout, " other CPU: the rest of the machine, essentially PostgreSQL)")
	var stolen cpuUse
	for i, r := range runs {
		stolen = stolen.add(r.cpu, i == 0)
	}
	if stolen.ok && stolen.all > 0 {
		fmt.Fprintf(stdout, "CPU time stolen by the hypervisor while measuring: %.1f%%\n", 100*float64(stolen.steal)/float64(stolen.all))
	}

	fmt.Fprintf(stdout, "\nC  POST /api/v1/documents/upload, an ordinary 3-page PDF (%d bytes), product only, %d workers for %s:\n", len(uploadPDF), o.uploadC, o.uploadD)
	uploadErrs := uploads.Errors + uploads.WarmupErr
	totalErrors += uploadErrs
	fmt.Fprintf(stdout, "   %d uploads, %.1f/s, p50 %s, p95 %s, p99 %s, %d errors\n", uploads.Requests, uploads.Throughput(), ms(uploads.P50), ms(uploads.P95), ms(uploads.P99), uploadErrs)
	missed := 0
	verdict := func(ok bool, runs ...*loadRun) string {
		for _, r := range runs {
			if r.res.Errors+r.res.WarmupErr > 0 || r.res.OK == 0 {
				return "INVALID (errors)"
			}
		}
		if ok {
			return "met"
		}
		missed++
		return "MISSED"
	}
	ratioA := runs[0].res.Throughput() / max(runs[1].res.Throughput(), 1e-9)
	ratioB := runs[2].res.Throughput() / max(runs[3].res.Throughput(), 1e-9)
	fmt.Fprintln(stdout)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "aim\tmeasured\ttarget\tresult\t")
	fmt.Fprintf(tw, "A  throughput product / baseline\t%.2f\t≥ %.2f\t%s\t\n", ratioA, aimReplaceRatio, verdict(ratioA >= aimReplaceRatio, runs[0], runs[1]))
	fmt.Fprintf(tw, "B  throughput product / baseline\t%.2f\t≥ %.2f\t%s\t\n", ratioB, aimRoomRatio, verdict(ratioB >= aimRoomRatio, runs[2], runs[3]))
	fmt.Fprintf(tw, "ReplaceTransaction 1×2500 / 1×250 tags (PostgreSQL, in-process)\t%.1f×\t≤ %.0f×\t%s\t\n", sc.Ratio(), aimScaling, verdict(sc.Ratio() <= aimScaling))
	_ = tw.Flush()
	fmt.Fprintf(stdout, "   (%s per replace of 2,500 tags over %d replaces, %s per replace of 250 tags over %d replaces; %.0f vs %.0f tags/s)\n",
		ms(sc.largePerOp()), sc.LargeN, ms(sc.smallPerOp()), sc.SmallN,
		float64(sc.LargeTags)/sc.largePerOp().Seconds(), float64(sc.SmallTags)/sc.smallPerOp().Seconds())

	if totalErrors > 0 || len(problems) > 0 {
		fmt.Fprintf(stdout, "\n!!! ERRORS: %d failed requests (warm-up included); the figures above are not valid\n", totalErrors)
		for _, r := range runs {
			for _, s := range r.res.Samples {
				fmt.Fprintf(stdout, "!!!   %s / %s: %s\n", r.scenario, r.server, s)
			}
		}
		for _, s := range uploads.Samples {
			fmt.Fprintf(stdout, "!!!   C  POST /api/v1/documents/upload: %s\n", s)
		}
		for _, p := range problems {
			fmt.Fprintf(stdout, "!!!   check failed: %s\n", p)
		}
		return 1, nil
	}
	fmt.Fprintln(stdout, "\nchecked: every 2xx answer's writes are in the database; no request failed")
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
}
