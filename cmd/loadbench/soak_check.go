package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"
)

// rowCounts is every table's row count at one moment of the run.
type rowCounts struct {
	when string
	n    map[string]int64
}

// countRows counts the rows of every table of schema.
func countRows(ctx context.Context, conn *pgx.Conn, schema string) (map[string]int64, error) {
	rows, err := conn.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", schema)
	if err != nil {
		return nil, err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(tables))
	for _, t := range tables {
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{schema, t}.Sanitize()).Scan(&n); err != nil {
			return nil, err
		}
		out[t] = n
	}
	return out, nil
}

// tableBytes is every table's size on disk, indexes and TOAST included.
func tableBytes(ctx context.Context, conn *pgx.Conn, schema string) (map[string]int64, error) {
	rows, err := conn.Query(ctx, "SELECT tablename, pg_total_relation_size(format('%I.%I', schemaname, tablename)) FROM pg_tables WHERE schemaname = $1", schema)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for rows.Next() {
		var t string
		var n int64
		if err := rows.Scan(&t, &n); err != nil {
			return nil, err
		}
		out[t] = n
	}
	return out, rows.Err()
}

// waitOutbox waits, at most limit, until no outbox message is pending; it
// reports whether that happened.
func waitOutbox(ctx context.Context, conn *pgx.Conn, schema string, limit time.Duration) (bool, error) {
	deadline := time.Now().Add(limit)
	for {
		var open int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{schema, "outbox"}.Sanitize()+" WHERE status = 'pending'").Scan(&open); err != nil {
			return false, err
		}
		if open == 0 {
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// soakCheck is one correctness check's outcome.
type soakCheck struct {
	name   string
	ok     bool
	detail string
}

// check compares what the load was acknowledged with what the database
// holds, and the outbox with what the sink and the catcher received.
func (l *soakLoad) check(ctx context.Context, drained bool) ([]soakCheck, error) {
	var c soakChecks
	l.mu.Lock()
	docs, txs, rooms := slices.Clone(l.docs), slices.Clone(l.txs), slices.Clone(l.rooms)
	uploadFails, createFails, roomFails := l.uploadFails, l.createFails, l.roomFails
	l.mu.Unlock()
	if err := l.checkUploads(ctx, &c, docs, uploadFails); err != nil {
		return nil, err
	}
	if err := l.checkTransactions(ctx, &c, txs, createFails); err != nil {
		return nil, err
	}
	if err := l.checkRooms(ctx, &c, rooms, roomFails); err != nil {
		return nil, err
	}
	if err := l.checkRoomTags(ctx, &c, rooms); err != nil {
		return nil, err
	}
	if err := l.checkOutbox(ctx, &c, drained); err != nil {
		return nil, err
	}
	l.checkRequests(&c)
	return c.out, nil
}

// reportInput is what the report prints besides the per-operation figures.
type reportInput struct {
	elapsed         time.Duration
	peakRSS, endRSS int64
	counts          []rowCounts
	bytes           map[string]int64 // per table at the end
	checks          []soakCheck
	pgVersion       string
}

// report prints the figures and the checks, and returns the failed checks.
func (l *soakLoad) report(w io.Writer, in reportInput) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(w, "\nMarkup Room soak — the server binary on loopback, PostgreSQL %s, %d CPUs shared by the server, the load generator and PostgreSQL\n",
		in.pgVersion, runtime.NumCPU())
	fmt.Fprintf(w, "open loop: %.1f req/s scheduled for %s (the mix of %d ticks: %s)\n\n", l.o.rate, l.o.duration, len(soakMix), mixSummary())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\trequests\tok/s\tp50\tp99\terrors\tskipped\t")
	var all, ok, errs, skipped int
	for _, op := range soakOps {
		s := l.stats[op]
		if len(s.lat) == 0 && s.skipped == 0 {
			continue
		}
		slices.Sort(s.lat)
		all, ok, errs, skipped = all+len(s.lat), ok+s.ok, errs+s.errs, skipped+s.skipped
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%s\t%s\t%d\t%d\t\n", op, len(s.lat), float64(s.ok)/in.elapsed.Seconds(),
			ms(percentile(s.lat, 0.50)), ms(percentile(s.lat, 0.99)), s.errs, s.skipped)
	}
	fmt.Fprintf(tw, "all\t%d\t%.2f\t\t\t%d\t%d\t\n", all, float64(ok)/in.elapsed.Seconds(), errs, skipped)
	_ = tw.Flush()
	fmt.Fprintln(w, "(setup requests included; skipped: no request slot free, or no transaction or room free to edit)")
	for _, op := range soakOps {
		for _, s := range l.stats[op].samples {
			fmt.Fprintf(w, "error  %s: %s\n", op, s)
		}
	}
	fmt.Fprintf(w, "\nserver peak RSS (VmHWM) %.1f MiB; RSS at the end %.1f MiB\n", float64(in.peakRSS)/(1<<20), float64(in.endRSS)/(1<<20))

	fmt.Fprintln(w, "\nrows per table")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "table\t"
	for _, c := range in.counts {
		head += c.when + "\t"
	}
	head += "KiB at the end\t"
	fmt.Fprintln(tw, head)
	var tables []string
	for t := range in.counts[len(in.counts)-1].n {
		if t != "goose_db_version" && t != "schema_migrations" {
			tables = append(tables, t)
		}
	}
	slices.Sort(tables)
	for _, t := range tables {
		line := t + "\t"
		for _, c := range in.counts {
			line += fmt.Sprintf("%d\t", c.n[t])
		}
		line += fmt.Sprintf("%d\t", in.bytes[t]>>10)
		fmt.Fprintln(tw, line)
	}
	_ = tw.Flush()

	fmt.Fprintln(w, "\ncorrectness")
	failed := 0
	for _, c := range in.checks {
		mark := "PASS"
		if !c.ok {
			mark = "FAIL"
			failed++
		}
		fmt.Fprintf(w, "%s  %s: %s\n", mark, c.name, c.detail)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", len(in.checks)-failed, failed)
	return failed
}

// mixSummary is "5 PUT /api/v1/…, 3 …" for the report.
func mixSummary() string {
	n := map[string]int{}
	for _, op := range soakMix {
		n[op]++
	}
	var parts []string
	for _, op := range soakOps {
		if n[op] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[op], op))
		}
	}
	return strings.Join(parts, ", ")
}
