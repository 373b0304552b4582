package review_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/models/tagtype"
)

// letter is a US Letter page's box.
var letter = review.Box{Width: 612, Height: 792}

func pages(n int) []review.Page {
	out := make([]review.Page, n)
	for i := range out {
		out[i] = review.Page{Box: letter}
	}
	return out
}

// clean is a transaction the check finds nothing in: two signers, each
// signing, dating and initialling both pages of one document, nothing
// overlapping, no printed word under a tag.
func clean() review.Transaction {
	doc := review.Document{Title: "Lease", Pages: pages(2)}
	doc.Pages[1].Words = []review.Box{{X: 72, Y: 600, Width: 200, Height: 12}}
	for i, signer := range []string{"p1", "p2"} {
		x := 72 + float64(i)*250
		doc.Tags = append(doc.Tags,
			review.Tag{ID: signer + "-sig", Type: tagtype.Signature, Signer: signer, Page: 2, Box: review.Box{X: x, Y: 100, Width: 144, Height: 36}},
			review.Tag{ID: signer + "-date", Type: tagtype.Date, Signer: signer, Page: 2, Box: review.Box{X: x, Y: 60, Width: 96, Height: 20}},
			review.Tag{ID: signer + "-i1", Type: tagtype.Initials, Signer: signer, Page: 1, Box: review.Box{X: x, Y: 40, Width: 60, Height: 30}},
			review.Tag{ID: signer + "-i2", Type: tagtype.Initials, Signer: signer, Page: 2, Box: review.Box{X: x + 160, Y: 100, Width: 60, Height: 30}},
		)
	}
	return review.Transaction{
		Documents:    []review.Document{doc},
		Participants: []review.Participant{{ID: "p1", Email: "pat@example.com"}, {ID: "p2", Email: "sam@example.com"}},
	}
}

func TestACleanTransactionHasNoFinding(t *testing.T) {
	if fs := review.Check(clean()); len(fs) != 0 {
		t.Fatalf("findings on a clean transaction: %+v", fs)
	}
}

// find returns the findings of one code.
func find(fs []review.Finding, code string) []review.Finding {
	var out []review.Finding
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// Each finding code, made by one change to the clean transaction: the
// finding is there with its severity, participant, document, pages, tags
// and fix, and nothing else is reported.
func TestEachFindingFromOneChange(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*review.Transaction)
		want   review.Finding
	}{
		{"no documents", func(tx *review.Transaction) { tx.Documents = nil },
			review.Finding{Code: review.CodeNoDocuments, Severity: review.Blocking, Document: -1}},
		{"no participants", func(tx *review.Transaction) {
			tx.Participants = nil
			tx.Documents[0].Tags = nil
		}, review.Finding{Code: review.CodeNoParticipants, Severity: review.Blocking, Document: -1}},
		{"a participant with nothing to sign", func(tx *review.Transaction) {
			tx.Participants = append(tx.Participants, review.Participant{ID: "p3", Email: "kim@example.com"})
		}, review.Finding{Code: review.CodeNothingToSign, Severity: review.Blocking, Participant: "p3", Document: -1}},
		{"a tag without a signer", func(tx *review.Transaction) {
			tx.Documents[0].Tags = append(tx.Documents[0].Tags, review.Tag{ID: "free", Type: tagtype.FreeText, Page: 1, Box: review.Box{X: 400, Y: 700, Width: 100, Height: 20}})
		}, review.Finding{Code: review.CodeTagWithoutSigner, Severity: review.Blocking, Document: 0, Pages: []int{1}, Tags: []string{"free"},
			Fix: &review.Fix{Kind: review.FixAssign, Tag: "free"}}},
		{"a tag of a removed participant", func(tx *review.Transaction) {
			tx.Documents[0].Tags = append(tx.Documents[0].Tags, review.Tag{ID: "gone", Type: tagtype.FreeText, Signer: "p9", Page: 1, Box: review.Box{X: 400, Y: 700, Width: 100, Height: 20}})
		}, review.Finding{Code: review.CodeUnknownParticipant, Severity: review.Blocking, Participant: "p9", Document: 0, Pages: []int{1}, Tags: []string{"gone"},
			Fix: &review.Fix{Kind: review.FixAssign, Tag: "gone"}}},
		{"two signers' tags overlapping", func(tx *review.Transaction) {
			tx.Documents[0].Tags[4].Box.X = tx.Documents[0].Tags[0].Box.X + 20 // p2's signature over p1's
		}, review.Finding{Code: review.CodeTagsOverlap, Severity: review.Warning, Participant: "p1", Other: "p2", Document: 0, Pages: []int{2},
			Tags: []string{"p1-sig", "p2-sig"}, Fix: &review.Fix{Kind: review.FixShow, Tag: "p2-sig"}}},
		{"a tag partly off its page", func(tx *review.Transaction) {
			tx.Documents[0].Tags[0].Box.Y = 780 // 36 high: past 792
		}, review.Finding{Code: review.CodeOutsidePage, Severity: review.Warning, Participant: "p1", Document: 0, Pages: []int{2},
			Tags: []string{"p1-sig"}, Fix: &review.Fix{Kind: review.FixShow, Tag: "p1-sig"}}},
		{"a tag over printed words", func(tx *review.Transaction) {
			tx.Documents[0].Tags[0].Box.Y = 590 // over the line at y 600
		}, review.Finding{Code: review.CodeCoversText, Severity: review.Warning, Participant: "p1", Document: 0, Pages: []int{2},
			Tags: []string{"p1-sig"}, Fix: &review.Fix{Kind: review.FixShow, Tag: "p1-sig"}}},
		{"a date on a document its participant signs nothing on", func(tx *review.Transaction) {
			other := review.Document{Title: "Annex", Pages: pages(1), Tags: []review.Tag{
				{ID: "annex-date", Type: tagtype.Date, Signer: "p2", Page: 1, Box: review.Box{X: 72, Y: 72, Width: 96, Height: 20}},
				{ID: "annex-sig", Type: tagtype.Signature, Signer: "p1", Page: 1, Box: review.Box{X: 300, Y: 72, Width: 144, Height: 36}},
			}}
			tx.Documents = append(tx.Documents, other)
		}, review.Finding{Code: review.CodeFillWithoutSigning, Severity: review.Warning, Participant: "p2", Document: 1, Pages: []int{1},
			Tags: []string{"annex-date"}, Fix: &review.Fix{Kind: review.FixShow, Tag: "annex-date"}}},
		{"notary tags without a seal", func(tx *review.Transaction) {
			tx.Documents[0].Tags = append(tx.Documents[0].Tags, review.Tag{ID: "county", Type: tagtype.NotaryCounty, Signer: "p1", Page: 1, Box: review.Box{X: 400, Y: 700, Width: 120, Height: 20}})
		}, review.Finding{Code: review.CodeNotaryWithoutSeal, Severity: review.Warning, Document: 0, Tags: []string{"county"},
			Fix: &review.Fix{Kind: review.FixShow, Tag: "county"}}},
		{"initials missing on pages", func(tx *review.Transaction) {
			d := &tx.Documents[0]
			d.Pages = pages(6)
			d.Tags = slices.DeleteFunc(d.Tags, func(t review.Tag) bool { return t.ID == "p2-i1" })
			for p := 3; p <= 6; p++ { // p1 initials every page; p2 only page 2
				d.Tags = append(d.Tags, review.Tag{ID: fmt.Sprint("p1-i", p), Type: tagtype.Initials, Signer: "p1", Page: p, Box: review.Box{X: 72, Y: 40, Width: 60, Height: 30}})
			}
		}, review.Finding{Code: review.CodeInitialsMissing, Severity: review.Warning, Participant: "p2", Document: 0, Pages: []int{1, 3, 4, 5, 6},
			Tags: []string{"p2-i2"}, Fix: &review.Fix{Kind: review.FixCopyToPages, Tag: "p2-i2", Pages: []int{1, 3, 4, 5, 6}}}},
		{"a document without tags", func(tx *review.Transaction) {
			tx.Documents = append(tx.Documents, review.Document{Title: "Blank", Pages: pages(1)})
		}, review.Finding{Code: review.CodeDocumentUntagged, Severity: review.Warning, Document: 1}},
		{"a tag a revision could not carry surely", func(tx *review.Transaction) {
			tx.Documents[0].Tags[1].NeedsLook = "label_changed"
		}, review.Finding{Code: review.CodeTagNeedsLook, Severity: review.Warning, Participant: "p1", Document: 0, Pages: []int{2},
			Tags: []string{"p1-date"}, Fix: &review.Fix{Kind: review.FixShow, Tag: "p1-date"}}},
		{"two participants with one e-mail", func(tx *review.Transaction) {
			tx.Participants[1].Email = " PAT@example.com"
		}, review.Finding{Code: review.CodeSharedEmail, Severity: review.Blocking, Participant: "p1", Other: "p2", Document: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := clean()
			tc.change(&tx)
			fs := review.Check(tx)
			got := find(fs, tc.want.Code)
			if len(got) != 1 {
				t.Fatalf("%d findings %s, want 1; all: %+v", len(got), tc.want.Code, fs)
			}
			if !reflect.DeepEqual(got[0], tc.want) {
				t.Errorf("got  %+v %+v\nwant %+v %+v", got[0], got[0].Fix, tc.want, tc.want.Fix)
			}
			// A transaction without participants whose tags were removed
			// has an untagged document too.
			if also := tc.want.Code == review.CodeNoParticipants; len(fs) != 1 && (!also || len(fs) != 2 || fs[1].Code != review.CodeDocumentUntagged) {
				t.Errorf("other findings beside it: %+v", fs)
			}
			if review.Blocked(fs) != (tc.want.Severity == review.Blocking) {
				t.Errorf("Blocked = %v for a %s finding", review.Blocked(fs), tc.want.Severity)
			}
		})
	}
}

// Blocking findings come first, and no more than MaxFindings come back
// however careless the layout.
func TestFindingsAreOrderedAndBounded(t *testing.T) {
	tx := clean()
	d := &tx.Documents[0]
	for i := range 3 * review.MaxFindings { // tags over a removed participant, and overlapping ones
		d.Tags = append(d.Tags, review.Tag{ID: fmt.Sprint("x", i), Type: tagtype.FreeText, Signer: fmt.Sprint("p", 1+i%2), Page: 1,
			Box: review.Box{X: 300, Y: 300, Width: 50, Height: 20}})
	}
	d.Tags = append(d.Tags, review.Tag{ID: "gone", Type: tagtype.FreeText, Signer: "p9", Page: 2, Box: review.Box{X: 400, Y: 700, Width: 10, Height: 10}})
	fs := review.Check(tx)
	if len(fs) != review.MaxFindings {
		t.Fatalf("%d findings, want the cap %d", len(fs), review.MaxFindings)
	}
	if fs[0].Code != review.CodeUnknownParticipant {
		t.Errorf("first finding %s, want the blocking %s", fs[0].Code, review.CodeUnknownParticipant)
	}
}

// BenchmarkCheck is the check of a 50-page, 5-participant, 2,000-tag
// transaction with 300 printed words a page (the aim: under 100 ms).
func BenchmarkCheck(b *testing.B) {
	const nPages, nTags = 50, 2000
	var tx review.Transaction
	for i := range 5 {
		tx.Participants = append(tx.Participants, review.Participant{ID: fmt.Sprint("p", i), Email: fmt.Sprint("p", i, "@example.com")})
	}
	d := review.Document{Title: "Big", Pages: pages(nPages)}
	for p := range d.Pages {
		for w := range 300 {
			d.Pages[p].Words = append(d.Pages[p].Words, review.Box{X: 72 + float64(w%10)*45, Y: 100 + float64(w/10)*20, Width: 40, Height: 10})
		}
	}
	types := []string{tagtype.Signature, tagtype.Initials, tagtype.Date, tagtype.FullName}
	for i := range nTags {
		d.Tags = append(d.Tags, review.Tag{ID: fmt.Sprint("t", i), Type: types[i%len(types)], Signer: fmt.Sprint("p", i%5), Page: 1 + i%nPages,
			Box: review.Box{X: float64(i % 500), Y: float64(i % 700), Width: 60, Height: 20}})
	}
	tx.Documents = []review.Document{d}
	for b.Loop() {
		review.Check(tx)
	}
}
