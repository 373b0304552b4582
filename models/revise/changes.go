package revise

// changes lists, per page of each version, the words the other version
// does not show: a word is kept when one of the shingles of three words
// that hold it (one word, on a version of fewer) is printed in the other
// version too.
func changes(old, new *version, nix index, a alignment) (added, removed []PageChange) {
	oix := old.ix
	added = make([]PageChange, len(new.pages))
	for q := range new.pages {
		added[q] = PageChange{Page: q + 1, Counterpart: a.back[q] + 1, Words: unmatched(new, oix, q)}
	}
	removed = make([]PageChange, len(old.pages))
	for p := range old.pages {
		removed[p] = PageChange{Page: p + 1, Counterpart: a.best[p] + 1, Words: unmatched(old, nix, p)}
	}
	return added, removed
}

// unmatched are the words of page p of v whose shingles other lacks.
func unmatched(v *version, other index, p int) []Word {
	out := []Word{}
	n := 2
	if len(v.tokens) < 3 {
		n = 0
	}
	for k := v.first[p]; k < v.first[p+1]; k++ {
		kept := false
		for s := 0; s <= n && !kept; s++ {
			start := k - s
			if start < 0 || v.grams[n][start] == 0 {
				continue
			}
			_, kept = other[n][v.grams[n][start]]
		}
		if !kept {
			out = append(out, v.tokens[k].word)
		}
	}
	return out
}
