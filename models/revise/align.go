package revise

import (
	"cmp"
	"slices"
)

// alignment is how the old version's pages map onto the new one's.
type alignment struct {
	// shared[p] counts, for old page p, the distinct shingles of three
	// words it shares with each new page.
	shared []map[int]int
	// size[p] is the number of distinct shingles of old page p.
	size []int
	// candidates[p] are the new pages a tag of old page p is looked for
	// on, best first.
	candidates [][]int
	// best[p] is old page p's counterpart (-1: none); back[q] is new page
	// q's (-1: none).
	best, back []int
}

// maxCandidatePages caps the new pages one old page's tags are looked for
// on: the pages that share its text most, and the pages next to its best
// one (text flows onto the next page, or back from it).
const maxCandidatePages = 4

// align compares the pages of old and new by the shingles they share.
func align(old, new *version, newIx index) alignment {
	a := alignment{shared: make([]map[int]int, len(old.pages)), size: make([]int, len(old.pages)),
		candidates: make([][]int, len(old.pages)), best: make([]int, len(old.pages)), back: make([]int, len(new.pages))}
	newShared := make([]map[int]int, len(new.pages))
	newSize := make([]int, len(new.pages))
	for q := range new.pages {
		newShared[q] = map[int]int{}
		seen := map[uint64]bool{}
		for i := new.first[q]; i < new.first[q+1]; i++ {
			if h := new.grams[2][i]; h != 0 && !seen[h] {
				seen[h] = true
			}
		}
		newSize[q] = len(seen)
	}
	for p := range old.pages {
		a.shared[p] = map[int]int{}
		seen := map[uint64]bool{}
		for i := old.first[p]; i < old.first[p+1]; i++ {
			h := old.grams[2][i]
			if h == 0 || seen[h] {
				continue
			}
			seen[h] = true
			pages := map[int]bool{}
			for _, at := range newIx[2][h] {
				pages[new.pageOf(int(at))] = true
			}
			for q := range pages {
				a.shared[p][q]++
				newShared[q][p]++
			}
		}
		a.size[p] = len(seen)
	}
	for p := range old.pages {
		a.best[p] = bestOf(a.shared[p], a.size[p])
	}
	for q := range new.pages {
		a.back[q] = bestOf(newShared[q], newSize[q])
	}
	for p := range old.pages {
		a.candidates[p] = a.candidatesOf(p, len(new.pages))
	}
	return a
}

// prior is how much a guess on new page q is worth for a tag of old page
// p: 1 on the page sharing most of p's text, down to 0.75 on a page sharing
// none of it (text flows onto the next page, which then shares little).
func (a alignment) prior(p, q int) float64 {
	most := 0
	for _, n := range a.shared[p] {
		most = max(most, n)
	}
	if most == 0 {
		return 1
	}
	return 0.75 + 0.25*float64(a.shared[p][q])/float64(most)
}

// bestOf is the page sharing most shingles, if it shares enough of them:
// at least two, and a tenth of the page's.
func bestOf(shared map[int]int, size int) int {
	best, most := -1, 0
	for q, n := range shared {
		if n > most || n == most && q < best {
			best, most = q, n
		}
	}
	if most < 2 || most*10 < size {
		return -1
	}
	return best
}

// candidatesOf lists the new pages old page p's tags may have gone to.
func (a alignment) candidatesOf(p, pages int) []int {
	best := a.best[p]
	if best < 0 {
		// A page of too little text to align on its own sits between its
		// neighbours' counterparts.
		switch {
		case p > 0 && a.best[p-1] >= 0 && a.best[p-1]+1 < pages:
			best = a.best[p-1] + 1
		case p+1 < len(a.best) && a.best[p+1] > 0:
			best = a.best[p+1] - 1
		}
		if best < 0 || a.size[p] > 4 {
			return nil // a page of text of its own that is nowhere: removed
		}
	}
	type scored struct{ page, n int }
	var list []scored
	for q, n := range a.shared[p] {
		if q != best && n >= 2 && n*20 >= a.size[p] {
			list = append(list, scored{q, n})
		}
	}
	slices.SortFunc(list, func(x, y scored) int {
		if x.n != y.n {
			return cmp.Compare(y.n, x.n)
		}
		return cmp.Compare(x.page, y.page)
	})
	out := []int{best}
	for _, s := range list {
		if len(out) == maxCandidatePages-2 {
			break
		}
		out = append(out, s.page)
	}
	for _, q := range []int{best + 1, best - 1} {
		if q >= 0 && q < pages && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}
