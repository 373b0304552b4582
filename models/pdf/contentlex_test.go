package pdf

import (
	"reflect"
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
