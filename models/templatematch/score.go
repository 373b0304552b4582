package templatematch

// Score says how alike two documents are, in 0–1: 0 when their page counts
// differ, when a page's sides differ by more than 1 pt, or when neither holds
// text to compare; otherwise the mean over the signed pages, weighted by
// their text (the larger shingle count of the two), of each page's Dice
// coefficient 2|A∩B| / (|A|+|B|) of the two shingle sets, estimated from the
// MinHash signatures (Dice = 2J / (1+J) of the Jaccard estimate J). A page
// with text on one side only counts as 0; a page without text on either side
// does not count. Dice rather than Jaccard: the text a form is filled in
// with differs on both sides and Jaccard would count it twice.
func Score(a, b Fingerprint) float64 {
	if len(a.pages) != len(b.pages) || len(a.pages) == 0 {
		return 0
	}
	for i := range a.pages {
		if !sameSize(a.pages[i], b.pages[i]) {
			return 0
		}
	}
	var sum, weights float64
	for i := range min(len(a.pages), MaxSignedPages) {
		p, q := a.pages[i], b.pages[i]
		w := float64(max(p.shingles, q.shingles))
		if p.sig == nil || q.sig == nil {
			weights += w
			continue
		}
		same := 0
		for k := range p.sig {
			if p.sig[k] == q.sig[k] {
				same++
			}
		}
		j := float64(same) / SignatureSize
		sum += w * 2 * j / (1 + j)
		weights += w
	}
	if weights == 0 {
		return 0
	}
	return min(1, sum/weights)
}

// sameSize reports whether two pages' sides are within 1 pt of each other.
func sameSize(p, q pageFingerprint) bool {
	return within(p.width, q.width) && within(p.height, q.height)
}

func within(a, b uint32) bool {
	if a > b {
		a, b = b, a
	}
	return b-a <= sizeTolerance10
}
