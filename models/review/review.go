// Package review is the pre-send check: it walks every participant's path
// through a transaction's documents and reports what would go wrong when the
// e-signature session is created (docs/review.md). A finding is data — a
// code, a severity, the participant, document, pages and tags it concerns,
// and the fix one click can make — worded by the views and the problem
// writer. The package reads only what it is given: it imports nothing of the
// store, so the room, the API and MCP share one check.
package review

import (
	"cmp"
	"slices"
	"strings"

	"github.com/markuproom/markuproom/models/tagtype"
)

// Severity says whether a finding stops the session.
type Severity string

// Severities.
const (
	// Blocking findings refuse the session (the room, the API and MCP alike).
	Blocking Severity = "blocking"
	// Warning findings are shown and asked about once; the session may go on.
	Warning Severity = "warning"
)

// Finding codes, stable words callers switch on.
const (
	// CodeNoDocuments: the transaction has no document.
	CodeNoDocuments = "no_documents"
	// CodeNoParticipants: the transaction has no participant.
	CodeNoParticipants = "no_participants"
	// CodeNothingToSign: a participant has no signature, initials or
	// notary act to make.
	CodeNothingToSign = "participant_signs_nothing"
	// CodeTagWithoutSigner: a tag is assigned to nobody.
	CodeTagWithoutSigner = "tag_without_signer"
	// CodeUnknownParticipant: a tag names a participant the transaction
	// does not have (removed, or never added).
	CodeUnknownParticipant = "tag_unknown_participant"
	// CodeTagsOverlap: tags of different participants overlap.
	CodeTagsOverlap = "tags_overlap"
	// CodeOutsidePage: a tag lies partly outside its page's visible box.
	CodeOutsidePage = "tag_outside_page"
	// CodeCoversText: a tag covers printed words.
	CodeCoversText = "tag_covers_text"
	// CodeFillWithoutSigning: a date-signed or name tag on a document
	// where its participant signs nothing.
	CodeFillWithoutSigning = "fill_without_signing"
	// CodeNotaryWithoutSeal: notary tags on a document with no notary seal
	// or commission stamp to make.
	CodeNotaryWithoutSeal = "notary_without_seal"
	// CodeInitialsMissing: a participant initials some pages of a document
	// and not others.
	CodeInitialsMissing = "initials_missing"
	// CodeDocumentUntagged: a document has no tags: its signers are not
	// asked to do anything on it.
	CodeDocumentUntagged = "document_untagged"
	// CodeSharedEmail: two participants have one e-mail address.
	CodeSharedEmail = "participants_share_email"
	// CodeTagNeedsLook: a revision of the tag's document could not find
	// the words around it surely enough; it stays at its old place until
	// someone looks (docs/revise.md).
	CodeTagNeedsLook = "tag_needs_look"
)

// Codes lists every finding code, for tests that word each one.
func Codes() []string {
	return []string{CodeNoDocuments, CodeNoParticipants, CodeNothingToSign, CodeTagWithoutSigner, CodeUnknownParticipant,
		CodeTagsOverlap, CodeOutsidePage, CodeCoversText, CodeFillWithoutSigning, CodeNotaryWithoutSeal,
		CodeInitialsMissing, CodeDocumentUntagged, CodeSharedEmail, CodeTagNeedsLook}
}

// FixKind names what one click does about a finding.
type FixKind string

// Fixes.
const (
	// FixCopyToPages copies Fix.Tag to Fix.Pages (one undo step).
	FixCopyToPages FixKind = "copy_to_pages"
	// FixShow selects Fix.Tag and brings it into view.
	FixShow FixKind = "show"
	// FixAssign selects Fix.Tag and opens its signer choice.
	FixAssign FixKind = "assign"
)

// Fix is what one click can do about a finding.
type Fix struct {
	Kind FixKind `json:"kind"`
	// Tag is the tag the fix starts from (copied, shown or assigned).
	Tag string `json:"tagId"`
	// Pages are the pages FixCopyToPages adds the tag to.
	Pages []int `json:"pages,omitempty"`
}

// Finding is one thing the check found.
type Finding struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Participant is the participant's id the finding is about ("" when
	// none); Other the second one of a pair (overlaps, shared e-mails).
	Participant string `json:"participantId,omitempty"`
	Other       string `json:"otherParticipantId,omitempty"`
	// Document is the document's position in the transaction (0-based), -1
	// when the finding is about none.
	Document int `json:"document"`
	// Pages are the pages concerned, 1-based, ascending.
	Pages []int `json:"pages,omitempty"`
	// Tags are the ids of the tags concerned.
	Tags []string `json:"tagIds,omitempty"`
	// Fix is what one click can do, when one can.
	Fix *Fix `json:"fix,omitempty"`
}

// Box is a rectangle in PDF user space: x, y its lower-left corner.
type Box struct{ X, Y, Width, Height float64 }

// overlap is the area two boxes share.
func (b Box) overlap(o Box) float64 {
	w := min(b.X+b.Width, o.X+o.Width) - max(b.X, o.X)
	h := min(b.Y+b.Height, o.Y+o.Height) - max(b.Y, o.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// Tag is one placed tag.
type Tag struct {
	ID     string
	Type   string
	Signer string
	Page   int
	Box    Box
	// NeedsLook is set on a tag a revision could not carry surely (its
	// reason code).
	NeedsLook string
}

// Page is one page: its visible box (the crop box) and the boxes of the
// words printed on it (nil when unknown: no text finding is made).
type Page struct {
	Box   Box
	Words []Box
}

// Document is one document of the transaction.
type Document struct {
	Title string
	Pages []Page
	Tags  []Tag
}

// Participant is one participant.
type Participant struct {
	ID    string
	Email string
}

// Transaction is what the check reads.
type Transaction struct {
	Documents    []Document
	Participants []Participant
}

// Limits of what one finding lists, so a careless layout gives a readable
// answer (the count of what was left out is not needed to fix the first).
const (
	// MaxFindings is the most findings one check returns; blocking ones
	// come first, so none is dropped for a warning.
	MaxFindings = 200
	// coverShare is the share of a word's box a tag must cover for the
	// word to count as covered (a tag's edge on a word's descender is not).
	coverShare = 0.4
	// overlapShare is the share of the smaller tag two tags must share to
	// be reported as overlapping.
	overlapShare = 0.1
)

// Check returns the findings of t, blocking ones first, then by document,
// page and code; at most MaxFindings.
func Check(t Transaction) []Finding {
	c := checker{t: t, notary: map[string]bool{}}
	for _, tt := range tagtype.All() {
		if tt.Group == tagtype.GroupNotary {
			c.notary[tt.Code] = true
		}
	}
	c.run()
	out := c.out
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(rank(a.Severity), rank(b.Severity)),
			cmp.Compare(a.Document, b.Document),
			cmp.Compare(firstPage(a), firstPage(b)),
			strings.Compare(a.Code, b.Code),
		)
	})
	if len(out) > MaxFindings {
		out = out[:MaxFindings]
	}
	return out
}

// Blocked tells whether any finding stops the session.
func Blocked(fs []Finding) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Severity == Blocking })
}

func rank(s Severity) int {
	if s == Blocking {
		return 0
	}
	return 1
}

func firstPage(f Finding) int {
	if len(f.Pages) == 0 {
		return 0
	}
	return f.Pages[0]
}

type checker struct {
	t      Transaction
	notary map[string]bool // the notary group's codes
	out    []Finding
}

func (c *checker) add(f Finding) { c.out = append(c.out, f) }

func (c *checker) run() {
	t := c.t
	if len(t.Documents) == 0 {
		c.add(Finding{Code: CodeNoDocuments, Severity: Blocking, Document: -1})
	}
	if len(t.Participants) == 0 {
		c.add(Finding{Code: CodeNoParticipants, Severity: Blocking, Document: -1})
	}
	c.sharedEmails()
	known := make(map[string]bool, len(t.Participants))
	for _, p := range t.Participants {
		known[p.ID] = true
	}
	signs := map[string]bool{} // participants with an act to make anywhere
	for i, d := range t.Documents {
		if len(d.Tags) == 0 {
			c.add(Finding{Code: CodeDocumentUntagged, Severity: Warning, Document: i})
			continue
		}
		c.document(i, d, known, signs)
	}
	for _, p := range t.Participants {
		if !signs[p.ID] && len(t.Documents) > 0 {
			f := Finding{Code: CodeNothingToSign, Severity: Blocking, Participant: p.ID, Document: -1}
			c.add(f)
		}
	}
}

// sharedEmails reports each pair of participants with one address (the
// API refuses it already; a check that says so keeps the room honest).
func (c *checker) sharedEmails() {
	first := map[string]string{}
	for _, p := range c.t.Participants {
		e := strings.ToLower(strings.TrimSpace(p.Email))
		if e == "" {
			continue
		}
		if id, ok := first[e]; ok {
			c.add(Finding{Code: CodeSharedEmail, Severity: Blocking, Participant: id, Other: p.ID, Document: -1})
			continue
		}
		first[e] = p.ID
	}
}

// document runs the checks of one document's tags.
func (c *checker) document(i int, d Document, known, signs map[string]bool) {
	signsHere := map[string]bool{}
	notarySeal := false
	var notary []string
	initialled := map[string]map[int]string{} // participant → page → an initials tag on it
	byPage := map[int][]Tag{}
	for _, tag := range d.Tags {
		byPage[tag.Page] = append(byPage[tag.Page], tag)
		if tag.NeedsLook != "" {
			c.add(Finding{Code: CodeTagNeedsLook, Severity: Warning, Participant: tag.Signer, Document: i, Pages: []int{tag.Page},
				Tags: []string{tag.ID}, Fix: &Fix{Kind: FixShow, Tag: tag.ID}})
		}
		switch {
		case tag.Signer == "":
			c.add(Finding{Code: CodeTagWithoutSigner, Severity: Blocking, Document: i, Pages: []int{tag.Page}, Tags: []string{tag.ID},
				Fix: &Fix{Kind: FixAssign, Tag: tag.ID}})
		case !known[tag.Signer]:
			c.add(Finding{Code: CodeUnknownParticipant, Severity: Blocking, Participant: tag.Signer, Document: i, Pages: []int{tag.Page},
				Tags: []string{tag.ID}, Fix: &Fix{Kind: FixAssign, Tag: tag.ID}})
		}
		if isAct(tag.Type) && tag.Signer != "" {
			signsHere[tag.Signer] = true
			signs[tag.Signer] = true
		}
		if isInitials(tag.Type) && tag.Signer != "" {
			if initialled[tag.Signer] == nil {
				initialled[tag.Signer] = map[int]string{}
			}
			if _, ok := initialled[tag.Signer][tag.Page]; !ok {
				initialled[tag.Signer][tag.Page] = tag.ID
			}
		}
		if tag.Type == tagtype.Seal || tag.Type == tagtype.CommissionStamp {
			notarySeal = true
		} else if c.notary[tag.Type] {
			notary = append(notary, tag.ID)
		}
		if tag.Page >= 1 && tag.Page <= len(d.Pages) {
			c.onPage(i, tag, d.Pages[tag.Page-1])
		}
	}
	for _, tag := range d.Tags {
		if (tag.Type == tagtype.Date || tag.Type == tagtype.FullName) && tag.Signer != "" && known[tag.Signer] && !signsHere[tag.Signer] {
			c.add(Finding{Code: CodeFillWithoutSigning, Severity: Warning, Participant: tag.Signer, Document: i,
				Pages: []int{tag.Page}, Tags: []string{tag.ID}, Fix: &Fix{Kind: FixShow, Tag: tag.ID}})
		}
	}
	if len(notary) > 0 && !notarySeal {
		c.add(Finding{Code: CodeNotaryWithoutSeal, Severity: Warning, Document: i, Tags: notary, Fix: &Fix{Kind: FixShow, Tag: notary[0]}})
	}
	c.missingInitials(i, d, initialled)
	pages := make([]int, 0, len(byPage))
	for p := range byPage {
		pages = append(pages, p)
	}
	slices.Sort(pages)
	for _, p := range pages {
		c.overlaps(i, p, byPage[p])
	}
}

// onPage checks one tag against its page: inside the visible box, and not
// over printed words.
func (c *checker) onPage(doc int, tag Tag, p Page) {
	b, box := tag.Box, p.Box
	if b.X < box.X || b.Y < box.Y || b.X+b.Width > box.X+box.Width || b.Y+b.Height > box.Y+box.Height {
		c.add(Finding{Code: CodeOutsidePage, Severity: Warning, Participant: tag.Signer, Document: doc, Pages: []int{tag.Page},
			Tags: []string{tag.ID}, Fix: &Fix{Kind: FixShow, Tag: tag.ID}})
	}
	for _, w := range p.Words {
		if area := w.Width * w.Height; area > 0 && b.overlap(w) >= coverShare*area {
			c.add(Finding{Code: CodeCoversText, Severity: Warning, Participant: tag.Signer, Document: doc, Pages: []int{tag.Page},
				Tags: []string{tag.ID}, Fix: &Fix{Kind: FixShow, Tag: tag.ID}})
			return
		}
	}
}

// missingInitials reports, for each participant who initials some pages of
// a multi-page document, the pages they do not initial, with the fix that
// copies their first initials tag there.
func (c *checker) missingInitials(doc int, d Document, initialled map[string]map[int]string) {
	signers := make([]string, 0, len(initialled))
	for s := range initialled {
		signers = append(signers, s)
	}
	slices.Sort(signers)
	for _, s := range signers {
		pages := initialled[s]
		if len(d.Pages) < 2 || len(pages) == len(d.Pages) {
			continue
		}
		var missing []int
		first, from := 0, ""
		for p := 1; p <= len(d.Pages); p++ {
			id, ok := pages[p]
			if !ok {
				missing = append(missing, p)
				continue
			}
			if first == 0 {
				first, from = p, id
			}
		}
		if len(missing) == 0 || first == 0 {
			continue
		}
		c.add(Finding{Code: CodeInitialsMissing, Severity: Warning, Participant: s, Document: doc, Pages: missing,
			Tags: []string{from}, Fix: &Fix{Kind: FixCopyToPages, Tag: from, Pages: missing}})
	}
}

// overlaps reports the pairs of one page's tags of different participants
// that overlap by more than overlapShare of the smaller one. The tags are
// swept in x order, so a page of many tags costs what its neighbours do.
func (c *checker) overlaps(doc, page int, tags []Tag) {
	slices.SortFunc(tags, func(a, b Tag) int { return cmp.Compare(a.Box.X, b.Box.X) })
	for i, a := range tags {
		for _, b := range tags[i+1:] {
			if b.Box.X >= a.Box.X+a.Box.Width {
				break
			}
			if a.Signer == b.Signer || a.Signer == "" || b.Signer == "" {
				continue
			}
			smaller := min(a.Box.Width*a.Box.Height, b.Box.Width*b.Box.Height)
			if smaller > 0 && a.Box.overlap(b.Box) > overlapShare*smaller {
				c.add(Finding{Code: CodeTagsOverlap, Severity: Warning, Participant: a.Signer, Other: b.Signer, Document: doc,
					Pages: []int{page}, Tags: []string{a.ID, b.ID}, Fix: &Fix{Kind: FixShow, Tag: b.ID}})
			}
		}
	}
}

// isAct tells whether a tag type is an act of signing: a signature,
// initials, or the notary's seal or stamp.
func isAct(code string) bool {
	switch code {
	case tagtype.Signature, tagtype.SignHere, tagtype.Initials, tagtype.InitialHere, tagtype.Seal, tagtype.CommissionStamp:
		return true
	}
	return false
}

func isInitials(code string) bool { return code == tagtype.Initials || code == tagtype.InitialHere }
