package detect

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
)

// Blank says where a label rule's field goes.
type Blank int

const (
	// BlankLine: on the blank next to the label: an underline (a drawn rule
	// or a row of underscores) to the right of the label, just above it,
	// just before it on its line or (under a label that is not bold) a
	// little below it, or a drawn box to the right of the label or around it.
	BlankLine Blank = iota
	// BlankNone: the label itself marks the place ("(Seal)"); the field is
	// centred on it.
	BlankNone
)

// LabelRule proposes a field of type Type where a printed label matching
// Pattern sits next to a blank.
type LabelRule struct {
	// Pattern must match the whole label: lower case, spaces collapsed,
	// without a trailing colon or period. A pattern ending in a colon
	// matches only a label written with one ("by:"), for words too common
	// to be labels without it.
	Pattern *regexp.Regexp
	Type    string
	// Confidence is the confidence of a label found beside the best kind of
	// blank; other kinds lower it.
	Confidence float64
	Blank      Blank
}

// who lists the parties whose name often qualifies a signature label.
const who = `(buyer|seller|borrower|co-borrower|lender|tenant|landlord|lessee|lessor|employee|employer|client|customer|contractor|party|witness|signer|grantor|grantee|affiant|principal|owner|applicant|guarantor|purchaser|vendor|member|manager|patient|parent|guardian|spouse|agent|attorney|trustee|(authorized|legal) (signatory|representative)|officer)`

// labelRules is compiled once; LabelRules hands out copies.
var labelRules = compileLabelRules()

// LabelRules returns the rules of suggested fields, most specific first (a
// label takes the first rule it matches).
func LabelRules() []LabelRule { return append([]LabelRule(nil), labelRules...) }

// compileLabelRules is the table of label rules. Extend it here: each row
// is a label pattern and the tag type it asks for.
func compileLabelRules() []LabelRule {
	r := func(p string) *regexp.Regexp { return regexp.MustCompile(`^(?:` + p + `)$`) }
	return []LabelRule{
		{r(`my commission expires( on)?|commission expires( on)?|commission expiration( date)?|my commission expiration date`), tagtype.CommissionExpiration, 0.9, BlankLine},
		{r(`(notary )?commission (no|number|#|id)( no)?|notary (registration|id) (no|number)`), tagtype.CommissionID, 0.9, BlankLine},
		{r(`(signature of )?notary public|notary( public)? signature|signature of notary|notary`), tagtype.Signature, 0.8, BlankLine},
		{r(`\(?(notary )?seal\)?|\((official )?notary seal\)|\[seal\]|l\.s\.|\(l\.s\.\)`), tagtype.Seal, 0.7, BlankNone},
		{r(`county of|county`), tagtype.NotaryCounty, 0.85, BlankLine},
		{r(`state of|state`), tagtype.NotaryState, 0.85, BlankLine},
		{r(`date|dated|date signed|signing date|signature date|date of signature|date ?(/|and|&) ?time|` + who + `('s)? date`), tagtype.Date, 0.9, BlankLine},
		{r(`signature|signed|sign:|sign here|please sign here|signed by|([a-z-]+ ){0,3}[a-z-]+('s)? signature|signature of (the )?` + who + `(( or| and|/) ` + who + `)?`), tagtype.Signature, 0.9, BlankLine},
		{r(`witness|witnessed by|` + who + ` witness`), tagtype.Signature, 0.8, BlankLine},
		{r(`by:`), tagtype.Signature, 0.8, BlankLine}, // a company's signature block; "by ____, who is …" is a name in a sentence
		{r(`initials?|initial here|[a-z-]+('s)? initials?`), tagtype.Initials, 0.9, BlankLine},
		{r(`print(ed)? name|name \(print(ed)?\)|full name|name|print|printed name of signer|typed or printed name|` + who + `('s)? (printed |full )?name|name of ` + who), tagtype.FullName, 0.85, BlankLine},
	}
}

// blank kinds, and how much each leaves of a rule's confidence.
type blankKind int

const (
	blankRule blankKind = iota
	blankUnderscores
	blankRect
)

// blankSpot is an underline or box of a page, in display space.
type blankSpot struct {
	box  pdf.Box
	kind blankKind
	used bool
}

// lineY is the height of the line one writes on.
func (b blankSpot) lineY() float64 {
	if b.kind == blankUnderscores {
		return b.box.LLY + 0.1*b.box.Height()
	}
	return (b.box.LLY + b.box.URY) / 2
}

// label is a printed label that matched a rule.
type label struct {
	text string
	box  pdf.Box
	rule LabelRule
	bold bool // headings are bold; labels over their writing space are not
}

// proposal is a suggested field before blanks are shared out.
type proposal struct {
	label      label
	blank      int // index into the blanks, -1 for none
	box        pdf.Box
	confidence float64
}

// maxSuggestWork caps the comparisons between labels, blanks, table rules
// and tags that suggestions make in one document (a fraction of a second);
// past it, the remaining pages get no suggestions. Normal pages take a few
// hundred.
const maxSuggestWork = 20_000_000

// underscores finds rows of three or more underscores.
var underscores = regexp.MustCompile(`_{3,}`)

// suggestions proposes fields at blanks next to labels on one page (runs
// are its runs in display space), leaving out those that overlap the tags
// already found (taken).
func suggestions(page int, p pdf.PageLayout, runs []pdf.TextRun, taken []DetectedTag, rules []LabelRule, work *int, clock *pdf.Ticker) ([]DetectedTag, error) {
	// Which rules are horizontal depends on the page's rotation.
	var across, upright []pdf.Box
	for _, b := range append(append([]pdf.Box(nil), p.Rules...), p.VerticalRules...) {
		if d := p.ToDisplay(b); d.Width() >= d.Height() {
			across = append(across, d)
		} else {
			upright = append(upright, d)
		}
	}
	var blanks []blankSpot
	for _, b := range across {
		if b.Width() >= 18 {
			blanks = append(blanks, blankSpot{box: b, kind: blankRule})
		}
	}
	for _, b := range p.Rects {
		blanks = append(blanks, blankSpot{box: p.ToDisplay(b), kind: blankRect})
	}
	var labels []label
	for _, r := range runs {
		if err := clock.Tick(); err != nil {
			return nil, err
		}
		idx := runeIndex(r.Text)
		start := 0
		piece := func(from, to int) {
			text := r.Text[from:to]
			trimmed := strings.TrimSpace(text)
			if trimmed == "" {
				return
			}
			lead := len(text) - len(strings.TrimLeft(text, " "))
			from += lead
			to = from + len(trimmed)
			if rule, ok := matchRule(rules, trimmed); ok {
				labels = append(labels, label{text: trimmed, box: spanBox(r, idx[from], idx[to]), rule: rule, bold: strings.Contains(r.Font, "Bold")})
			}
		}
		for _, m := range underscores.FindAllStringIndex(r.Text, -1) {
			piece(start, m[0])
			blanks = append(blanks, blankSpot{box: spanBox(r, idx[m[0]], idx[m[1]]), kind: blankUnderscores})
			start = m[1]
		}
		piece(start, len(r.Text))
	}
	var props []proposal
	for _, l := range labels {
		if err := clock.Tick(); err != nil {
			return nil, err
		}
		*work += len(blanks)
		if *work > maxSuggestWork {
			return nil, nil
		}
		if pr, ok := propose(l, blanks, upright, work); ok {
			props = append(props, pr)
		}
	}
	sort.SliceStable(props, func(i, j int) bool { return props[i].confidence > props[j].confidence })
	var takenBoxes []pdf.Box
	for _, t := range taken {
		takenBoxes = append(takenBoxes, p.ToDisplay(pdf.Box{LLX: t.X, LLY: t.Y, URX: t.X + t.Width, URY: t.Y + t.Height}))
	}
	var out []DetectedTag
	for _, pr := range props {
		if pr.blank >= 0 {
			if blanks[pr.blank].used {
				continue
			}
		}
		if err := clock.Tick(); err != nil {
			return nil, err
		}
		clash := false
		*work += len(takenBoxes)
		if *work > maxSuggestWork {
			return out, nil
		}
		for _, tb := range takenBoxes {
			if overlap(tb, pr.box) > 0.3 || (pr.blank >= 0 && overlap(tb, blanks[pr.blank].box) > 0.3) {
				clash = true
				break
			}
		}
		if clash {
			continue
		}
		if pr.blank >= 0 {
			blanks[pr.blank].used = true
		}
		t := place(p.Page, pr.label.rule.Type, page, pr.box)
		t.Source, t.Text, t.Confidence, t.Required = SourceLabel, pr.label.text, math.Round(pr.confidence*100)/100, true
		out = append(out, t)
	}
	return out, nil
}

// crossed reports whether a vertical rule crosses or meets the horizontal
// rule h away from its ends: h is then a border of a table's grid, not a
// line to write on.
func crossed(h pdf.Box, verticals []pdf.Box) bool {
	y := (h.LLY + h.URY) / 2
	for _, v := range verticals {
		x := (v.LLX + v.URX) / 2
		if x > h.LLX+2 && x < h.URX-2 && v.LLY <= y+1 && v.URY >= y-1 {
			return true
		}
	}
	return false
}

// matchRule returns the first rule whose pattern matches the label text as
// written: normalized (normalizeLabel), or, when it ends in a colon, with it.
func matchRule(rules []LabelRule, text string) (LabelRule, bool) {
	norm := normalizeLabel(text)
	colon := ""
	if strings.HasSuffix(strings.TrimSpace(text), ":") {
		colon = norm + ":"
	}
	for _, rule := range rules {
		if rule.Pattern.MatchString(norm) || (colon != "" && rule.Pattern.MatchString(colon)) {
			return rule, true
		}
	}
	return LabelRule{}, false
}

// normalizeLabel lower-cases a label, collapses its spaces and drops a
// trailing colon or period.
func normalizeLabel(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	s = strings.TrimRight(s, ":.*- ")
	return strings.TrimSpace(s)
}

// propose finds the blank of one label; a rule that a vertical rule
// crosses (upright, display space) is a table border, not a blank.
func propose(l label, blanks []blankSpot, upright []pdf.Box, work *int) (proposal, bool) {
	tt, _ := tagtype.ByCode(l.rule.Type)
	w, h := tt.DefaultWidth, tt.DefaultHeight
	if l.rule.Blank == BlankNone {
		cx, cy := (l.box.LLX+l.box.URX)/2, (l.box.LLY+l.box.URY)/2
		return proposal{label: l, blank: -1, box: pdf.Box{LLX: cx - w/2, LLY: cy - h/2, URX: cx + w/2, URY: cy + h/2}, confidence: l.rule.Confidence}, true
	}
	L := l.box
	s := L.Height()
	cy := (L.LLY + L.URY) / 2
	lineBox := func(b blankSpot) pdf.Box {
		y := b.lineY()
		return pdf.Box{LLX: b.box.LLX, LLY: y, URX: b.box.URX, URY: y + h}
	}
	best, bestDist, bestFactor := -1, math.Inf(1), 0.0
	consider := func(i int, dist, factor float64) {
		if !(factor > bestFactor || (factor == bestFactor && dist < bestDist)) {
			return
		}
		if blanks[i].kind == blankRule {
			*work += len(upright)
			if crossed(blanks[i].box, upright) {
				return
			}
		}
		best, bestDist, bestFactor = i, dist, factor
	}
	for i, b := range blanks {
		switch b.kind {
		case blankRule, blankUnderscores:
			y := b.lineY()
			gap := b.box.LLX - L.URX
			// On the same line, to the right.
			if gap >= -0.3*s && gap <= 3*s && y >= L.LLY-0.6*s && y <= L.LLY+0.6*s && b.box.Width() >= 1.5*s {
				consider(i, gap, 1.0)
				continue
			}
			// On the same line, ending just before the label ("______ Date").
			if left := L.LLX - b.box.URX; left >= -0.3*s && left <= 1.2*s && y >= L.LLY-0.6*s && y <= L.LLY+0.6*s && b.box.Width() >= 2*s {
				consider(i, left, 0.8)
				continue
			}
			// Just above the label, starting about where it starts.
			above := y - L.URY
			if above >= -0.3*s && above <= 2*s && L.LLX >= b.box.LLX-0.5*s && L.LLX <= b.box.LLX+0.6*b.box.Width() && b.box.Width() >= 2*s {
				consider(i, above, 0.95)
				continue
			}
			// Below a label that is not a heading, with room to write between.
			below := L.LLY - y
			if !l.bold && below >= s && below <= 4*s && L.LLX >= b.box.LLX-0.5*s && L.LLX <= b.box.LLX+0.3*b.box.Width() && b.box.Width() >= 2*s {
				consider(i, below, 0.75)
			}
		case blankRect:
			gap := b.box.LLX - L.URX
			if gap >= -0.3*s && gap <= 3*s && cy >= b.box.LLY && cy <= b.box.URY && b.box.Height() >= 0.8*s && b.box.Height() <= 8*s {
				consider(i, gap, 0.9)
				continue
			}
			if b.box.LLX <= L.LLX+1 && b.box.URX >= L.URX-1 && b.box.LLY <= L.LLY+1 && b.box.URY >= L.URY-1 &&
				b.box.Height() >= 1.8*s && b.box.Height() <= 12*s && L.LLX-b.box.LLX <= 0.3*b.box.Width() {
				consider(i, L.LLX-b.box.LLX, 0.85)
			}
		}
	}
	if best < 0 {
		return proposal{}, false
	}
	b := blanks[best]
	box := b.box
	if b.kind != blankRect {
		box = lineBox(b)
	}
	return proposal{label: l, blank: best, box: box, confidence: l.rule.Confidence * bestFactor}, true
}
