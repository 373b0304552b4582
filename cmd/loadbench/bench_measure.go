package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"
)

// measurePairs runs each scenario's pair (runs[0..1], runs[2..3]): both
// servers warmed up, then measured in alternating slices (product,
// baseline, baseline, product, …) so that slow drifts of a shared machine
// weigh on both alike.
func measurePairs(ctx context.Context, o options, client *http.Client, runs []*loadRun, logf func(string, ...any)) error {
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
					return err
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
	return nil
}

// checkWrites checks that every server did the work it answered 2xx for:
// the replaces and tags of A, the rooms of B. It returns what did not match.
func (e *benchEnv) checkWrites(ctx context.Context, runs []*loadRun) ([]string, error) {
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
	}{{"product", e.prodSchema, e.prodTxIDs, &runs[0].res}, {"baseline", e.baseSchema, e.baseTxIDs, &runs[1].res}} {
		s := pgx.Identifier{v.schema}.Sanitize()
		var replaces, tags int64
		if err := e.sch.conn.QueryRow(ctx, "SELECT coalesce(sum(version - 1), 0) FROM "+s+".transactions WHERE id = ANY($1)", v.ids).Scan(&replaces); err != nil {
			return nil, err
		}
		if err := e.sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+s+".transaction_tags WHERE transaction_id = ANY($1)", v.ids).Scan(&tags); err != nil {
			return nil, err
		}
		check("A "+v.name+" replaces", replaces, okAll(v.r))
		check("A "+v.name+" tags", tags, int64(25*len(v.ids)))
	}
	var rooms, baseRooms int64
	if err := e.sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{e.prodSchema}.Sanitize()+".markup_rooms").Scan(&rooms); err != nil {
		return nil, err
	}
	if err := e.sch.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{e.baseSchema}.Sanitize()+".markup_rooms").Scan(&baseRooms); err != nil {
		return nil, err
	}
	check("B product rooms", rooms, okAll(&runs[2].res))
	check("B baseline rooms", baseRooms, okAll(&runs[3].res))
	return problems, nil
}
