package detect_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

var update = flag.Bool("update", false, "rewrite models/pdf/testdata/corpus from pdftest.Corpus")

const corpusDir = "../testdata/corpus"

// TestCorpusFilesMatchGenerator keeps the committed corpus equal to what
// pdftest.Corpus generates (go test ./models/pdf/detect -run CorpusFiles -update rewrites it).
func TestCorpusFilesMatchGenerator(t *testing.T) {
	docs := pdftest.Corpus()
	if len(docs) < 25 {
		t.Fatalf("the corpus has %d documents, want at least 25", len(docs))
	}
	if *update {
		if err := os.MkdirAll(corpusDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range docs {
		exp, err := json.MarshalIndent(d.Expected, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		exp = append(exp, '\n')
		files := map[string][]byte{d.Name + ".pdf": d.PDF, d.Name + ".expected.json": exp}
		for name, want := range files {
			path := filepath.Join(corpusDir, name)
			if *update {
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generator (run with -update): %v", path, err)
			}
		}
	}
}

// corpus reads the committed files back.
func corpus(t *testing.T) []pdftest.CorpusDoc {
	t.Helper()
	var out []pdftest.CorpusDoc
	for _, d := range pdftest.Corpus() {
		b, err := os.ReadFile(filepath.Join(corpusDir, d.Name+".pdf"))
		if err != nil {
			t.Fatal(err)
		}
		var exp pdftest.CorpusExpected
		j, err := os.ReadFile(filepath.Join(corpusDir, d.Name+".expected.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(j, &exp); err != nil {
			t.Fatal(err)
		}
		out = append(out, pdftest.CorpusDoc{Name: d.Name, PDF: b, Expected: exp})
	}
	return out
}

func detectDoc(t *testing.T, b []byte) (detect.Detection, pdf.Layout) {
	t.Helper()
	lay, err := pdf.ReadLayout(context.Background(), b)
	if err != nil {
		t.Fatalf("ReadLayout: %v", err)
	}
	return detect.FromLayout(lay), lay
}

func sameSigner(a, b *int) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// TestCorpusExact: every text tag and form field is found, with its box
// within 1 pt, and nothing else is reported as one; every malformed text
// tag is reported with its code.
func TestCorpusExact(t *testing.T) {
	for _, d := range corpus(t) {
		t.Run(d.Name, func(t *testing.T) {
			got, _ := detectDoc(t, d.PDF)
			var want []pdftest.CorpusField
			for _, f := range d.Expected.Fields {
				if f.Source != detect.SourceLabel {
					want = append(want, f)
				}
			}
			used := map[int]bool{}
			for _, f := range want {
				found := false
				for i, g := range got.Tags {
					if used[i] || g.Source != f.Source || g.Page != f.Page || g.Type != f.Type || g.Text != f.Text || !sameSigner(g.Signer, f.Signer) {
						continue
					}
					if math.Abs(g.X-f.X) <= 1 && math.Abs(g.Y-f.Y) <= 1 && math.Abs(g.Width-f.Width) <= 1 && math.Abs(g.Height-f.Height) <= 1 {
						used[i], found = true, true
						break
					}
				}
				if !found {
					t.Errorf("missing %s %s %q on page %d at (%.2f, %.2f, %.2f×%.2f)", f.Source, f.Type, f.Text, f.Page, f.X, f.Y, f.Width, f.Height)
				}
			}
			for i, g := range got.Tags {
				if g.Source != detect.SourceLabel && !used[i] {
					t.Errorf("unexpected %s %s %q on page %d at (%.2f, %.2f, %.2f×%.2f)", g.Source, g.Type, g.Text, g.Page, g.X, g.Y, g.Width, g.Height)
				}
			}
			if len(got.Problems) != len(d.Expected.Problems) {
				t.Errorf("%d problems %+v, want %+v", len(got.Problems), got.Problems, d.Expected.Problems)
			} else {
				for i, p := range d.Expected.Problems {
					g := got.Problems[i]
					if g.Page != p.Page || g.Code != p.Code || g.Text != p.Text {
						t.Errorf("problem %d: %+v, want %+v", i, g, p)
					}
				}
			}
		})
	}
}

// matches reports whether a suggestion lies on an expected blank: same page
// and type, its bottom edge within 4 pt of the blank's and covering at least
// 60% of the blank's width (in display space).
func matches(p pdf.Page, g detect.DetectedTag, f pdftest.CorpusField) bool {
	if g.Page != f.Page || g.Type != f.Type {
		return false
	}
	gb := p.ToDisplay(pdf.Box{LLX: g.X, LLY: g.Y, URX: g.X + g.Width, URY: g.Y + g.Height})
	fb := p.ToDisplay(pdf.Box{LLX: f.X, LLY: f.Y, URX: f.X + f.Width, URY: f.Y + f.Height})
	overlap := math.Min(gb.URX, fb.URX) - math.Max(gb.LLX, fb.LLX)
	return math.Abs(gb.LLY-fb.LLY) <= 4 && overlap >= 0.6*fb.Width()
}

// TestCorpusSuggestions measures the precision and recall of the suggested
// fields against the corpus and fails below 0.9 and 0.8. It also logs the
// figures of the held-out documents alone (held-out-*: written without
// looking at what the rules find), the better guess of what real uploads see.
func TestCorpusSuggestions(t *testing.T) {
	var tp, fp, fn int
	var held [3]int // right, wrong, missed on the held-out documents
	for _, d := range corpus(t) {
		tp0, fp0, fn0 := tp, fp, fn
		got, lay := detectDoc(t, d.PDF)
		used := map[int]bool{}
		for _, f := range d.Expected.Fields {
			if f.Source != detect.SourceLabel {
				continue
			}
			found := false
			for i, g := range got.Tags {
				if g.Source == detect.SourceLabel && !used[i] && matches(lay.Pages[g.Page-1].Page, g, f) {
					used[i], found = true, true
					break
				}
			}
			if found {
				tp++
			} else {
				fn++
				t.Logf("%s: missed %s %q on page %d", d.Name, f.Type, f.Text, f.Page)
			}
		}
		for i, g := range got.Tags {
			if g.Source == detect.SourceLabel && !used[i] {
				fp++
				t.Logf("%s: wrong suggestion %s %q on page %d at (%.1f, %.1f, %.1f×%.1f) confidence %.2f", d.Name, g.Type, g.Text, g.Page, g.X, g.Y, g.Width, g.Height, g.Confidence)
			}
		}
		if strings.HasPrefix(d.Name, "held-out-") {
			held[0], held[1], held[2] = held[0]+tp-tp0, held[1]+fp-fp0, held[2]+fn-fn0
		}
	}
	precision := float64(tp) / math.Max(1, float64(tp+fp))
	recall := float64(tp) / math.Max(1, float64(tp+fn))
	t.Logf("suggestions: %d expected, %d right, %d wrong, %d missed: precision %.3f, recall %.3f", tp+fn, tp, fp, fn, precision, recall)
	t.Logf("held-out documents alone: %d expected, %d right, %d wrong, %d missed: precision %.3f, recall %.3f", held[0]+held[2], held[0], held[1], held[2],
		float64(held[0])/math.Max(1, float64(held[0]+held[1])), float64(held[0])/math.Max(1, float64(held[0]+held[2])))
	if precision < 0.9 || recall < 0.8 {
		t.Errorf("precision %.3f (want ≥ 0.9), recall %.3f (want ≥ 0.8)", precision, recall)
	}
}

// TestCorpusCost reports the time per page of the whole detection (layout,
// text tags, fields, suggestions) over the corpus, and the memory one
// detection of the largest file allocates (with the collector off, an upper
// bound of its peak heap).
func TestCorpusCost(t *testing.T) {
	docs := corpus(t)
	pages, largest := 0, docs[0]
	for _, d := range docs {
		lay, _ := pdf.ReadLayout(context.Background(), d.PDF)
		pages += len(lay.Pages)
		if len(d.PDF) > len(largest.PDF) {
			largest = d
		}
	}
	const rounds = 3
	start := time.Now()
	for range rounds {
		for _, d := range docs {
			if _, err := detect.Detect(context.Background(), pdf.Limits{}, d.PDF); err != nil {
				t.Fatal(err)
			}
		}
	}
	perPage := time.Since(start) / time.Duration(rounds*pages)
	runtime.GC()
	old := debug.SetGCPercent(-1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := detect.Detect(context.Background(), pdf.Limits{}, largest.PDF); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	debug.SetGCPercent(old)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d documents, %d pages: %v per page; largest file %s (%d KiB): %.1f MiB allocated by one detection",
		len(docs), pages, perPage, largest.Name, len(largest.PDF)>>10, float64(alloc)/(1<<20))
	if perPage > 200*time.Millisecond {
		t.Errorf("%v per page, far above the 20 ms aim", perPage)
	}
}

func BenchmarkDetectLargest(b *testing.B) {
	var largest pdftest.CorpusDoc
	for _, d := range pdftest.Corpus() {
		if len(d.PDF) > len(largest.PDF) {
			largest = d
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := detect.Detect(context.Background(), pdf.Limits{}, largest.PDF); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(largest.PDF)), "bytes/file")
	_ = fmt.Sprint
}
