package revise

// Box is a rectangle in PDF user-space points: its lower-left corner and
// its size.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

func (b Box) right() float64 { return b.X + b.Width }
func (b Box) top() float64   { return b.Y + b.Height }
func (b Box) cx() float64    { return b.X + b.Width/2 }
func (b Box) cy() float64    { return b.Y + b.Height/2 }

// shift returns b moved by (dx, dy).
func (b Box) shift(dx, dy float64) Box {
	return Box{X: b.X + dx, Y: b.Y + dy, Width: b.Width, Height: b.Height}
}

// Word is one printed word and its box.
type Word struct {
	Text string `json:"text"`
	Box  Box    `json:"box"`
}

// Page is one page of a version: its size (the CropBox's, in points, with
// its lower-left corner at X, Y) and its printed words.
type Page struct {
	X      float64 `json:"x,omitempty"`
	Y      float64 `json:"y,omitempty"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Words  []Word  `json:"words"`
}

// Tag is a tag of the old version: its id, its page (1-based) and its box.
type Tag struct {
	ID   string `json:"id"`
	Page int    `json:"page"`
	Box  Box    `json:"box"`
}

// Outcomes of a tag.
const (
	// Moved: the tag's context was found and the tag follows it.
	Moved = "moved"
	// Unchanged: the context was found where it was (same page, within
	// UnchangedWithin points).
	Unchanged = "unchanged"
	// Flagged: the context was not found with enough confidence; the tag
	// stays at its old position on the best page, for a person to look at.
	Flagged = "flagged"
)

// Reasons a tag is flagged, stable codes the views word.
const (
	// ReasonPageNotFound: no page of the new version holds the text of the
	// tag's page (the page was removed, or the document is another one).
	ReasonPageNotFound = "page_not_found"
	// ReasonNoContext: no printed word is near the tag on its page.
	ReasonNoContext = "no_context"
	// ReasonContextNotFound: none of the words around the tag were found on
	// the pages its page went to.
	ReasonContextNotFound = "context_not_found"
	// ReasonLabelChanged: the words around the tag were found, but not its
	// label (the nearest word on its line, or above it): it was reworded.
	ReasonLabelChanged = "label_changed"
	// ReasonAmbiguous: the label is printed in several places and the
	// words around it do not tell which one is the tag's.
	ReasonAmbiguous = "ambiguous"
	// ReasonWeakContext: the label was found, but too few of the words
	// around it moved with it.
	ReasonWeakContext = "weak_context"
	// ReasonOffPage: following the context would put the tag off the page.
	ReasonOffPage = "off_page"
)

// Placement is what became of one tag.
type Placement struct {
	ID      string `json:"id"`
	Outcome string `json:"outcome"`
	// Reason is a flagged tag's reason code; empty otherwise.
	Reason  string `json:"reason,omitempty"`
	OldPage int    `json:"oldPage"`
	Old     Box    `json:"old"`
	NewPage int    `json:"newPage"`
	New     Box    `json:"new"`
	// Confidence is how surely the tag's context was found, 0 to 1; a tag
	// below Threshold is flagged.
	Confidence float64 `json:"confidence"`
}

// PageChange is what changed on one page: for a page of the new version,
// its counterpart in the old one (0: an inserted page) and the words it
// added; for a page of the old version, where it went (0: removed) and the
// words it lost.
type PageChange struct {
	Page int `json:"page"`
	// Counterpart is the page of the other version holding most of this
	// page's text, 0 when none does.
	Counterpart int    `json:"counterpart"`
	Words       []Word `json:"words"`
}

// Report is the mapping's answer.
type Report struct {
	// Tags has one placement per tag, in the order given.
	Tags []Placement `json:"tags"`
	// Added has one entry per page of the new version: the words it shows
	// that the old version did not.
	Added []PageChange `json:"added"`
	// Removed has one entry per page of the old version: the words the new
	// version no longer shows.
	Removed []PageChange `json:"removed"`
	// Counts are the tags by outcome.
	Moved     int `json:"moved"`
	Unchanged int `json:"unchanged"`
	Flagged   int `json:"flagged"`
}
