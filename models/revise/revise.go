package revise

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Threshold is the confidence below which a tag is flagged
// (docs/revise.md, "Confidence").
const Threshold = 0.7

// UnchangedWithin is how far (points, each way) a tag may move on its own
// page and still count as unchanged.
const UnchangedWithin = 0.5

// Bounds of one mapping: the pages and words are the PDF workers' caps
// (pdfjob.MaxWordsPerPage, MaxWords; pdf.MaxPages), the tags a room's.
const (
	MaxPages        = 2000
	MaxWordsPerPage = 4000
	MaxWords        = 100_000
	MaxTags         = 10_000
)

// ErrTooLarge reports input past the bounds.
var ErrTooLarge = errors.New("revise: too many pages, words or tags")

// maxCandidates caps the places one context word is looked for at.
const maxCandidates = 6

// Match carries each tag of old onto new and lists the words each page
// added and lost. Every tag gets a placement; a tag on a page old does not
// have is flagged on new's nearest page. It refuses input past the bounds
// and stops when ctx ends.
func Match(ctx context.Context, old []Page, tags []Tag, new []Page) (Report, error) {
	if err := check(old, new, tags); err != nil {
		return Report{}, err
	}
	ov, nv := read(old), read(new)
	ov.ix, nv.ix = ov.index(), nv.index()
	nix := nv.ix
	a := align(ov, nv, nix)
	var r Report
	all := make([]placed, len(tags))
	for i, t := range tags {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return Report{}, err
			}
		}
		all[i] = place(ov, nv, nix, a, t)
	}
	settle(all, tags)
	r.Tags = make([]Placement, len(tags))
	for i, p := range all {
		r.Tags[i] = p.Placement
		switch p.Outcome {
		case Moved:
			r.Moved++
		case Unchanged:
			r.Unchanged++
		default:
			r.Flagged++
		}
	}
	if err := ctx.Err(); err != nil {
		return Report{}, err
	}
	r.Added, r.Removed = changes(ov, nv, nix, a)
	return r, nil
}

// check refuses input past the bounds.
func check(old, new []Page, tags []Tag) error {
	if len(old) > MaxPages || len(new) > MaxPages || len(tags) > MaxTags {
		return ErrTooLarge
	}
	for _, v := range [][]Page{old, new} {
		total := 0
		for _, p := range v {
			if len(p.Words) > MaxWordsPerPage {
				return ErrTooLarge
			}
			total += len(p.Words)
		}
		if total > MaxWords {
			return ErrTooLarge
		}
	}
	for _, t := range tags {
		if t.Page < 1 || t.Page > len(old) {
			return fmt.Errorf("revise: tag %q is on page %d of %d", t.ID, t.Page, len(old))
		}
	}
	return nil
}

// candidate is one place a context word may have gone to.
type candidate struct {
	tok int // index in the new version's tokens
	// strength is how surely the word went there: each shingle holding the
	// word that is printed there counts (one of three words 1, of two 0.6,
	// the word alone 0.35), shared among the places it is printed at;
	// at most 1.
	strength float64
	// joined: a shingle of two or three words holds it, not the word alone.
	joined bool
	rank   int // of its page among the old page's candidate pages
}

// shingleWeights are what a shingle of one, two and three words counts.
var shingleWeights = [3]float64{0.35, 0.6, 1}

// candidatesOf finds where old token k went: the places in new of the
// shingles that hold it, on the given pages.
func candidatesOf(old, new *version, nix index, k int, pages []int) []candidate {
	found := map[int]*candidate{}
	for n := 2; n >= 0; n-- {
		if n == 0 && !old.tokens[k].long {
			continue
		}
		for s := 0; s <= n; s++ {
			start := k - s
			if start < 0 || start >= len(old.tokens) || old.grams[n][start] == 0 {
				continue
			}
			places := nix[n][old.grams[n][start]]
			for _, at := range places {
				q := int(at) + s
				rank := slices.Index(pages, new.pageOf(q))
				if rank < 0 {
					continue
				}
				c := found[q]
				if c == nil {
					c = &candidate{tok: q, rank: rank}
					found[q] = c
				}
				c.strength = min(1, c.strength+shingleWeights[n]/float64(len(places)))
				c.joined = c.joined || n > 0
			}
		}
	}
	// Words printed alike in many places (the labels of a form repeated in
	// every clause) are found through the nearest unique shingle before or
	// after them: when the words between match too, the word is where that
	// shingle's stretch puts it.
	for _, dir := range []int{-1, 1} {
		for d := 1; d <= maxStretch; d++ {
			from := k + dir*d
			if from < 0 || from >= len(old.tokens) {
				break
			}
			h := old.grams[2][from]
			if h == 0 {
				continue
			}
			places := nix[2][h]
			if len(places) != 1 || len(old.ix[2][h]) != 1 {
				continue
			}
			q := int(places[0]) - dir*d
			if q < 0 || q >= len(new.tokens) || !sameStretch(old, new, min(k, from), min(q, int(places[0])), d+1) {
				break
			}
			rank := slices.Index(pages, new.pageOf(q))
			if rank < 0 {
				break
			}
			c := found[q]
			if c == nil {
				c = &candidate{tok: q, rank: rank}
				found[q] = c
			}
			c.strength, c.joined = 1, true
			break
		}
	}
	out := make([]candidate, 0, len(found))
	for _, c := range found {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b candidate) int {
		switch {
		case a.strength != b.strength:
			return cmpFloat(b.strength, a.strength)
		case a.rank != b.rank:
			return a.rank - b.rank
		}
		return a.tok - b.tok
	})
	return out[:min(len(out), maxCandidates)]
}

// maxStretch is how far (in words) a word's unique shingle is looked for.
const maxStretch = 12

// sameStretch tells whether the n words of old from i are the n words of
// new from j.
func sameStretch(old, new *version, i, j, n int) bool {
	if j+n > len(new.tokens) || i+n > len(old.tokens) {
		return false
	}
	for k := range n {
		if old.tokens[i+k].hash != new.tokens[j+k].hash {
			return false
		}
	}
	return true
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// guess is where one context word's candidate puts the tag.
type guess struct {
	page int
	box  Box
	cand candidate
}

// predict is where the tag lands if context word c went to candidate n.
func predict(old, new *version, t Box, c contextWord, n candidate) guess {
	ow, nw := old.tokens[c.tok].word.Box, new.tokens[n.tok].word.Box
	dx := nw.X - ow.X
	if c.left {
		dx = nw.right() - ow.right()
	}
	return guess{page: new.pageOf(n.tok), box: t.shift(dx, nw.Y-ow.Y), cand: n}
}

// agrees tells whether two guesses from context words a and b put the tag
// at one place: on one page, within a tolerance that grows with the words'
// distance on the old page (a change of font or margin moves words far
// apart by different amounts).
func agrees(old *version, a, b contextWord, x, y guess) bool {
	if x.page != y.page {
		return false
	}
	ab, bb := old.tokens[a.tok].word.Box, old.tokens[b.tok].word.Box
	tx := 2.5 + 0.25*math.Abs(ab.cx()-bb.cx())
	ty := 2.5 + 0.12*math.Abs(ab.cy()-bb.cy())
	return math.Abs(x.box.X-y.box.X) <= tx && math.Abs(x.box.Y-y.box.Y) <= ty
}

// place carries one tag: it follows the first word of its context (its
// label, else the nearest word) to the candidate place the other words of
// the context agree with most.
func place(old, new *version, nix index, a alignment, t Tag) placed {
	pl := placed{oldLead: -1, newLead: -1}
	pl.Placement = placeTag(old, new, nix, a, t, &pl)
	return pl
}

// placed is a placement with what its lead word was and where it went.
type placed struct {
	Placement
	oldLead, newLead int
	score            float64
}

func placeTag(old, new *version, nix index, a alignment, t Tag, pl *placed) Placement {
	p := t.Page - 1
	out := Placement{ID: t.ID, OldPage: t.Page, Old: t.Box}
	flag := func(reason string, page int) Placement {
		if page < 0 {
			page = min(p, len(new.pages)-1)
		}
		out.Outcome, out.Reason, out.NewPage, out.New = Flagged, reason, page+1, t.Box
		return out
	}
	pages := a.candidates[p]
	if len(pages) == 0 {
		return flag(ReasonPageNotFound, -1)
	}
	ctx := contextOf(old, p, t.Box)
	if len(ctx) == 0 {
		return flag(ReasonNoContext, pages[0])
	}
	cands := make([][]candidate, len(ctx))
	for i, c := range ctx {
		cands[i] = candidatesOf(old, new, nix, c.tok, pages)
	}
	lead := ctx[0]
	if len(cands[0]) == 0 {
		// The label is nowhere: the page the rest of the context went to.
		page := pages[0]
		for i := range ctx {
			if len(cands[i]) > 0 {
				page = new.pageOf(cands[i][0].tok)
				break
			}
		}
		if lead.label {
			return flag(ReasonLabelChanged, page)
		}
		return flag(ReasonContextNotFound, page)
	}
	// Each place of the lead word is a guess; the other words' agreement
	// scores it.
	type scored struct {
		g       guess
		support float64
		score   float64
	}
	var guesses []scored
	for _, n := range cands[0] {
		g := predict(old, new, t.Box, lead, n)
		support := 0.0
		for j := 1; j < len(ctx); j++ {
			s := 0.0
			for _, m := range cands[j] {
				if m.strength > s && agrees(old, lead, ctx[j], g, predict(old, new, t.Box, ctx[j], m)) {
					s = m.strength
				}
			}
			support += ctx[j].weight * s
		}
		guesses = append(guesses, scored{g, support, (lead.weight*n.strength + support) * a.prior(p, g.page)})
	}
	slices.SortStableFunc(guesses, func(x, y scored) int {
		if x.score != y.score {
			return cmpFloat(y.score, x.score)
		}
		return x.g.cand.rank - y.g.cand.rank
	})
	best := guesses[0]
	pl.oldLead, pl.newLead, pl.score = lead.tok, best.g.cand.tok, best.score
	out.NewPage, out.New = best.g.page+1, best.g.box
	out.Confidence = round3(0.5*best.g.cand.strength + 0.5*min(1, best.support/lead.weight))
	// The runner-up at another place: when it scores nearly as well, the
	// words around do not tell the label's places apart.
	for _, r := range guesses[1:] {
		if agrees(old, lead, lead, best.g, r.g) {
			continue
		}
		if r.score >= 0.85*best.score {
			out.Confidence = min(out.Confidence, round3(Threshold*r.score/best.score/2))
			return flagged(out, ReasonAmbiguous, t.Box)
		}
		break
	}
	switch {
	case !best.g.cand.joined:
		out.Confidence = min(out.Confidence, Threshold/2)
		if lead.label {
			return flagged(out, ReasonLabelChanged, t.Box)
		}
		return flagged(out, ReasonContextNotFound, t.Box)
	case out.Confidence < Threshold:
		return flagged(out, ReasonWeakContext, t.Box)
	case !inside(out.New, new.pages[best.g.page]):
		return flagged(out, ReasonOffPage, t.Box)
	}
	out.Outcome = Moved
	if out.NewPage == out.OldPage && math.Abs(out.New.X-t.Box.X) <= UnchangedWithin && math.Abs(out.New.Y-t.Box.Y) <= UnchangedWithin {
		out.Outcome, out.New = Unchanged, t.Box
	}
	return out
}

// settle flags the tags that followed different words of the old version
// to one word of the new: when a clause is removed, the label of the one
// before it and the label of the removed one (the same words) can both
// claim the one label left. The claim that scores clearly best (a quarter
// more) keeps it; when none does, every claimant is flagged.
func settle(all []placed, tags []Tag) {
	claims := map[int][]int{} // new lead word → placements
	for i, p := range all {
		if p.newLead >= 0 && p.Outcome != Flagged {
			claims[p.newLead] = append(claims[p.newLead], i)
		}
	}
	for _, list := range claims {
		best, second := -1, -1
		for _, i := range list {
			switch {
			case best < 0 || all[i].score > all[best].score:
				if best >= 0 && all[best].oldLead != all[i].oldLead {
					second = best
				}
				best = i
			case all[i].oldLead != all[best].oldLead && (second < 0 || all[i].score > all[second].score):
				second = i
			}
		}
		if second < 0 {
			continue // one word of the old version: no conflict
		}
		clear := all[best].score >= 1.25*all[second].score
		for _, i := range list {
			if clear && all[i].oldLead == all[best].oldLead {
				continue
			}
			all[i].Confidence = min(all[i].Confidence, Threshold/2)
			all[i].Placement = flagged(all[i].Placement, ReasonAmbiguous, tags[i].Box)
		}
	}
}

// flagged marks a placement flagged: on the page its best guess found, at
// the tag's old position.
func flagged(p Placement, reason string, old Box) Placement {
	p.Outcome, p.Reason, p.New = Flagged, reason, old
	return p
}

// inside tells whether b lies on page pg (within a point).
func inside(b Box, pg Page) bool {
	return b.X >= pg.X-1 && b.Y >= pg.Y-1 && b.right() <= pg.X+pg.Width+1 && b.top() <= pg.Y+pg.Height+1
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
