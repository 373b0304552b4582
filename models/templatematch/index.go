package templatematch

import (
	"cmp"
	"slices"
	"sync"
)

// Banding of the signatures (locality-sensitive hashing): each signed page's
// signature is cut into bands of bandRows values; two pages that share one
// band (at the same page of documents of the same page count) make a
// candidate. With 32 bands of 2 rows, a page pair of Jaccard J shares a band
// with probability 1 − (1 − J²)³²: 0.9986 at J = 0.43 (Dice 0.6, the least
// score worth listing), 1 − 10⁻²¹ at J = 0.82 (Dice 0.9), 0.27 at J = 0.1.
const (
	bandRows = 2
	bands    = SignatureSize / bandRows
	// indexedPages caps the pages of a document whose bands are indexed: a
	// form is recognised by its first pages, and a long document must not
	// fill the index.
	indexedPages = 16
)

// Match is a fingerprint of the index and its score against a query.
type Match[K comparable] struct {
	Key   K
	Score float64
}

// Index finds, among the fingerprints added to it, those that score at least
// a minimum against a query, looking only at the ones that share a band of a
// page's signature with it. Its caller keeps one per organization. It is
// safe for concurrent use; the zero value is empty and ready.
type Index[K comparable] struct {
	mu      sync.RWMutex
	entries map[K]*entry[K]
	buckets map[uint64][]*entry[K]
	// added numbers the entries in the order they were added, which
	// breaks ties between equal scores.
	added uint64
	// slots is how many slots entries have taken; free are the slots of
	// removed ones, given again: a query marks the entries it has seen in
	// a bitset of slots.
	slots int
	free  []int
}

// entry is one fingerprint of the index.
type entry[K comparable] struct {
	fp    Fingerprint
	key   K
	keys  []uint64
	order uint64
	slot  int
}

// Len is the number of fingerprints in the index.
func (x *Index[K]) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.entries)
}

// Add puts fp in the index under key, replacing what key held.
func (x *Index[K]) Add(key K, fp Fingerprint) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.remove(key)
	if x.entries == nil {
		x.entries, x.buckets = map[K]*entry[K]{}, map[uint64][]*entry[K]{}
	}
	x.added++
	e := &entry[K]{fp: fp, key: key, keys: bandKeys(fp), order: x.added, slot: x.slots}
	if n := len(x.free); n > 0 {
		e.slot, x.free = x.free[n-1], x.free[:n-1]
	} else {
		x.slots++
	}
	x.entries[key] = e
	for _, k := range e.keys {
		x.buckets[k] = append(x.buckets[k], e)
	}
}

// Remove takes key's fingerprint out of the index (nothing when it holds none).
func (x *Index[K]) Remove(key K) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.remove(key)
}

func (x *Index[K]) remove(key K) {
	e, ok := x.entries[key]
	if !ok {
		return
	}
	delete(x.entries, key)
	x.free = append(x.free, e.slot)
	for _, k := range e.keys {
		b := x.buckets[k]
		if i := slices.Index(b, e); i >= 0 {
			b[i] = b[len(b)-1]
			b[len(b)-1] = nil
			b = b[:len(b)-1]
		}
		if len(b) == 0 {
			delete(x.buckets, k)
		} else {
			x.buckets[k] = b
		}
	}
}

// Query returns at most limit of the fingerprints that share a band with fp
// and score at least minScore (and more than 0) against it, best first;
// equal scores in the order they were added.
func (x *Index[K]) Query(fp Fingerprint, limit int, minScore float64) []Match[K] {
	if limit <= 0 {
		return nil
	}
	found := x.candidates(fp)
	type scored struct {
		e     *entry[K]
		score float64
	}
	var kept []scored
	for _, e := range found {
		if s := Score(fp, e.fp); s > 0 && s >= minScore {
			kept = append(kept, scored{e, s})
		}
	}
	slices.SortFunc(kept, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.e.order, b.e.order)
	})
	out := make([]Match[K], 0, min(limit, len(kept)))
	for _, s := range kept[:min(limit, len(kept))] {
		out = append(out, Match[K]{Key: s.e.key, Score: s.score})
	}
	return out
}

// candidates are the entries that share at least one band with fp, each once.
func (x *Index[K]) candidates(fp Fingerprint) []*entry[K] {
	keys := bandKeys(fp)
	x.mu.RLock()
	defer x.mu.RUnlock()
	seen := make([]uint64, (x.slots+63)/64)
	var out []*entry[K]
	for _, k := range keys {
		for _, e := range x.buckets[k] {
			if bit := uint64(1) << (e.slot % 64); seen[e.slot/64]&bit == 0 {
				seen[e.slot/64] |= bit
				out = append(out, e)
			}
		}
	}
	return out
}

// bandKeys are the bucket keys of fp: for each of its first indexedPages
// pages with text, one per band, from the page count, the page's position,
// the band's position and its values (pages of documents of different
// lengths never meet).
func bandKeys(fp Fingerprint) []uint64 {
	var out []uint64
	for i, p := range fp.pages[:min(len(fp.pages), indexedPages)] {
		if p.sig == nil {
			continue
		}
		for b := range bands {
			h := mix64(uint64(len(fp.pages))<<40 ^ uint64(i)<<20 ^ uint64(b))
			for _, v := range p.sig[b*bandRows : (b+1)*bandRows] {
				h = mix64(h ^ uint64(v))
			}
			out = append(out, h)
		}
	}
	return out
}
