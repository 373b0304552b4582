package models

import (
	"strings"
	"testing"
)

func TestWriteBatchCombinesWritesIntoOneStatement(t *testing.T) {
	t.Parallel()
	var one writeBatch
	one.add("INSERT INTO a (x, y) VALUES (?, ?)", 1, 2)
	sql, args, ok := one.combined()
	if !ok || sql != "INSERT INTO a (x, y) VALUES ($1, $2)" || len(args) != 2 {
		t.Fatalf("one write: %q %v %v", sql, args, ok)
	}

	var b writeBatch
	b.add("INSERT INTO a (x) VALUES (?)", "a")
	addRows(&b, 2, "c", []string{"p", "q"}, []int{10, 20, 30}, func(v *int) []any { return []any{*v, *v + 1} })
	b.add("UPDATE d SET z = ? WHERE id = ?", "z", 7)
	sql, args, ok = b.combined()
	want := "WITH w0 AS (INSERT INTO a (x) VALUES ($1)), " +
		"w1 AS (INSERT INTO c (p, q) VALUES ($2, $3), ($4, $5)), " +
		"w2 AS (INSERT INTO c (p, q) VALUES ($6, $7)) " +
		"UPDATE d SET z = $8 WHERE id = $9"
	if !ok || sql != want {
		t.Fatalf("combined:\n got %q\nwant %q", sql, want)
	}
	wantArgs := []any{"a", 10, 11, 20, 21, 30, 31, "z", 7}
	if len(args) != len(wantArgs) {
		t.Fatalf("args %v, want %v", args, wantArgs)
	}
	for i := range args {
		if args[i] != wantArgs[i] {
			t.Fatalf("arg %d = %v, want %v", i, args[i], wantArgs[i])
		}
	}
}

func TestWriteBatchPastTheParameterLimitIsNotCombined(t *testing.T) {
	t.Parallel()
	var b writeBatch
	rows := make([]int, maxBindParams/2+1)
	addRows(&b, 1000, "t", []string{"a", "b"}, rows, func(v *int) []any { return []any{*v, *v} })
	if _, _, ok := b.combined(); ok {
		t.Fatalf("%d parameters combined into one statement", b.args)
	}
	first, args := b.stmts[0].build()
	if len(b.stmts) != (len(rows)+999)/1000 || !strings.HasPrefix(first, "INSERT INTO t (a, b) VALUES (?, ?), (?, ?)") || len(args) != 2000 {
		t.Fatalf("%d statements, the first %.60q with %d arguments", len(b.stmts), first, len(args))
	}
	var empty writeBatch
	if _, _, ok := empty.combined(); ok {
		t.Fatal("an empty batch combined")
	}
}
