package main

import (
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"
)

// printSetup prints what was measured: the machine, the database, the load
// and the bodies of A and B (rBodyLen bytes).
func printSetup(stdout io.Writer, o options, e *benchEnv, rBodyLen int) {
	fmt.Fprintf(stdout, "\nMarkup Room loadbench — %d CPUs (GOMAXPROCS %d) shared by the load generator, the servers and PostgreSQL %s\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), e.pgVersion)
	fmt.Fprintf(stdout, "database %s (from %s)\n", redact(e.dbURL), e.source)
	fmt.Fprintf(stdout, "%d workers on one shared keep-alive client over loopback TCP; per server %s warm-up, then %s measured in %d slices alternating with its baseline\n",
		o.c, o.warmup, o.d, o.rounds)
	fmt.Fprintf(stdout, "A: PUT of %d documents × %d tags × 2 participants (%d bytes); worker i replaces transaction i of %d (on each side), so no request waits for another's row lock\n",
		putDocs, putTagsPerDoc, len(e.putBody), o.c)
	fmt.Fprintf(stdout, "B: POST of a sender, 1 document location, 2 participants (%d bytes)\n\n", rBodyLen)
}

// printRuns prints the table of A and B and the CPU time stolen while
// measuring. It returns the failed requests of all runs, warm-ups included.
func printRuns(stdout io.Writer, runs []*loadRun) (totalErrors int) {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tserver\trequests\treq/s\tp50\tp99\tround trips/req\tGo CPU/req\tother CPU/req\tallocs/req\tKiB/req\terrors\t")
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
		allocs, kib := "n/a", "n/a"
		if n := uint64(r.res.Requests); n > 0 {
			allocs, kib = fmt.Sprint(r.mallocs/n), fmt.Sprintf("%.1f", float64(r.allocBytes)/float64(n)/1024)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%s\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\t\n", r.scenario, r.server, r.res.Requests, r.res.Throughput(),
			ms(r.res.P50), ms(r.res.P99), r.stmtsPerReq, goCPU, otherCPU, allocs, kib, mark)
	}
	_ = tw.Flush()
	fmt.Fprintln(stdout, "(round trips/req: statements sent to PostgreSQL per request, BEGIN and COMMIT included, counted by a pgx tracer on each side;\n Go CPU: this process, i.e. server + load generator;")
	fmt.Fprintln(stdout, " other CPU: the rest of the machine, essentially PostgreSQL; allocs and KiB: this process's heap allocations per request)")
	var stolen cpuUse
	for i, r := range runs {
		stolen = stolen.add(r.cpu, i == 0)
	}
	if stolen.ok && stolen.all > 0 {
		fmt.Fprintf(stdout, "CPU time stolen by the hypervisor while measuring: %.1f%%\n", 100*float64(stolen.steal)/float64(stolen.all))
	}
	return totalErrors
}

// printAims prints the uploads of C (of a pdfLen-byte PDF), then each aim
// against its measure. It returns the failed uploads, the aims missed and
// A's product / raw-pgx throughput ratio.
func printAims(stdout io.Writer, o options, runs *loadGroups, sc scaling, uploads result, pdfLen int) (uploadErrs, missed int, rawRatio float64) {
	if !o.onlyA {
		fmt.Fprintf(stdout, "\nC  POST /api/v1/documents/upload, an ordinary 3-page PDF (%d bytes), product only, %d workers for %s:\n", pdfLen, o.uploadC, o.uploadD)
		uploadErrs = uploads.Errors + uploads.WarmupErr
		fmt.Fprintf(stdout, "   %d uploads, %.1f/s, p50 %s, p95 %s, p99 %s, %d errors\n", uploads.Requests, uploads.Throughput(), ms(uploads.P50), ms(uploads.P95), ms(uploads.P99), uploadErrs)
	}
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
	ratio := func(a, b *loadRun) float64 { return a.res.Throughput() / max(b.res.Throughput(), 1e-9) }
	ratioA, rawRatio := ratio(runs.aProd, runs.aSame), ratio(runs.aProd, runs.aRaw)
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "aim\tmeasured\ttarget\tresult\t")
	fmt.Fprintf(tw, "A  throughput product / raw pgx (issue 38; fails under %.2f)\t%.2f\t≥ %.2f\t%s\t\n", o.minRawRatio, rawRatio, aimRawRatio, verdict(rawRatio >= aimRawRatio, runs.aProd, runs.aRaw))
	fmt.Fprintf(tw, "A  throughput product / same-work baseline\t%.2f\t≥ %.2f\t%s\t\n", ratioA, aimReplaceRatio, verdict(ratioA >= aimReplaceRatio, runs.aProd, runs.aSame))
	if o.onlyA {
		_ = tw.Flush()
		return uploadErrs, missed, rawRatio
	}
	ratioB := ratio(runs.bProd, runs.bSame)
	fmt.Fprintf(tw, "B  throughput product / same-work baseline\t%.2f\t≥ %.2f\t%s\t\n", ratioB, aimRoomRatio, verdict(ratioB >= aimRoomRatio, runs.bProd, runs.bSame))
	fmt.Fprintf(tw, "ReplaceTransaction 1×2500 / 1×250 tags (PostgreSQL, in-process)\t%.1f×\t≤ %.0f×\t%s\t\n", sc.Ratio(), aimScaling, verdict(sc.Ratio() <= aimScaling))
	_ = tw.Flush()
	fmt.Fprintf(stdout, "   (%s per replace of 2,500 tags over %d replaces, %s per replace of 250 tags over %d replaces; %.0f vs %.0f tags/s)\n",
		ms(sc.largePerOp()), sc.LargeN, ms(sc.smallPerOp()), sc.SmallN,
		float64(sc.LargeTags)/sc.largePerOp().Seconds(), float64(sc.SmallTags)/sc.smallPerOp().Seconds())
	return uploadErrs, missed, rawRatio
}

// printFailures says the figures are not valid and lists the failed
// requests' samples and the failed checks.
func printFailures(stdout io.Writer, totalErrors int, runs []*loadRun, uploads result, problems []string) {
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
}
