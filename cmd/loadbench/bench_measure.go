package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// measureGroups runs each scenario's group (the product and its
// baselines): every server warmed up, then measured in alternating slices
// (product, baselines, then the baselines reversed, product, …) so that
// slow drifts of a shared machine weigh on all alike.
func measureGroups(ctx context.Context, o options, client *http.Client, groups [][]*loadRun, logf func(string, ...any)) error {
	slice := o.d / time.Duration(o.rounds)
	for _, group := range groups {
		for _, r := range group {
			r.stmtsBefore = r.stmts.load()
			logf("%s — %s: warm-up %s", r.scenario, r.server, o.warmup)
			r.res.addWarmup(phase(ctx, client, o.c, o.warmup, r.req))
		}
		for round := range o.rounds {
			order := slices.Clone(group)
			if round%2 == 1 {
				slices.Reverse(order)
			}
			for _, r := range order {
				logf("%s — %s: %d workers for %s (slice %d of %d)", r.scenario, r.server, o.c, slice, round+1, o.rounds)
				stopProfile := startProfiles(o, fmt.Sprintf("%s-%d", r.file, round+1), logf)
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				start := sampleCPU()
				p := phase(ctx, client, o.c, slice, r.req)
				r.cpu = r.cpu.add(cpuSince(start), round == 0)
				runtime.ReadMemStats(&m1)
				stopProfile()
				r.res.add(p)
				r.mallocs += m1.Mallocs - m0.Mallocs
				r.allocBytes += m1.TotalAlloc - m0.TotalAlloc
				if err := ctx.Err(); err != nil {
					return err
				}
			}
		}
		for _, r := range group {
			r.res.finish()
			if n := r.res.Requests + r.res.WarmupOK + r.res.WarmupErr; n > 0 {
				r.stmtsPerReq = float64(r.stmts.load()-r.stmtsBefore) / float64(n)
			}
		}
	}
	return nil
}

// startProfiles starts the profiles -cpuprofile and -allocprofile ask for
// of one measured slice, named name, and returns the function that ends
// them. The allocation profile is a pair: the process's allocations before
// the slice (name.allocs-base.pprof) and after it (name.allocs.pprof); read
// the slice alone with pprof's -diff_base (docs/benchmarks.md).
func startProfiles(o options, name string, logf func(string, ...any)) func() {
	stopCPU := func() {}
	if o.cpuprofile != "" {
		stopCPU = startProfile(filepath.Join(o.cpuprofile, name+".pprof"), logf)
	}
	if o.allocprofile == "" {
		return stopCPU
	}
	writeAllocs(filepath.Join(o.allocprofile, name+".allocs-base.pprof"), logf)
	return func() {
		stopCPU()
		writeAllocs(filepath.Join(o.allocprofile, name+".allocs.pprof"), logf)
	}
}

// checkWrites checks that every server did the work it answered 2xx for:
// the replaces and tags of A, the rooms of B. It returns what did not match.
func (e *benchEnv) checkWrites(ctx context.Context, runs *loadGroups) ([]string, error) {
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
	}{{"product", e.prodSchema, e.prodTxIDs, &runs.aProd.res}, {"same-work baseline", e.baseSchema, e.baseTxIDs, &runs.aSame.res}, {"raw-pgx baseline", e.baseSchema, e.rawTxIDs, &runs.aRaw.res}} {
		s := pgx.Identifier{v.schema}.Sanitize()
		var replaces, tags int64
		if err := e.sch.conn.QueryRow(ctx, "SELECT coalesce(sum(version - 1), 0) FROM "+s+".transactions WHERE id = ANY($1)", v.ids).Scan(&replaces); err != nil {
			return nil, err
		}
		if err := e.sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+s+".transaction_tags WHERE transaction_id = ANY($1)", v.ids).Scan(&tags); err != nil {
			return nil, err
		}
		check("A "+v.name+" replaces", replaces, okAll(v.r))
		check("A "+v.name+" tags", tags, int64(putTagsPerBody*len(v.ids)))
	}
	if runs.bProd == nil {
		return problems, nil
	}
	var rooms, baseRooms int64
	if err := e.sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{e.prodSchema}.Sanitize()+".markup_rooms").Scan(&rooms); err != nil {
		return nil, err
	}
	if err := e.sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{e.baseSchema}.Sanitize()+".markup_rooms").Scan(&baseRooms); err != nil {
		return nil, err
	}
	check("B product rooms", rooms, okAll(&runs.bProd.res))
	check("B baseline rooms", baseRooms, okAll(&runs.bSame.res))
	return problems, nil
}
