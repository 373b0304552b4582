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
	var out []soakCheck
	add := func(name string, problems []string, detail string) {
		c := soakCheck{name: name, ok: len(problems) == 0, detail: detail}
		if !c.ok {
			if len(problems) > 5 {
				problems = append(problems[:5], fmt.Sprintf("… and %d more", len(problems)-5))
			}
			c.detail = strings.Join(problems, "; ")
		}
		out = append(out, c)
	}
	q := func(table string) string { return pgx.Identifier{l.e.schema, table}.Sanitize() }
	conn := l.e.admin
	l.mu.Lock()
	docs, txs, rooms := slices.Clone(l.docs), slices.Clone(l.txs), slices.Clone(l.rooms)
	uploadFails, createFails, roomFails := l.uploadFails, l.createFails, l.roomFails
	l.mu.Unlock()

	// Uploads: each acknowledged document is there, and no more than were sent.
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.id
	}
	var found, total int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE id = ANY($1)), count(*) FROM "+q("documents"), ids).Scan(&found, &total); err != nil {
		return nil, err
	}
	var problems []string
	if found != int64(len(docs)) {
		problems = append(problems, fmt.Sprintf("%d of %d acknowledged uploads in documents", found, len(docs)))
	}
	if extra := total - int64(len(docs)); extra < 0 || extra > int64(uploadFails) {
		problems = append(problems, fmt.Sprintf("documents holds %d rows for %d acknowledged uploads (%d failed)", total, len(docs), uploadFails))
	}
	add("every acknowledged upload stored once", problems, fmt.Sprintf("%d documents", len(docs)))

	// Transactions: each acknowledged create is there once, holding the
	// last acknowledged PUT's version (reference, tags and version count).
	type stored struct {
		ref     string
		version int
		tags    int
	}
	rows, err := conn.Query(ctx, "SELECT t.id, t.reference_id, t.version, (SELECT count(*) FROM "+q("transaction_tags")+
		" g WHERE g.transaction_id = t.id) FROM "+q("transactions")+" t WHERE t.reference_id LIKE 'soak-tx%'")
	if err != nil {
		return nil, err
	}
	byID := map[string]stored{}
	for rows.Next() {
		var id string
		var s stored
		if err := rows.Scan(&id, &s.ref, &s.version, &s.tags); err != nil {
			return nil, err
		}
		byID[id] = s
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	problems = nil
	puts := 0
	for _, tx := range txs {
		if _, ok := byID[tx.id]; !ok {
			problems = append(problems, fmt.Sprintf("transaction %s (acknowledged) is missing", tx.id))
		}
		puts += tx.puts
	}
	if extra := len(byID) - len(txs); extra < 0 || extra > createFails {
		problems = append(problems, fmt.Sprintf("%d soak transactions stored for %d acknowledged creates (%d failed)", len(byID), len(txs), createFails))
	}
	add("every acknowledged transaction create stored once", problems, fmt.Sprintf("%d transactions", len(txs)))
	l.mu.Lock()
	replays, mismatch := l.replays, slices.Clone(l.replayMismatch)
	l.mu.Unlock()
	if replays == 0 {
		mismatch = append(mismatch, "no create was sent again: the scenario did not exercise this path")
	}
	add("every create sent again with its Idempotency-Key answered with the same transaction", mismatch, fmt.Sprintf("%d replays", replays))
	problems = nil
	for _, tx := range txs {
		s, ok := byID[tx.id]
		if !ok {
			continue
		}
		var v int
		if _, err := fmt.Sscanf(s.ref, fmt.Sprintf("soak-tx%d-v%%d", tx.i), &v); err != nil {
			problems = append(problems, fmt.Sprintf("transaction %s holds reference %q", tx.id, s.ref))
			continue
		}
		if v != tx.acked && !slices.Contains(tx.doubt, v) {
			problems = append(problems, fmt.Sprintf("transaction %s holds version %d, the last acknowledged is %d", tx.id, v, tx.acked))
		}
		if s.tags != v%5+1 {
			problems = append(problems, fmt.Sprintf("transaction %s is a mix: reference of version %d with %d tags", tx.id, v, s.tags))
		}
		if s.version < 1+tx.puts || s.version > 1+tx.puts+tx.failed {
			problems = append(problems, fmt.Sprintf("transaction %s is at version %d after %d acknowledged replaces (%d failed)", tx.id, s.version, tx.puts, tx.failed))
		}
	}
	add("every transaction holds its last acknowledged PUT, replaced once per PUT", problems, fmt.Sprintf("%d acknowledged PUTs", puts))

	// Rooms: each created room is there once.
	roomIDs := make([]string, len(rooms))
	for i, r := range rooms {
		roomIDs[i] = r.id
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE id = ANY($1)), count(*) FROM "+q("markup_rooms"), roomIDs).Scan(&found, &total); err != nil {
		return nil, err
	}
	problems = nil
	if found != int64(len(rooms)) {
		problems = append(problems, fmt.Sprintf("%d of %d acknowledged rooms in markup_rooms", found, len(rooms)))
	}
	if extra := total - int64(len(rooms)); extra < 0 || extra > int64(roomFails) {
		problems = append(problems, fmt.Sprintf("markup_rooms holds %d rows for %d acknowledged rooms (%d failed)", total, len(rooms), roomFails))
	}
	add("every acknowledged room stored once", problems, fmt.Sprintf("%d rooms", len(rooms)))

	// Room tags: each acknowledged tag is there at its acknowledged x,
	// each acknowledged delete is gone, and nothing else.
	problems = nil
	tags, deletes := 0, 0
	for _, r := range rooms {
		r.mu.Lock()
		rows, err := conn.Query(ctx, "SELECT tag_id, x FROM "+q("transaction_tags")+" WHERE transaction_id = $1", r.txID)
		if err != nil {
			r.mu.Unlock()
			return nil, err
		}
		have := map[string]float64{}
		for rows.Next() {
			var id string
			var x float64
			if err := rows.Scan(&id, &x); err != nil {
				r.mu.Unlock()
				return nil, err
			}
			have[id] = x
		}
		if err := rows.Err(); err != nil {
			r.mu.Unlock()
			return nil, err
		}
		for id, x := range r.live {
			got, ok := have[id]
			switch {
			case r.doubt[id]:
			case !ok:
				problems = append(problems, fmt.Sprintf("room %s: acknowledged tag %s is missing", r.id, id))
			case got != float64(x):
				problems = append(problems, fmt.Sprintf("room %s: tag %s at x=%g, acknowledged x=%d", r.id, id, got, x))
			}
		}
		for _, id := range r.deleted {
			if _, ok := have[id]; ok && !r.doubt[id] {
				problems = append(problems, fmt.Sprintf("room %s: deleted tag %s is still there", r.id, id))
			}
		}
		// A tag the load never saw acknowledged can only come from a failed add.
		unknown := 0
		for id := range have {
			if _, ok := r.live[id]; !ok && !slices.Contains(r.deleted, id) {
				unknown++
			}
		}
		if unknown > r.addFails {
			problems = append(problems, fmt.Sprintf("room %s holds %d tags the load was never acknowledged (%d adds failed)", r.id, unknown, r.addFails))
		}
		tags += len(r.live)
		deletes += len(r.deleted)
		r.mu.Unlock()
	}
	add("every acknowledged room tag edit stored (adds, moves, deletes), nothing extra", problems, fmt.Sprintf("%d tags live, %d deleted", tags, deletes))

	// The outbox: drained, and each message delivered exactly once.
	// A webhook's webhook-id is its event's id (the payload's), an
	// e-mail's Message-ID carries the row's id.
	rows, err = conn.Query(ctx, "SELECT CASE WHEN kind = 'webhook' THEN (payload::jsonb)->>'id' ELSE id END, kind, status FROM "+q("outbox"))
	if err != nil {
		return nil, err
	}
	type msg struct{ id, kind, status string }
	msgs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (msg, error) {
		var m msg
		return m, r.Scan(&m.id, &m.kind, &m.status)
	})
	if err != nil {
		return nil, err
	}
	problems = nil
	if !drained {
		problems = append(problems, fmt.Sprintf("messages still pending after %s", l.o.drain))
	}
	byStatus := map[string]int{}
	for _, m := range msgs {
		byStatus[m.kind+" "+m.status]++
		if m.status != "sent" && m.status != "pending" {
			problems = append(problems, fmt.Sprintf("%s %s is %s", m.kind, m.id, m.status))
		}
	}
	add("every queued message sent (outbox drained, none dead or held)", problems, fmt.Sprintf("%v", byStatus))
	for _, kind := range []struct {
		name, kind string
		got        map[string]int
	}{{"webhook sink, by webhook-id", "webhook", l.e.sink.snapshot()}, {"SMTP catcher, by Message-ID", "email", l.e.mails.snapshot()}} {
		problems = nil
		queued := map[string]bool{}
		n := 0
		for _, m := range msgs {
			if m.kind != kind.kind {
				continue
			}
			queued[m.id] = true
			n++
			if c := kind.got[m.id]; c != 1 {
				problems = append(problems, fmt.Sprintf("%s %s delivered %d times", m.kind, m.id, c))
			}
		}
		swept := 0
		for id, c := range kind.got {
			switch {
			case queued[id]:
			case l.o.sweepsMessages() && c == 1:
				swept++ // sent once, then deleted by the retention sweep the run asked for
			default:
				problems = append(problems, fmt.Sprintf("%d deliveries of %q, which is not in the outbox", c, id))
			}
		}
		n += swept
		if n == 0 {
			problems = append(problems, "no "+kind.kind+" message was queued: the scenario did not exercise this path")
		}
		add("every queued "+kind.kind+" delivered exactly once ("+kind.name+")", problems, fmt.Sprintf("%d messages", n))
	}
	// Every request answered as expected (the checks above allow for the
	// writes a failed request may or may not have made; this one does not).
	problems = nil
	l.mu.Lock()
	for _, op := range soakOps {
		if n := l.stats[op].errs; n > 0 {
			problems = append(problems, fmt.Sprintf("%d × %s", n, op))
		}
	}
	l.mu.Unlock()
	add("every request answered as expected", problems, "no errors")
	return out, nil
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
