package content

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// fakeClock is a clock that moves step at each reading.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

// TestCancellationByTime: the interpreter notices a cancelled request after
// about checkEvery of work, however few operators that is (it once checked
// only every 4,096 operators).
func TestCancellationByTime(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	work := newBudgetAt(ctx, time.Hour, fakeClock(5*time.Millisecond)) // each clock reading is 5 ms of work
	in := &interpreter{work: work, fonts: &fontCache{work: work}}
	in.run([]byte(strings.Repeat("1 0 0 1 0 0 cm ", 5000)), nil, 0)
	if !errors.Is(in.err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", in.err)
	}
	// Two clock readings (10 ms) after the start: 128 operators.
	if in.ops > 2*clockEvery {
		t.Errorf("stopped after %d operators", in.ops)
	}
}

// TestTimeBudget: past the time budget the work stops with ErrTooComplex,
// and the clock is read only every clockEvery ticks.
func TestTimeBudget(t *testing.T) {
	reads := 0
	clock := fakeClock(time.Second)
	work := newBudgetAt(context.Background(), 5*time.Second, func() time.Time { reads++; return clock() })
	ticks := 0
	for work.Tick() == nil {
		ticks++
		if ticks > 1_000_000 {
			t.Fatal("the budget never ran out")
		}
	}
	if !errors.Is(work.err, ErrTooComplex) || reads != 7 || ticks != 6*clockEvery-1 {
		t.Errorf("err %v after %d ticks and %d clock readings", work.err, ticks, reads)
	}
}

// TestCMapWorkBounded: however a CMap is written, what it maps is bounded
// by maxToUnicodeRunes per code, maxCMapRunes per CMap and maxFontEntries
// for the document; bfranges that wrap around the largest code, or whose
// destination is neither a string nor an array, end.
func TestCMapWorkBounded(t *testing.T) {
	fc := &fontCache{work: newBudget(context.Background(), time.Hour)}
	long := "<" + strings.Repeat("00410042", 200) + ">" // 400 runes
	m := fc.parseCMap([]byte("1 beginbfchar <01> " + long + " endbfchar 2 beginbfrange <FFFFFF00> <FFFFFFFF> [] <FFFFFFF0> <FFFFFFFF> <0041> endbfrange 1 beginbfrange <0000> <FFFF> 5 endbfrange"))
	if m[1] != "\uFFFD" || m[0xFFFFFFFF] != "P" || len(m) != 17 {
		t.Errorf("%d entries, <01> %q, <FFFFFFFF> %q", len(m), m[1], m[0xFFFFFFFF])
	}
	// Every code mapped to 250 runes: the CMap's rune cap stops it.
	var sb strings.Builder
	sb.WriteString("1 beginbfrange <0000> <FFFF> <" + strings.Repeat("0041", 249) + "0042> endbfrange")
	m = fc.parseCMap([]byte(sb.String()))
	runes := 0
	for _, s := range m {
		runes += len([]rune(s))
	}
	if runes > maxCMapRunes || len(m) != maxCMapRunes/250 {
		t.Errorf("%d runes in %d entries", runes, len(m))
	}
	// The same ranges again and again: the CMap's rune cap stops each CMap
	// (overwrites count), the document's entry cap stops the CMaps together.
	fc = &fontCache{work: newBudget(context.Background(), time.Hour)}
	again := []byte(strings.Repeat("100 beginbfrange "+strings.Repeat("<0000> <FFFE> <0041> ", 100)+"endbfrange ", 100))
	for range 3 {
		fc.parseCMap(again)
	}
	if fc.entries != maxFontEntries {
		t.Errorf("%d entries written, cap %d", fc.entries, maxFontEntries)
	}
}

// TestSharedFontArraysBounded: thousands of fonts may share one long /W or
// /Differences array; every element read counts against maxFontEntries,
// whether or not it makes an entry.
func TestSharedFontArraysBounded(t *testing.T) {
	const n = 1 << 20
	w := make(types.Array, 0, n)
	diffs := make(types.Array, 0, n)
	for range n / 2 {
		w = append(w, types.Integer(0), types.Array{}) // steps that map nothing
		diffs = append(diffs, types.Integer(300), types.Name("A"))
	}
	fc := &fontCache{work: newBudget(context.Background(), time.Hour)}
	for range 5 { // 2^19 steps each
		fc.cidWidths(types.Dict{"W": w})
	}
	if fc.entries != maxFontEntries {
		t.Errorf("/W: %d steps counted, want the cap %d", fc.entries, maxFontEntries)
	}
	fc = &fontCache{work: newBudget(context.Background(), time.Hour)}
	for range 3 {
		fc.encoding(types.Dict{"Encoding": types.Dict{"Differences": diffs}}, "X")
	}
	if fc.entries != maxFontEntries {
		t.Errorf("/Differences: %d elements counted, want the cap %d", fc.entries, maxFontEntries)
	}
}
