package revise_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/revise"
)

// page lays lines of text out on a Letter page, 14 points apart from the
// top, 5 points a character, and returns it.
func page(lines ...string) revise.Page {
	p := revise.Page{Width: 612, Height: 792, Words: []revise.Word{}}
	for i, line := range lines {
		y := 700 - 14*float64(i)
		x := 72.0
		for _, w := range strings.Fields(line) {
			p.Words = append(p.Words, revise.Word{Text: w, Box: revise.Box{X: x, Y: y, Width: 5 * float64(len(w)), Height: 10}})
			x += 5 * float64(len(w)+1)
		}
	}
	return p
}

var contractLines = []string{
	"The buyer pays the seller ten dollars for the house on the hill",
	"within thirty days of the signing of this agreement by both parties.",
	"Buyer signature:",
	"The seller hands over the keys when the money has been received in full.",
	"Seller signature:",
}

func TestAnUnchangedVersionLeavesEveryTag(t *testing.T) {
	old := []revise.Page{page(contractLines...)}
	tags := []revise.Tag{
		{ID: "buyer", Page: 1, Box: revise.Box{X: 160, Y: 668, Width: 150, Height: 14}},
		{ID: "seller", Page: 1, Box: revise.Box{X: 160, Y: 642, Width: 150, Height: 20}},
	}
	r, err := revise.Match(context.Background(), old, tags, []revise.Page{page(contractLines...)})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Tags {
		if p.Outcome != revise.Unchanged || p.New != p.Old || p.NewPage != 1 || p.Confidence < revise.Threshold {
			t.Errorf("%+v, want unchanged", p)
		}
	}
	if r.Unchanged != 2 || len(r.Added) != 1 || len(r.Added[0].Words) != 0 || len(r.Removed[0].Words) != 0 || r.Added[0].Counterpart != 1 {
		t.Errorf("report %+v", r)
	}
}

// A line added above moves the tags down with their labels; the words of
// the line are the page's added words, and the changed amount is added
// and removed.
func TestTagsFollowTheirLabelsAndTheChangesAreListed(t *testing.T) {
	old := []revise.Page{page(contractLines...)}
	lines := slices.Clone(contractLines)
	lines[0] = strings.Replace(lines[0], "ten", "twelve", 1)
	lines = slices.Insert(lines, 2, "Any dispute goes to the courts of the county where the house stands.")
	tags := []revise.Tag{
		{ID: "buyer", Page: 1, Box: revise.Box{X: 160, Y: 668, Width: 150, Height: 14}},
		{ID: "seller", Page: 1, Box: revise.Box{X: 165, Y: 640, Width: 150, Height: 14}},
	}
	r, err := revise.Match(context.Background(), old, tags, []revise.Page{page(lines...)})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range r.Tags {
		want := tags[i].Box
		want.Y -= 14
		if p.Outcome != revise.Moved || p.New != want || p.NewPage != 1 {
			t.Errorf("%+v, want moved to %+v", p, want)
		}
	}
	var added, removed []string
	for _, w := range r.Added[0].Words {
		added = append(added, w.Text)
	}
	for _, w := range r.Removed[0].Words {
		removed = append(removed, w.Text)
	}
	if got := strings.Join(added, " "); !strings.Contains(got, "twelve") || !strings.Contains(got, "Any dispute goes to the courts") || strings.Contains(got, "signature") {
		t.Errorf("added %q", got)
	}
	if got := strings.Join(removed, " "); got != "ten" {
		t.Errorf("removed %q, want ten", got)
	}
}

// No tag is dropped, whatever the new version: one of no pages, one of no
// words, another document.
func TestEveryTagIsPlacedOrFlagged(t *testing.T) {
	old := []revise.Page{page(contractLines...), page(), page(contractLines[3:]...)}
	tags := []revise.Tag{
		{ID: "a", Page: 1, Box: revise.Box{X: 160, Y: 668, Width: 150, Height: 14}},
		{ID: "blank", Page: 2, Box: revise.Box{X: 72, Y: 100, Width: 150, Height: 20}},
		{ID: "c", Page: 3, Box: revise.Box{X: 165, Y: 682, Width: 150, Height: 14}},
	}
	for name, new := range map[string][]revise.Page{
		"no pages": nil,
		"no words": {page(), page()},
		"another":  {page("Lessor and lessee agree on the rent of the flat above the bakery", "Lessee initials:")},
	} {
		r, err := revise.Match(context.Background(), old, tags, new)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Tags) != len(tags) || r.Flagged != len(tags) {
			t.Fatalf("%s: %+v", name, r)
		}
		for i, p := range r.Tags {
			if p.ID != tags[i].ID || p.Reason == "" || p.New != tags[i].Box || p.NewPage > len(new) || len(new) > 0 && p.NewPage < 1 {
				t.Errorf("%s: %+v", name, p)
			}
		}
	}
}

func TestInputPastTheBoundsIsRefused(t *testing.T) {
	ctx := context.Background()
	one := []revise.Page{page(contractLines...)}
	if _, err := revise.Match(ctx, one, make([]revise.Tag, revise.MaxTags+1), one); !errors.Is(err, revise.ErrTooLarge) {
		t.Errorf("too many tags: %v", err)
	}
	if _, err := revise.Match(ctx, one, []revise.Tag{{ID: "x", Page: 2}}, one); err == nil {
		t.Error("a tag on a page the document has not was accepted")
	}
	big := revise.Page{Words: make([]revise.Word, revise.MaxWordsPerPage+1)}
	if _, err := revise.Match(ctx, one, nil, []revise.Page{big}); !errors.Is(err, revise.ErrTooLarge) {
		t.Errorf("too many words: %v", err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := revise.Match(done, one, nil, one); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled mapping: %v", err)
	}
}
