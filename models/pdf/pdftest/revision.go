package pdftest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
)

// The revision corpus: a contract and its revisions, each written as a
// real PDF by a small layout engine (paragraphs wrapped with the fonts'
// metrics, page breaks, a running header and footer) that knows where every
// field went — the truth the tags of the revised documents are measured
// against (models/revise, docs/revise.md).

// Revision kinds of RevisionCorpus.
const (
	RevisionParagraphAdded = "paragraph-added"
	RevisionClauseRemoved  = "clause-removed"
	RevisionPagesInserted  = "page-inserted-and-removed"
	RevisionPagesReordered = "pages-reordered"
	RevisionReflowed       = "font-and-margins"
	RevisionLabelReworded  = "label-reworded"
	RevisionOtherDocument  = "other-document"
)

// RevisionField is where a field of a generated contract is: its page
// (1-based) and its box in user space.
type RevisionField struct {
	Page int
	Box  pdf.Box
}

// RevisionDoc is one generated version: its PDF and where each field is (a
// field the version no longer has is absent).
type RevisionDoc struct {
	Kind   string
	PDF    []byte
	Fields map[string]RevisionField
}

// Block kinds of a contract.
const (
	blockHeading = iota
	blockParagraph
	blockField      // a label with its field to the right on its line
	blockFieldBelow // a label with its field under it
	blockPageBreak
)

// block is one piece of a contract: a heading, a paragraph, a labelled
// field or a page break.
type block struct {
	kind  int
	text  string // a heading's or paragraph's text, a field's label
	id    string // a field's id
	w, h  float64
	title string // the heading of a page a page break starts
}

// style is how a contract is set: its font, size, leading and margins.
type style struct {
	font                     string
	size, leading            float64
	left, right, top, bottom float64
}

var letterStyle = style{font: "Helvetica", size: 10, leading: 14, left: 72, right: 72, top: 84, bottom: 72}

// RevisionCorpus returns the contract and its revisions: a paragraph added
// on page 1 (fields flow to page 2), a clause removed with its field, a page
// inserted and one removed, pages reordered, a font and margin change that
// reflows every page, one label reworded, and a different document of the
// same size.
func RevisionCorpus() (RevisionDoc, []RevisionDoc) {
	base := contract(1)
	withParagraph := slices.Clone(base)
	at := slices.IndexFunc(withParagraph, func(b block) bool { return b.kind == blockParagraph })
	withParagraph = slices.Insert(withParagraph, at+1, block{kind: blockParagraph, text: prose(rand.New(rand.NewPCG(7, 7)), 9)})

	removed := dropSection(base, "5. Confidentiality")

	pages := splitPages(base)
	inserted := slices.Concat(pages[0], pages[1], schedulePage("Schedule 1A - Change Control", 11, "s1a"), pages[3])
	reordered := slices.Concat(pages[0], pages[3], pages[2], pages[1])

	reworded := slices.Clone(base)
	for i, b := range reworded {
		if b.id == "governing-state" {
			reworded[i].text = "State whose law governs:"
		}
	}
	times := letterStyle
	times.font, times.size, times.leading, times.left, times.right = "Times-Roman", 11, 15, 90, 90

	// Another document: other prose, other headings, other labels.
	other := contract(99)
	for i, b := range other {
		other[i].id = ""
		switch b.kind {
		case blockField, blockFieldBelow:
			other[i].text = fmt.Sprintf("Entry %d of the lessee:", i)
		case blockHeading:
			other[i].text = fmt.Sprintf("Article %d", i)
		case blockPageBreak:
			other[i].title = fmt.Sprintf("Annex %d", i)
		case blockParagraph:
			other[i].text = strings.Replace(b.text, "IN WITNESS WHEREOF the parties have signed this agreement.", "Lessor and lessee sign below.", 1)
		}
	}
	return render("base", base, letterStyle), []RevisionDoc{
		render(RevisionParagraphAdded, withParagraph, letterStyle),
		render(RevisionClauseRemoved, removed, letterStyle),
		render(RevisionPagesInserted, inserted, letterStyle),
		render(RevisionPagesReordered, reordered, letterStyle),
		render(RevisionReflowed, base, times),
		render(RevisionLabelReworded, reworded, letterStyle),
		render(RevisionOtherDocument, other, letterStyle),
	}
}

// RevisionContract returns a contract of the given number of pages with
// about ten fields a page (labels repeated in every clause, as initials
// and dates are), and the same contract with a paragraph added on its first
// page: a large revision, for benchmarks.
func RevisionContract(pages int) (RevisionDoc, RevisionDoc) {
	r := rand.New(rand.NewPCG(11, 11))
	body := []block{{kind: blockHeading, text: "MASTER SERVICES AGREEMENT"}, {kind: blockParagraph, text: prose(r, 4)}}
	for i := 1; i <= pages*4; i++ {
		body = append(body,
			block{kind: blockHeading, text: fmt.Sprintf("%d. Clause %d", i, i)},
			block{kind: blockParagraph, text: prose(r, 2+r.IntN(2))},
			block{kind: blockField, text: "Initials of Client:", id: fmt.Sprintf("c%d-client", i), w: 40, h: 16},
			block{kind: blockField, text: "Initials of Provider:", id: fmt.Sprintf("c%d-provider", i), w: 40, h: 16},
			block{kind: blockField, text: "Date:", id: fmt.Sprintf("c%d-date", i), w: 90, h: 16})
	}
	doc := render("base", body, letterStyle)
	for len(doc.Fields) > 0 && maxPage(doc) > pages {
		body = body[:len(body)-5]
		doc = render("base", body, letterStyle)
	}
	added := slices.Insert(slices.Clone(body), 2, block{kind: blockParagraph, text: prose(rand.New(rand.NewPCG(7, 7)), 9)})
	return doc, render(RevisionParagraphAdded, added, letterStyle)
}

// maxPage is the last page a version's fields are on.
func maxPage(d RevisionDoc) int {
	n := 0
	for _, f := range d.Fields {
		n = max(n, f.Page)
	}
	return n
}

// dropSection removes a section: its heading and the blocks up to the next
// heading.
func dropSection(blocks []block, heading string) []block {
	var out []block
	in := false
	for _, b := range blocks {
		if b.kind == blockHeading || b.kind == blockPageBreak {
			in = b.text == heading
		}
		if !in {
			out = append(out, b)
		}
	}
	return out
}

// splitPages cuts a contract at its page breaks, each part but the first
// starting with its break.
func splitPages(blocks []block) [][]block {
	var out [][]block
	start := 0
	for i, b := range blocks {
		if b.kind == blockPageBreak {
			out = append(out, blocks[start:i])
			start = i
		}
	}
	return append(out, blocks[start:])
}

// contract is the contract of the given seed: the body, three schedules on
// pages of their own and a signature page.
func contract(seed uint64) []block {
	out := contractBody(seed, "")
	out = append(out, schedulePage("Schedule 1 - Service Levels", seed+1, "s1")...)
	out = append(out, schedulePage("Schedule 2 - Data Processing", seed+2, "s2")...)
	r := rand.New(rand.NewPCG(seed, 3))
	out = append(out, block{kind: blockPageBreak, title: "Signatures"},
		block{kind: blockParagraph, text: "IN WITNESS WHEREOF the parties have signed this agreement. " + prose(r, 3)})
	for _, party := range []string{"Client", "Provider"} {
		p := strings.ToLower(party)
		out = append(out,
			block{kind: blockFieldBelow, text: party + " signature", id: "sign-" + p, w: 200, h: 30},
			block{kind: blockField, text: "Name:", id: "name-" + p, w: 160, h: 16},
			block{kind: blockField, text: "Title:", id: "title-" + p, w: 160, h: 16},
			block{kind: blockField, text: "Date:", id: "date-" + p, w: 90, h: 16},
			block{kind: blockParagraph, text: prose(r, 1)},
		)
	}
	return out
}

// contractBody is the contract's body: a title, an introduction and eight
// sections of prose with fields between them; field ids start with prefix.
func contractBody(seed uint64, prefix string) []block {
	r := rand.New(rand.NewPCG(seed, 1))
	out := []block{{kind: blockHeading, text: "MASTER SERVICES AGREEMENT"}, {kind: blockParagraph, text: prose(r, 4)}}
	sections := []struct {
		title  string
		fields []block
	}{
		{"1. Definitions", []block{{kind: blockField, text: "Effective date:", id: "effective-date", w: 90, h: 16}}},
		{"2. Services", []block{{kind: blockField, text: "Initials of Client:", id: "initials-2c", w: 40, h: 16}, {kind: blockField, text: "Initials of Provider:", id: "initials-2p", w: 40, h: 16}}},
		{"3. Fees", []block{{kind: blockField, text: "Monthly fee approved by:", id: "fee-approver", w: 140, h: 16}}},
		{"4. Term and Termination", []block{{kind: blockField, text: "Initials of Client:", id: "initials-4", w: 40, h: 16}}},
		{"5. Confidentiality", []block{{kind: blockField, text: "Initials of Client:", id: "initials-5", w: 40, h: 16}}},
		{"6. Liability", []block{{kind: blockField, text: "Liability cap agreed:", id: "liability-cap", w: 100, h: 16}}},
		{"7. Governing Law", []block{{kind: blockField, text: "Governing state:", id: "governing-state", w: 100, h: 16}}},
		{"8. Notices", []block{{kind: blockFieldBelow, text: "Notice address of the Client", id: "notice-address", w: 220, h: 30}}},
	}
	for _, s := range sections {
		out = append(out, block{kind: blockHeading, text: s.title},
			block{kind: blockParagraph, text: prose(r, 3+r.IntN(3))}, block{kind: blockParagraph, text: prose(r, 2+r.IntN(3))})
		for _, f := range s.fields {
			f.id = prefix + f.id
			out = append(out, f)
		}
	}
	return out
}

// schedulePage is a schedule on a page of its own, with two fields.
func schedulePage(title string, seed uint64, id string) []block {
	r := rand.New(rand.NewPCG(seed, 2))
	return []block{
		{kind: blockPageBreak, title: title},
		{kind: blockParagraph, text: prose(r, 5)},
		{kind: blockField, text: "Responsible manager:", id: id + "-manager", w: 150, h: 16},
		{kind: blockParagraph, text: prose(r, 3)},
		{kind: blockField, text: "Approved on:", id: id + "-date", w: 90, h: 16},
		{kind: blockField, text: "Consent given:", id: id + "-consent", w: 12, h: 12},
	}
}

// proseWords are the words of the contracts' sentences.
var proseWords = strings.Fields(`agreement party parties services provider client shall will may must not
any all each such other this that the of to in for on with by under within without upon from as at or and
fees payment invoice days notice written term termination renewal period breach cure remedy damages
liability limit indemnify claims losses costs expenses third confidential information disclose use
purpose obligations rights license intellectual property deliverables schedule performance standards
warranty warrants represents compliance laws regulations data personal processing security measures
insurance coverage subcontractor assignment consent prior reasonable good faith dispute resolution
governing law jurisdiction courts venue force majeure event delay failure records audit access
employees personnel officers directors agents affiliates successors assigns amendment waiver
severability entire counterparts electronic signature effective date commencement completion
acceptance criteria milestone price rate tax taxes withholding currency interest late charges`)

// prose writes n sentences of contract-like text.
func prose(r *rand.Rand, n int) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte(' ')
		}
		words := 10 + r.IntN(12)
		for k := range words {
			w := proseWords[r.IntN(len(proseWords))]
			if k == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				sb.WriteByte(' ')
			}
			sb.WriteString(w)
			if k > 2 && k < words-2 && r.IntN(9) == 0 {
				sb.WriteByte(',')
			}
		}
		sb.WriteByte('.')
	}
	return sb.String()
}

// render lays a contract out on Letter pages in a style and writes it.
func render(kind string, blocks []block, st style) RevisionDoc {
	const width, height = 612, 792
	doc := RevisionDoc{Kind: kind, Fields: map[string]RevisionField{}}
	var pages []TextPage
	var y float64
	newPage := func(title string) {
		pages = append(pages, TextPage{Width: width, Height: height})
		y = height - st.top
		if title != "" {
			put(&pages[len(pages)-1], st, st.left, y, 12, title)
			y -= st.leading * 2
		}
	}
	room := func(h float64) {
		if y-h < st.bottom {
			newPage("")
		}
	}
	newPage("")
	last := func() *TextPage { return &pages[len(pages)-1] }
	for _, b := range blocks {
		switch b.kind {
		case blockPageBreak:
			newPage(b.title)
		case blockHeading:
			room(st.leading * 3)
			y -= st.leading / 2
			put(last(), st, st.left, y, st.size+2, b.text)
			y -= st.leading * 1.5
		case blockParagraph:
			for _, line := range wrap(st, b.text, width-st.left-st.right) {
				room(st.leading)
				put(last(), st, st.left, y, st.size, line)
				y -= st.leading
			}
			y -= st.leading / 2
		case blockField:
			room(b.h + 10)
			x := put(last(), st, st.left, y, st.size, b.text) + 6
			doc.field(b.id, len(pages), pdf.Box{LLX: x, LLY: y - 4, URX: x + b.w, URY: y - 4 + b.h})
			y -= max(st.leading, b.h+10)
		case blockFieldBelow:
			room(b.h + st.leading + 10)
			put(last(), st, st.left, y, st.size, b.text)
			top := y - st.size/2
			doc.field(b.id, len(pages), pdf.Box{LLX: st.left, LLY: top - b.h, URX: st.left + b.w, URY: top})
			y -= st.leading + b.h + 10
		}
	}
	for i := range pages {
		put(&pages[i], st, st.left, height-40, 8, "Master Services Agreement")
		put(&pages[i], st, width-st.right-60, 36, 8, fmt.Sprintf("Page %d of %d", i+1, len(pages)))
	}
	doc.PDF = TextPDF(pages)
	return doc
}

// field records where a field went.
func (d *RevisionDoc) field(id string, page int, b pdf.Box) {
	if id != "" {
		d.Fields[id] = RevisionField{Page: page, Box: pdf.Box{LLX: r2(b.LLX), LLY: r2(b.LLY), URX: r2(b.URX), URY: r2(b.URY)}}
	}
}

// put draws s at (x, y) and returns where it ends.
func put(p *TextPage, st style, x, y, size float64, s string) float64 {
	p.Texts = append(p.Texts, PlacedText{X: x, Y: y, Size: size, Text: s, Font: st.font})
	return x + TextWidth(st.font, size, s)
}

// wrap breaks text into lines no wider than w.
func wrap(st style, text string, w float64) []string {
	var lines []string
	var line string
	for _, word := range strings.Fields(text) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if line != "" && TextWidth(st.font, st.size, next) > w {
			lines = append(lines, line)
			next = word
		}
		line = next
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
