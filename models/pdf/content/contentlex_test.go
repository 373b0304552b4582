package content

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestContentLexer(t *testing.T) {
	src := `q 1 0 0 1 72 -.5 cm % comment Tj
BT /F#31 12 Tf (a\(b\)\\c\101\n) Tj <48 65 6C 6c 6> Tj [(A) -250 (B)] TJ ET
/P <</MCID 0 /A <</B (x>>)>> >> BDC EMC
BI /W 2 /H 1 /BPC 8 /CS /G ID ` + "\x00EI\x01" + ` EI Q +5 -3.25 Td`
	lx := &contentLexer{b: []byte(src)}
	type step struct {
		op   string
		args []operand
	}
	var got []step
	var stack []operand
	for {
		op, args, ok := lx.next(stack)
		if !ok {
			break
		}
		got = append(got, step{op, append([]operand(nil), args...)})
		stack = args
	}
	num := func(v float64) operand { return operand{kind: opNumber, num: v} }
	str := func(s string) operand { return operand{kind: opString, str: []byte(s)} }
	want := []step{
		{"q", nil},
		{"cm", []operand{num(1), num(0), num(0), num(1), num(72), num(-0.5)}},
		{"BT", nil},
		{"Tf", []operand{{kind: opName, str: []byte("F1")}, num(12)}},
		{"Tj", []operand{str("a(b)\\cA\n")}},
		{"Tj", []operand{str("Hell`")}},
		{"TJ", []operand{{kind: opArray, items: []operand{str("A"), num(-250), str("B")}}}},
		{"ET", nil},
		{"BDC", []operand{{kind: opName, str: []byte("P")}, {kind: opOther}}},
		{"EMC", nil},
		{"Q", nil},
		{"Td", []operand{num(5), num(-3.25)}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d operators %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].op != want[i].op || (len(want[i].args) > 0 || len(got[i].args) > 0) && !reflect.DeepEqual(got[i].args, want[i].args) {
			t.Errorf("operator %d: got %q %+v, want %q %+v", i, got[i].op, got[i].args, want[i].op, want[i].args)
		}
	}
}

func TestContentLexerHostile(t *testing.T) {
	// Unterminated strings, arrays and dictionaries, stray delimiters and a
	// flood of operands end without hanging or growing without bound.
	for _, src := range []string{"(abc", "[1 2 (x", "<< /A <<", "<4142", "BI /W 1 ID xxxx", ")))]]]>>", "{ } Tj"} {
		lx := &contentLexer{b: []byte(src)}
		for range 100 {
			if _, _, ok := lx.next(nil); !ok {
				break
			}
		}
		if lx.pos > len(src) {
			t.Errorf("%q: position %d past the end", src, lx.pos)
		}
	}
	flood := make([]byte, 0, 20000)
	for range 10000 {
		flood = append(flood, "1 "...)
	}
	flood = append(flood, "Tj"...)
	_, args, ok := (&contentLexer{b: flood}).next(nil)
	if !ok || len(args) != maxOperands {
		t.Errorf("flood kept %d operands, want %d", len(args), maxOperands)
	}
}

// TestContentLexerArrayBudget: nested arrays share one budget of kept
// elements per operator, so a content stream of arrays of arrays cannot
// make the lexer hold more than maxArrayItems operands at once.
func TestContentLexerArrayBudget(t *testing.T) {
	var b []byte
	b = append(b, '[')
	for range 40 {
		b = append(b, '[')
		for range 5000 {
			b = append(b, "1 "...)
		}
		b = append(b, ']')
	}
	b = append(b, "] TJ"...)
	_, args, ok := (&contentLexer{b: b}).next(nil)
	if !ok || len(args) != 1 {
		t.Fatalf("ok %v, %d operands", ok, len(args))
	}
	kept := 0
	var count func([]operand)
	count = func(items []operand) {
		for _, it := range items {
			kept++
			count(it.items)
		}
	}
	count(args[0].items)
	if kept > maxArrayItems {
		t.Errorf("kept %d array elements, cap %d", kept, maxArrayItems)
	}
}

// TestContentLexerDeepNesting: millions of "[" neither recurse nor allocate
// per level (they once overflowed the goroutine stack, a fatal error no
// recover catches); arrays deeper than maxArrayDepth stand as one element,
// and the lexer goes on after them.
func TestContentLexerDeepNesting(t *testing.T) {
	const n = 4_000_000
	open := bytes.Repeat([]byte("["), n)
	closed := append(append(bytes.Repeat([]byte("["), n), bytes.Repeat([]byte("]"), n)...), " TJ (x) Tj"...)
	for name, src := range map[string][]byte{"unclosed": open, "closed": closed} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		lx := &contentLexer{b: src}
		op, args, ok := lx.next(nil)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
			t.Errorf("%s: %d bytes allocated for %d brackets", name, alloc, n)
		}
		if name == "unclosed" {
			if ok {
				t.Errorf("unclosed: got operator %q", op)
			}
			continue
		}
		if !ok || op != "TJ" || len(args) != 1 {
			t.Fatalf("closed: %q %d operands", op, len(args))
		}
		depth, a := 1, args[0]
		for len(a.items) == 1 && a.items[0].kind == opArray {
			depth, a = depth+1, a.items[0]
		}
		if depth != maxArrayDepth || len(a.items) != 1 || a.items[0].kind != opOther {
			t.Errorf("closed: %d levels kept ending in %+v, want %d and one skipped array", depth, a.items, maxArrayDepth)
		}
		if op, args, ok := lx.next(nil); !ok || op != "Tj" || string(args[0].str) != "x" {
			t.Errorf("after the arrays: %q %+v", op, args)
		}
	}
}

// TestContentLexerNestedShapes: arrays close level by level, and an
// operator inside open arrays ends them all.
func TestContentLexerNestedShapes(t *testing.T) {
	lx := &contentLexer{b: []byte("[1 [2 [3] 4] 5] TJ [(a) [(b) Tj")}
	_, args, _ := lx.next(nil)
	got := args[0]
	if len(got.items) != 3 || got.items[1].kind != opArray || len(got.items[1].items) != 3 || got.items[1].items[1].items[0].num != 3 || got.items[2].num != 5 {
		t.Errorf("nested: %+v", got)
	}
	op, args, _ := lx.next(nil)
	if op != "Tj" || len(args) != 1 || len(args[0].items) != 2 || len(args[0].items[1].items) != 1 {
		t.Errorf("operator inside arrays: %q %+v", op, args)
	}
}

// TestContentLexerLengths: strings, names and words are read to their end
// but kept only up to their caps.
func TestContentLexerLengths(t *testing.T) {
	const n = 1 << 20
	src := "(" + strings.Repeat("a", n) + ") <" + strings.Repeat("41", n) + "> /" + strings.Repeat("N", n) + " " + strings.Repeat("w", n) + " 7 Tj"
	lx := &contentLexer{b: []byte(src)}
	op, args, ok := lx.next(nil)
	if !ok || len(op) != maxNameBytes {
		t.Fatalf("a %d-byte word read as %d bytes (ok %v)", n, len(op), ok)
	}
	if len(args) != 3 || len(args[0].str) != maxStringBytes || len(args[1].str) != maxStringBytes || len(args[2].str) != maxNameBytes {
		t.Fatalf("kept %d operands", len(args))
	}
	if op, args, ok := lx.next(nil); !ok || op != "Tj" || args[0].num != 7 {
		t.Errorf("after the long tokens: %q %+v", op, args)
	}
}
