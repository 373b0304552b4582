package revise_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/revise"
)

// producerLabels are the labels of testdata/producers' contract, each
// followed by a blank a tag is placed on.
var producerLabels = []string{"Effective date:", "Client initials:", "Provider initials:", "Fee approved by:", "Term starts on:",
	"Confidentiality officer:", "Liability cap agreed:", "Governing state:", "Notice address:", "Client signature:", "Client name:",
	"Provider signature:", "Provider name:", "Signed on:"}

// labelTag is where a tag on label's blank goes in pages: 6 points after
// the label's last word, on its baseline's band; false when the label is
// not printed (or printed twice).
func labelTag(pages []revise.Page, label string) (int, revise.Box, bool) {
	want := strings.Fields(label)
	found, page, box := 0, 0, revise.Box{}
	for p, pg := range pages {
		for i := range pg.Words {
			if i+len(want) > len(pg.Words) {
				break
			}
			ok := true
			for k, w := range want {
				if strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl").Replace(pg.Words[i+k].Text) != w {
					ok = false
					break
				}
			}
			if ok {
				last := pg.Words[i+len(want)-1].Box
				found, page = found+1, p+1
				box = revise.Box{X: last.X + last.Width + 6, Y: last.Y - 2, Width: 120, Height: 14}
			}
		}
	}
	return page, box, found == 1
}

// TestRealProducers maps the same revision (a paragraph added to the first
// clause) made by two real producers: Chromium printing an HTML contract
// (DejaVu Serif, its own line breaks) and Ghostscript's ps2pdf of a
// PostScript one (Courier). testdata/producers/README.md says how they were
// made. Every tag is measured as the corpus's are.
func TestRealProducers(t *testing.T) {
	for _, producer := range []string{"chromium", "ghostscript"} {
		t.Run(producer, func(t *testing.T) {
			read := func(v string) []revise.Page {
				b, err := os.ReadFile(filepath.Join("testdata", "producers", v+"."+producer+".pdf"))
				if err != nil {
					t.Fatal(err)
				}
				return pagesOf(t, b)
			}
			old, new := read("base"), read("revised")
			var tags []revise.Tag
			for _, l := range producerLabels {
				page, box, ok := labelTag(old, l)
				if !ok {
					t.Fatalf("the base does not print %q once", l)
				}
				tags = append(tags, revise.Tag{ID: l, Page: page, Box: box})
			}
			r, err := revise.Match(context.Background(), old, tags, new)
			if err != nil {
				t.Fatal(err)
			}
			right, confident, correct, moved := 0, 0, 0, 0
			for _, p := range r.Tags {
				page, want, ok := labelTag(new, p.ID)
				if !ok {
					t.Fatalf("the revision does not print %q once", p.ID)
				}
				near := p.NewPage == page && math.Abs(p.New.X-want.X) <= 2 && math.Abs(p.New.Y-want.Y) <= 2
				if near {
					right++
				}
				if p.Outcome == revise.Flagged {
					t.Logf("%s flagged (%s, %.2f)", p.ID, p.Reason, p.Confidence)
					continue
				}
				confident++
				if p.Outcome == revise.Moved {
					moved++
				}
				if near {
					correct++
				} else {
					t.Errorf("%s placed on page %d at (%.1f, %.1f) with confidence %.2f; its blank is on page %d at (%.1f, %.1f)",
						p.ID, p.NewPage, p.New.X, p.New.Y, p.Confidence, page, want.X, want.Y)
				}
			}
			t.Logf("%-12s tags %d, moved %d, flagged %d; precision %.3f, recall %.3f", producer, len(tags), moved, r.Flagged,
				float64(correct)/float64(max(confident, 1)), float64(correct)/float64(len(tags)))
			if moved == 0 || float64(right) < 0.95*float64(len(tags)) {
				t.Errorf("%d of %d tags on their blanks (%d moved)", right, len(tags), moved)
			}
		})
	}
}
