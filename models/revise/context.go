package revise

import (
	"cmp"
	"math"
	"slices"
)

// maxContext caps the words of a tag's context, maxPerSide those above,
// below or elsewhere.
const (
	maxContext = 10
	maxPerSide = 5
)

// contextWord is one word around a tag on the old page.
type contextWord struct {
	tok int // index in the old version's tokens
	// weight is how much the word says about the tag's place: more for
	// the label (on the tag's line to its left, or just above it), less
	// the farther it is.
	weight float64
	label  bool
	// line: the word is on the tag's line.
	line bool
	// left: the word ends before the tag starts, so the tag's left edge
	// follows the word's right edge (a label's end); otherwise it follows
	// the word's left edge.
	left bool
}

// contextOf finds the words around tag t (a box on old page p): the label
// on its line or above it and the nearest words each way. The label words
// come first, the nearest label word first of all.
func contextOf(old *version, p int, t Box) []contextWord {
	type near struct {
		contextWord
		rank float64
		side int // 0 the tag's line, 1 above, 2 below, 3 elsewhere
	}
	var list []near
	for i := old.first[p]; i < old.first[p+1]; i++ {
		w := old.tokens[i].word.Box
		gx := max(0, w.X-t.right(), t.X-w.right())
		gy := max(0, w.Y-t.top(), t.Y-w.top())
		d := math.Hypot(gx, gy)
		sameLine := w.cy() >= t.Y-4 && w.cy() <= t.top()+1
		left := w.right() <= t.X+2
		above := w.Y >= t.top()-2 && w.X < t.right()+40 && w.right() > t.X-40
		bias, side := 1.0, 3
		label := false
		switch {
		case sameLine && left:
			bias, label, side = 3, d <= 120, 0
		case sameLine:
			bias, side = 1.5, 0
		case above:
			bias, label, side = 2, gy <= 24, 1
		case w.top() <= t.Y+2 && w.X < t.right()+40 && w.right() > t.X-40:
			bias, side = 1.5, 2
		}
		rank := (d + 5) / bias
		if label && sameLine {
			rank = d / 100 // the label on the tag's line comes first, always
		}
		list = append(list, near{contextWord{tok: i, weight: bias / (1 + d/40), label: label, line: sameLine, left: left}, rank, side})
	}
	slices.SortFunc(list, func(a, b near) int {
		if a.rank != b.rank {
			return cmp.Compare(a.rank, b.rank)
		}
		return cmp.Compare(a.tok, b.tok)
	})
	// The nearest words, but not all from one side: a paragraph above
	// that reflowed otherwise must not crowd out the lines below.
	var sides [4]int
	kept := list[:0]
	for _, n := range list {
		if len(kept) == maxContext {
			break
		}
		if n.side != 0 && sides[n.side] >= maxPerSide {
			continue
		}
		sides[n.side]++
		kept = append(kept, n)
	}
	list = kept
	// A label above counts only when there is none on the tag's line.
	onLine := false
	for _, n := range list {
		if n.label && n.line {
			onLine = true
		}
	}
	out := make([]contextWord, 0, len(list))
	for _, n := range list {
		if n.label && onLine && !n.line {
			n.label = false
		}
		out = append(out, n.contextWord)
	}
	// Labels first, the nearest first (the list's order), then the rest.
	slices.SortStableFunc(out, func(a, b contextWord) int {
		switch {
		case a.label == b.label:
			return 0
		case a.label:
			return -1
		}
		return 1
	})
	return out
}
