package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestSoakShort runs the soak for a few seconds at a low rate against the
// real server binary on PostgreSQL (TEST_DATABASE_URL): every check passes
// and every operation of the mix was sent. Then it tampers with what the
// checks read — a lost room tag, a transaction rolled back to an older
// version, a webhook delivered twice — and sees exactly those checks fail,
// so they cannot pass vacuously.
func TestSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("short: the soak builds and runs the server binary under load for seconds")
	}
	dbURL := os.Getenv("TEST_DATABASE_URL")
	if dbURL == "" {
		t.Skip("TEST_DATABASE_URL is not set: the soak needs PostgreSQL")
	}
	t.Setenv("BENCH_DATABASE_URL", dbURL)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	var tampered []soakCheck
	o := soakOptions{duration: 4 * time.Second, rate: 10, timeout: 4 * time.Minute, drain: time.Minute, inflight: 32}
	o.inspect = func(ctx context.Context, l *soakLoad) {
		conn, q := l.e.admin, func(table string) string { return pgx.Identifier{l.e.schema, table}.Sanitize() }
		var tagID, txID string
		for _, r := range l.rooms {
			for id := range r.live {
				tagID = id
			}
		}
		for _, tx := range l.txs {
			if tx.puts > 0 {
				txID = tx.id
			}
		}
		if tagID == "" || txID == "" {
			t.Errorf("the load acknowledged no room tag (%q) or no replace (%q)", tagID, txID)
			return
		}
		if _, err := conn.Exec(ctx, "DELETE FROM "+q("transaction_tags")+" WHERE tag_id = $1", tagID); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "UPDATE "+q("transactions")+" SET reference_id = reference_id || '0' WHERE id = $1", txID); err != nil {
			t.Fatal(err)
		}
		for id := range l.e.sink.snapshot() {
			l.e.sink.add(id)
			break
		}
		var err error
		if tampered, err = l.check(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	failed, err := soak(ctx, o, &stdout, &stderr)
	if err != nil {
		t.Fatalf("soak: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	t.Log(out)
	if failed != 0 || !regexp.MustCompile(`\n\d+ passed, 0 failed\n$`).MatchString(out) {
		t.Errorf("%d checks failed", failed)
	}
	for _, op := range soakOps {
		if !regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(op) + `\s+[1-9]`).MatchString(out) {
			t.Errorf("the mix sent no %s", op)
		}
	}
	want := map[string]bool{ // check name prefix → should fail after the tampering
		"every acknowledged room tag edit":      true,
		"every transaction holds":               true,
		"every queued webhook delivered":        true,
		"every queued email delivered":          false,
		"every acknowledged upload":             false,
		"every acknowledged transaction create": false,
		"every create sent again":               false,
		"every acknowledged room stored":        false,
		"every queued message sent":             false,
		"every request answered":                false,
	}
	if len(tampered) != len(want) {
		t.Fatalf("%d checks after the tampering, want %d", len(tampered), len(want))
	}
	for _, c := range tampered {
		matched := false
		for prefix, fails := range want {
			if strings.HasPrefix(c.name, prefix) {
				matched = true
				if c.ok == fails {
					t.Errorf("after the tampering, %q passed=%v: %s", c.name, c.ok, c.detail)
				}
			}
		}
		if !matched {
			t.Errorf("unexpected check %q", c.name)
		}
	}
}
