package templatematch_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models/templatematch"
)

// boilerplate is the letterhead and footer every document of one office
// shares.
const boilerplate = "HARBOR AND PRAIRIE REALTY GROUP 200 Main Street Suite 5 phone 555 010 2000 page of initials form revision "

// form is document i of an office: pages of their own text after the shared
// boilerplate; filled in with other values when variant differs.
func form(i, variant, pages int) templatematch.Fingerprint {
	ps := make([]templatematch.Page, pages)
	for p := range ps {
		ps[p] = letter(fmt.Sprintf("%s %s between %s and the other party, pets %s, %s", boilerplate, prose(uint64(i*100+p), 300),
			[]string{"Jonathan Whitfield", "Li Wei", "Fatima Okafor"}[variant%3], []string{"none", "one cat", "two dogs"}[variant%3],
			prose(uint64(i*100+p+50), 20)))
	}
	return templatematch.FingerprintOf(ps)
}

func TestIndexQuery(t *testing.T) {
	var x templatematch.Index[string]
	if got := x.Query(form(1, 0, 2), 5, 0.6); len(got) != 0 {
		t.Fatalf("an empty index answers %v", got)
	}
	for i := range 50 {
		x.Add(fmt.Sprintf("t%d", i), form(i, 0, 1+i%3))
	}
	if x.Len() != 50 {
		t.Fatalf("len %d", x.Len())
	}
	got := x.Query(form(7, 1, 2), 5, 0.6)
	if len(got) != 1 || got[0].Key != "t7" || got[0].Score < 0.9 {
		t.Fatalf("the same form filled in otherwise: %v", got)
	}
	// A page more: the page counts differ, nothing is listed.
	if got := x.Query(form(7, 1, 3), 5, 0.6); len(got) != 0 {
		t.Fatalf("with a page added: %v", got)
	}
	// Best first, equal scores in the order added, at most limit.
	x.Add("copy-a", form(7, 2, 2))
	x.Add("copy-b", form(7, 2, 2))
	x.Add("copy-c", form(7, 2, 2))
	got = x.Query(form(7, 2, 2), 2, 0.6)
	if len(got) != 2 || got[0].Key != "copy-a" || got[1].Key != "copy-b" || got[0].Score != 1 {
		t.Fatalf("limit and order: %v", got)
	}
	// Replace, remove, add again.
	x.Add("copy-a", form(40, 0, 2))
	x.Remove("copy-b")
	x.Remove("never added")
	x.Add("copy-d", form(7, 2, 2)) // takes the removed one's slot
	got = x.Query(form(7, 2, 2), 5, 0.6)
	keys := []string{}
	for _, m := range got {
		keys = append(keys, m.Key)
	}
	if fmt.Sprint(keys) != "[copy-c copy-d t7]" {
		t.Fatalf("after replace and remove: %v", got)
	}
	if x.Len() != 53 {
		t.Fatalf("len %d, want 53", x.Len())
	}
	if got := x.Query(form(7, 2, 2), 0, 0); got != nil {
		t.Fatalf("limit 0: %v", got)
	}
	// A document without text is never a candidate.
	x.Add("blank", templatematch.FingerprintOf([]templatematch.Page{letter("")}))
	if got := x.Query(templatematch.FingerprintOf([]templatematch.Page{letter("")}), 5, 0); len(got) != 0 {
		t.Fatalf("blank pages matched: %v", got)
	}
}

func TestIndexIsSafeForConcurrentUse(t *testing.T) {
	var x templatematch.Index[int]
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 30 {
				x.Add(g*100+i, form(i, g, 1))
				x.Query(form(i, g+1, 1), 5, 0.6)
				if i%3 == 0 {
					x.Remove(g*100 + i)
				}
			}
		})
	}
	wg.Wait()
	if x.Len() != 4*20 {
		t.Fatalf("len %d, want 80", x.Len())
	}
}

// BenchmarkIndexQuery: an organization's 1,000 template documents of one
// to five pages (sharing a letterhead) in an index; one query, a copy of one
// of them filled in otherwise, as an upload's answer makes it (the target:
// under 20 ms; docs/benchmarks.md).
func BenchmarkIndexQuery(b *testing.B) {
	var x templatematch.Index[int]
	for i := range 1000 {
		x.Add(i, form(i, 0, 1+i%5))
	}
	q := form(333, 1, 1+333%5)
	b.ResetTimer()
	for b.Loop() {
		if got := x.Query(q, 5, 0.6); len(got) != 1 || got[0].Key != 333 {
			b.Fatalf("got %v", got)
		}
	}
}

// BenchmarkFingerprintPage: the work an upload adds per page: one page of
// 400 words fingerprinted.
func BenchmarkFingerprintPage(b *testing.B) {
	page := []templatematch.Page{letter(boilerplate + prose(9, 400))}
	for b.Loop() {
		templatematch.FingerprintOf(page)
	}
}

// BenchmarkIndexQueryWorstCase: 1,000 templates of five pages that all
// share every band with the query (the same form saved 1,000 times), so
// every one is scored: the most a query can cost at 1,000 templates of five
// pages.
func BenchmarkIndexQueryWorstCase(b *testing.B) {
	var x templatematch.Index[int]
	for i := range 1000 {
		x.Add(i, form(1, 0, 5))
	}
	q := form(1, 1, 5)
	b.ResetTimer()
	for b.Loop() {
		if got := x.Query(q, 5, 0.6); len(got) != 5 {
			b.Fatalf("got %d", len(got))
		}
	}
}
