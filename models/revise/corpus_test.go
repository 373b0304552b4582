package revise_test

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/revise"
)

// pagesOf reads a generated PDF's pages and words as the PDF workers do
// (pdfjob.ReadPageWords).
func pagesOf(t testing.TB, b []byte) []revise.Page {
	t.Helper()
	res, err := pdfjob.ReadPageWords(context.Background(), pdf.DefaultLimits(), bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return res.Pages
}

// tagsOf are the tags of a version: one on each field.
func tagsOf(d pdftest.RevisionDoc) []revise.Tag {
	var out []revise.Tag
	for id, f := range d.Fields {
		out = append(out, revise.Tag{ID: id, Page: f.Page, Box: boxOf(f.Box)})
	}
	slices.SortFunc(out, func(a, b revise.Tag) int {
		if a.Page != b.Page {
			return a.Page - b.Page
		}
		return int(math.Round(b.Box.Y - a.Box.Y))
	})
	return out
}

func boxOf(b pdf.Box) revise.Box {
	return revise.Box{X: b.LLX, Y: b.LLY, Width: b.URX - b.LLX, Height: b.URY - b.LLY}
}

// within tells whether a placement is where the field went: on its page,
// within 2 points.
func within(p revise.Placement, f pdftest.RevisionField, ok bool) bool {
	want := boxOf(f.Box)
	return ok && p.NewPage == f.Page && math.Abs(p.New.X-want.X) <= 2 && math.Abs(p.New.Y-want.Y) <= 2
}

// TestRevisionCorpus carries the contract's tags onto each revision of the
// corpus and measures the mapping (docs/revise.md, "Accuracy"): over the
// revisions of the same document, at least 95 % of the tags within 2
// points of where their field went; over every revision, no tag lost and
// none placed confidently anywhere but where its field went (a tag whose
// field is gone, or a document that is another one, is flagged). It prints
// the precision (confident placements that are right) and recall (fields
// found and placed confidently) of each kind.
func TestRevisionCorpus(t *testing.T) {
	base, revisions := pdftest.RevisionCorpus()
	old := pagesOf(t, base.PDF)
	tags := tagsOf(base)
	if len(tags) < 20 {
		t.Fatalf("the contract has %d fields", len(tags))
	}
	right, total := 0, 0
	for _, rev := range revisions {
		t.Run(rev.Kind, func(t *testing.T) {
			near, found := measure(t, old, tags, rev)
			if rev.Kind != pdftest.RevisionOtherDocument {
				right, total = right+near, total+found
			}
		})
	}
	if share := float64(right) / float64(total); share < 0.95 {
		t.Errorf("%d of %d tags (%.1f %%) within 2 pt of their fields, want ≥ 95 %%", right, total, 100*share)
	} else {
		t.Logf("all revisions: %d of %d tags (%.1f %%) within 2 pt of their fields", right, total, 100*share)
	}
}

// TestLargeRevision maps the benchmark's revision (a 50-page contract
// whose every clause repeats its labels, a paragraph added on page 1) as
// the corpus's revisions are measured.
func TestLargeRevision(t *testing.T) {
	base, rev := pdftest.RevisionContract(50)
	tags := tagsOf(base)
	near, found := measure(t, pagesOf(t, base.PDF), tags, rev)
	if found != len(tags) || float64(near) < 0.95*float64(found) {
		t.Errorf("%d of %d tags within 2 pt of their fields (%d tags)", near, found, len(tags))
	}
}

// measure maps tags onto a revision and checks the placements: one for
// each tag, in order, none confidently anywhere but on its field, every
// tag of another document flagged. It logs the precision and recall and
// returns how many tags are within 2 points of their fields and how many
// fields the revision has.
func measure(t *testing.T, old []revise.Page, tags []revise.Tag, rev pdftest.RevisionDoc) (near, found int) {
	t.Helper()
	r, err := revise.Match(context.Background(), old, tags, pagesOf(t, rev.PDF))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tags) != len(tags) || r.Moved+r.Unchanged+r.Flagged != len(tags) {
		t.Fatalf("%d placements (%d moved, %d unchanged, %d flagged) of %d tags", len(r.Tags), r.Moved, r.Unchanged, r.Flagged, len(tags))
	}
	confident, correct := 0, 0
	for i, p := range r.Tags {
		if p.ID != tags[i].ID {
			t.Fatalf("placement %d is of %q, want %q", i, p.ID, tags[i].ID)
		}
		f, ok := rev.Fields[p.ID]
		if ok {
			found++
		}
		if within(p, f, ok) {
			near++
		}
		if p.Outcome == revise.Flagged {
			if p.Reason == "" || p.Confidence >= revise.Threshold {
				t.Errorf("%s flagged with reason %q and confidence %.2f", p.ID, p.Reason, p.Confidence)
			}
			if !ok || !within(p, f, ok) {
				t.Logf("%s flagged (%s, %.2f): page %d → %d, field %v", p.ID, p.Reason, p.Confidence, p.OldPage, p.NewPage, f)
			}
			continue
		}
		confident++
		if within(p, f, ok) {
			correct++
		} else {
			t.Errorf("%s placed %s with confidence %.2f on page %d at (%.1f, %.1f); the field is %v (present %v)",
				p.ID, p.Outcome, p.Confidence, p.NewPage, p.New.X, p.New.Y, f, ok)
		}
	}
	precision, recall := 1.0, 1.0
	if confident > 0 {
		precision = float64(correct) / float64(confident)
	}
	if found > 0 {
		recall = float64(correct) / float64(found)
	}
	t.Logf("%-26s tags %d, moved %d, unchanged %d, flagged %d; precision %.3f, recall %.3f, within 2 pt %d of %d",
		rev.Kind, len(tags), r.Moved, r.Unchanged, r.Flagged, precision, recall, near, found)
	if rev.Kind == pdftest.RevisionOtherDocument && r.Flagged != len(tags) {
		t.Errorf("%d of %d tags flagged on another document", r.Flagged, len(tags))
	}
	return near, found
}

// BenchmarkMatch is the mapping alone of the 50-page revision (about 580
// tags), its words read once beforehand.
func BenchmarkMatch(b *testing.B) {
	base, rev := pdftest.RevisionContract(50)
	old, new, tags := pagesOf(b, base.PDF), pagesOf(b, rev.PDF), tagsOf(base)
	for b.Loop() {
		if _, err := revise.Match(context.Background(), old, tags, new); err != nil {
			b.Fatal(err)
		}
	}
}
