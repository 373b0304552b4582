package content

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// lexerSeeds are content streams of the hostile shapes the lexer's caps
// are for, and ordinary ones.
func lexerSeeds() [][]byte {
	return [][]byte{
		[]byte("q 1 0 0 1 72 720 cm BT /F1 12 Tf (Hello) Tj [(A) -250 (B)] TJ ET Q"),
		[]byte("/P <</MCID 0>> BDC BI /W 1 /H 1 ID \x00 EI EMC"),
		bytes.Repeat([]byte("["), 100_000),
		append(bytes.Repeat([]byte("[("), 5000), "x) Tj"...),
		append(bytes.Repeat([]byte("[1 "), 20), bytes.Repeat([]byte("]"), 20)...),
		append(append([]byte("("), bytes.Repeat([]byte("("), 10_000)...), ") Tj"...),
		[]byte("<" + strings.Repeat("41", 70_000) + "> Tj"),
		[]byte("(" + strings.Repeat("\\101", 30_000) + ") Tj"),
		[]byte("/" + strings.Repeat("N#41", 1000) + " " + strings.Repeat("op", 1000)),
		bytes.Repeat([]byte("<<"), 10_000),
		[]byte("1 2 3 [4 5 <41> (\\\n)] 6 7 8 9 10 11 12 TJ %comment\r\nBI ID EI"),
	}
}

// FuzzContentLexer: the lexer ends on every input, always moves forward,
// and keeps every operand within its caps.
func FuzzContentLexer(f *testing.F) {
	for _, s := range lexerSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lx := &contentLexer{b: data}
		var stack []operand
		for calls := 0; ; calls++ {
			if calls > len(data)+1 {
				t.Fatalf("%d operators from %d bytes", calls, len(data))
			}
			before := lx.pos
			op, args, ok := lx.next(stack)
			if lx.pos > len(data) {
				t.Fatalf("position %d past the end %d", lx.pos, len(data))
			}
			if !ok {
				break
			}
			if lx.pos <= before {
				t.Fatalf("operator %q at %d without moving", op, before)
			}
			if len(op) > maxNameBytes || len(args) > maxOperands {
				t.Fatalf("operator of %d bytes with %d operands", len(op), len(args))
			}
			items := 0
			var check func(os []operand, depth int)
			check = func(os []operand, depth int) {
				if depth > maxArrayDepth {
					t.Fatalf("arrays %d deep", depth)
				}
				for _, o := range os {
					if o.kind == opString && len(o.str) > maxStringBytes || o.kind == opName && len(o.str) > maxNameBytes {
						t.Fatalf("kept %d bytes of a string or name", len(o.str))
					}
					if o.kind == opArray {
						items += len(o.items)
						check(o.items, depth+1)
					}
				}
			}
			check(args, 0)
			if items > maxArrayItems {
				t.Fatalf("kept %d array elements", items)
			}
			stack = args
		}
	})
}

// FuzzToUnicodeCMap: whatever a CMap holds, what it maps stays within the
// caps on codes, runes per code and runes per CMap.
func FuzzToUnicodeCMap(f *testing.F) {
	for _, s := range []string{
		"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfchar <0003> <0020> <0011> <D835DC00> endbfchar 1 beginbfrange <0024> <0026> <0041> endbfrange 1 beginbfrange <0030> <0032> [<0061> <0062006300640065>] endbfrange endcmap",
		"1 beginbfrange <0000> <FFFF> <" + strings.Repeat("0041", 3000) + "> endbfrange",
		"1 beginbfrange <0000> <FFFF> <" + strings.Repeat("0041", 254) + "0042> endbfrange",
		"1 beginbfrange <FFFFFF00> <FFFFFFFF> [] endbfrange 1 beginbfrange <00> <FF> 5 endbfrange",
		strings.Repeat("100 beginbfrange "+strings.Repeat("<0000> <FFFE> <0041> ", 100)+"endbfrange ", 3),
		"1 beginbfchar <41> (" + strings.Repeat("x", 2000) + ") endbfchar",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := &fontCache{work: newBudget(context.Background(), time.Minute)}
		m := fc.parseCMap(data)
		if len(m) > 1<<16 || fc.entries > maxFontEntries || fc.runes > maxCMapRunes {
			t.Fatalf("%d codes, %d entries written, %d runes kept", len(m), fc.entries, fc.runes)
		}
		runes := 0
		for _, s := range m {
			n := utf8.RuneCountInString(s)
			if n > maxToUnicodeRunes {
				t.Fatalf("a code maps to %d runes", n)
			}
			runes += n
		}
		if runes > maxCMapRunes {
			t.Fatalf("%d runes kept", runes)
		}
	})
}
