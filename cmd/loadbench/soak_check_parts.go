package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The checks of soakLoad.check (soak_check.go), one function per area.

// soakChecks collects the checks' results in order.
type soakChecks struct{ out []soakCheck }

// add records check name: passed when problems is empty (then detail tells
// what was checked), else failed with the first five problems as detail.
func (c *soakChecks) add(name string, problems []string, detail string) {
	r := soakCheck{name: name, ok: len(problems) == 0, detail: detail}
	if !r.ok {
		if len(problems) > 5 {
			problems = append(problems[:5], fmt.Sprintf("… and %d more", len(problems)-5))
		}
		r.detail = strings.Join(problems, "; ")
	}
	c.out = append(c.out, r)
}

// table is the quoted name of a table of the run's schema.
func (l *soakLoad) table(name string) string { return pgx.Identifier{l.e.schema, name}.Sanitize() }

// checkUploads: each acknowledged document is there, and no more than were sent.
func (l *soakLoad) checkUploads(ctx context.Context, c *soakChecks, docs []soakDoc, uploadFails int) error {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.id
	}
	var found, total int64
	if err := l.e.admin.QueryRow(ctx, "SELECT count(*) FILTER (WHERE id = ANY($1)), count(*) FROM "+l.table("documents"), ids).Scan(&found, &total); err != nil {
		return err
	}
	var problems []string
	if found != int64(len(docs)) {
		problems = append(problems, fmt.Sprintf("%d of %d acknowledged uploads in documents", found, len(docs)))
	}
	if extra := total - int64(len(docs)); extra < 0 || extra > int64(uploadFails) {
		problems = append(problems, fmt.Sprintf("documents holds %d rows for %d acknowledged uploads (%d failed)", total, len(docs), uploadFails))
	}
	c.add("every acknowledged upload stored once", problems, fmt.Sprintf("%d documents", len(docs)))
	return nil
}

// storedTx is a soak transaction as the database holds it.
type storedTx struct {
	ref     string
	version int
	tags    int
}

// checkTransactions: each acknowledged create is there once, holding the
// last acknowledged PUT's version (reference, tags and version count), and
// every create sent again was answered with the same transaction.
func (l *soakLoad) checkTransactions(ctx context.Context, c *soakChecks, txs []*soakTx, createFails int) error {
	rows, err := l.e.admin.Query(ctx, "SELECT t.id, t.reference_id, t.version, (SELECT count(*) FROM "+l.table("transaction_tags")+
		" g WHERE g.transaction_id = t.id) FROM "+l.table("transactions")+" t WHERE t.reference_id LIKE 'soak-tx%'")
	if err != nil {
		return err
	}
	byID := map[string]storedTx{}
	for rows.Next() {
		var id string
		var s storedTx
		if err := rows.Scan(&id, &s.ref, &s.version, &s.tags); err != nil {
			return err
		}
		byID[id] = s
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var problems []string
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
	c.add("every acknowledged transaction create stored once", problems, fmt.Sprintf("%d transactions", len(txs)))
	l.mu.Lock()
	replays, mismatch := l.replays, slices.Clone(l.replayMismatch)
	l.mu.Unlock()
	if replays == 0 {
		mismatch = append(mismatch, "no create was sent again: the scenario did not exercise this path")
	}
	c.add("every create sent again with its Idempotency-Key answered with the same transaction", mismatch, fmt.Sprintf("%d replays", replays))
	c.add("every transaction holds its last acknowledged PUT, replaced once per PUT", txVersionProblems(txs, byID), fmt.Sprintf("%d acknowledged PUTs", puts))
	return nil
}

// txVersionProblems compares each acknowledged transaction with what the
// database holds: the reference and tags of its last acknowledged PUT (or
// of one whose answer was lost), and one version per replace.
func txVersionProblems(txs []*soakTx, byID map[string]storedTx) []string {
	var problems []string
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
	return problems
}

// checkRooms: each created room is there once.
func (l *soakLoad) checkRooms(ctx context.Context, c *soakChecks, rooms []*soakRoom, roomFails int) error {
	roomIDs := make([]string, len(rooms))
	for i, r := range rooms {
		roomIDs[i] = r.id
	}
	var found, total int64
	if err := l.e.admin.QueryRow(ctx, "SELECT count(*) FILTER (WHERE id = ANY($1)), count(*) FROM "+l.table("markup_rooms"), roomIDs).Scan(&found, &total); err != nil {
		return err
	}
	var problems []string
	if found != int64(len(rooms)) {
		problems = append(problems, fmt.Sprintf("%d of %d acknowledged rooms in markup_rooms", found, len(rooms)))
	}
	if extra := total - int64(len(rooms)); extra < 0 || extra > int64(roomFails) {
		problems = append(problems, fmt.Sprintf("markup_rooms holds %d rows for %d acknowledged rooms (%d failed)", total, len(rooms), roomFails))
	}
	c.add("every acknowledged room stored once", problems, fmt.Sprintf("%d rooms", len(rooms)))
	return nil
}

// checkRoomTags: each acknowledged tag is there at its acknowledged x,
// each acknowledged delete is gone, and nothing else.
func (l *soakLoad) checkRoomTags(ctx context.Context, c *soakChecks, rooms []*soakRoom) error {
	var problems []string
	tags, deletes := 0, 0
	for _, r := range rooms {
		p, live, deleted, err := l.roomTagProblems(ctx, r)
		if err != nil {
			return err
		}
		problems = append(problems, p...)
		tags += live
		deletes += deleted
	}
	c.add("every acknowledged room tag edit stored (adds, moves, deletes), nothing extra", problems, fmt.Sprintf("%d tags live, %d deleted", tags, deletes))
	return nil
}

// roomTagProblems compares one room's acknowledged tags with its rows. It
// also returns the room's live and deleted tags.
func (l *soakLoad) roomTagProblems(ctx context.Context, r *soakRoom) (problems []string, live, deleted int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rows, err := l.e.admin.Query(ctx, "SELECT tag_id, x FROM "+l.table("transaction_tags")+" WHERE transaction_id = $1", r.txID)
	if err != nil {
		return nil, 0, 0, err
	}
	have := map[string]float64{}
	for rows.Next() {
		var id string
		var x float64
		if err := rows.Scan(&id, &x); err != nil {
			return nil, 0, 0, err
		}
		have[id] = x
	}
	if err := rows.Err(); err != nil {
		return nil, 0, 0, err
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
	return problems, len(r.live), len(r.deleted), nil
}

// outboxMsg is a row of the outbox: its delivery id (a webhook's event id,
// an e-mail's row id), kind and status.
type outboxMsg struct{ id, kind, status string }

// checkOutbox: the outbox drained, and each message delivered exactly once.
// A webhook's webhook-id is its event's id (the payload's), an e-mail's
// Message-ID carries the row's id.
func (l *soakLoad) checkOutbox(ctx context.Context, c *soakChecks, drained bool) error {
	rows, err := l.e.admin.Query(ctx, "SELECT CASE WHEN kind = 'webhook' THEN (payload::jsonb)->>'id' ELSE id END, kind, status FROM "+l.table("outbox"))
	if err != nil {
		return err
	}
	msgs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (outboxMsg, error) {
		var m outboxMsg
		return m, r.Scan(&m.id, &m.kind, &m.status)
	})
	if err != nil {
		return err
	}
	var problems []string
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
	c.add("every queued message sent (outbox drained, none dead or held)", problems, fmt.Sprintf("%v", byStatus))
	hooks, mails := l.e.sink.snapshot(), l.e.mails.snapshot()
	l.checkDeliveries(c, msgs, "webhook sink, by webhook-id", "webhook", hooks)
	l.checkDeliveries(c, msgs, "SMTP catcher, by Message-ID", "email", mails)
	return nil
}

// checkDeliveries: each queued message of kind was received exactly once
// by its receiver (name; got counts the deliveries by id), and nothing
// else but messages the retention sweep deleted after sending.
func (l *soakLoad) checkDeliveries(c *soakChecks, msgs []outboxMsg, name, kind string, got map[string]int) {
	var problems []string
	queued := map[string]bool{}
	n := 0
	for _, m := range msgs {
		if m.kind != kind {
			continue
		}
		queued[m.id] = true
		n++
		if times := got[m.id]; times != 1 {
			problems = append(problems, fmt.Sprintf("%s %s delivered %d times", m.kind, m.id, times))
		}
	}
	swept := 0
	for id, times := range got {
		switch {
		case queued[id]:
		case l.o.sweepsMessages() && times == 1:
			swept++ // sent once, then deleted by the retention sweep the run asked for
		default:
			problems = append(problems, fmt.Sprintf("%d deliveries of %q, which is not in the outbox", times, id))
		}
	}
	n += swept
	if n == 0 {
		problems = append(problems, "no "+kind+" message was queued: the scenario did not exercise this path")
	}
	c.add("every queued "+kind+" delivered exactly once ("+name+")", problems, fmt.Sprintf("%d messages", n))
}

// checkRequests: every request answered as expected (the checks above allow
// for the writes a failed request may or may not have made; this one does not).
func (l *soakLoad) checkRequests(c *soakChecks) {
	var problems []string
	l.mu.Lock()
	for _, op := range soakOps {
		if n := l.stats[op].errs; n > 0 {
			problems = append(problems, fmt.Sprintf("%d × %s", n, op))
		}
	}
	l.mu.Unlock()
	c.add("every request answered as expected", problems, "no errors")
}
