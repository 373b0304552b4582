package pdf_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"

	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// BenchmarkPDFMemory measures what reading big honest documents holds, on
// every path that reads an upload: the check alone (inspect), the upload's
// check with detection on the same read (upload), the whole layout held
// (layout, as anchors read it), and the page edits (delete, move). For each
// it reports the peak of the heap during the operation above the heap
// before it (peak-heap-MiB, sampled every millisecond, garbage included as the
// GC leaves it), the same with the GC run at GOGC=10 (live-MiB, close to
// what the operation needs live), and the process's RSS peak above its RSS
// before (rss-MiB, from VmHWM, reset through /proc/self/clear_refs), with the
// bytes held per decoded byte and per file byte. docs/decisions.md ("Bounded
// PDF work") sizes the decode caps from these figures. Run it alone:
//
//	go test -run '^$' -bench PDFMemory -benchtime 1x ./models/pdf/
func BenchmarkPDFMemory(b *testing.B) {
	files := []struct {
		name string
		doc  pdftest.Large
	}{
		{"logo", pdftest.Logo()},
		{"scan400", pdftest.LetterScan()},
		{"manual", pdftest.Manual(300, 80)},
		{"book2000", pdftest.Book(2000)},
		{"plot", pdftest.Plot(48 << 20)},
		{"tagged", pdftest.Tagged(1000, 500_000)},
	}
	l := pdf.Limits{MaxStreamBytes: 1 << 30, MaxFileBytes: 4 << 30, MaxLayoutTime: time.Minute}
	ctx := context.Background()
	ops := []struct {
		name string
		run  func(content []byte, pages int) error
	}{
		{"inspect", func(c []byte, _ int) error { _, err := l.Inspect(ctx, bytes.NewReader(c)); return err }},
		{"upload", func(c []byte, _ int) error {
			_, _, err := detect.InspectAndDetectEach(ctx, l, bytes.NewReader(c), nil)
			return err
		}},
		{"layout", func(c []byte, _ int) error { _, err := l.ReadLayout(ctx, c); return err }},
		{"delete", func(c []byte, _ int) error { _, _, err := l.DeletePage(ctx, c, 1); return err }},
		{"move", func(c []byte, n int) error { _, _, err := l.MovePage(ctx, c, 1, n); return err }},
	}
	for _, f := range files {
		content, decoded := f.doc.BuildDecoded()
		pages := f.doc.Pages()
		for _, op := range ops {
			b.Run(f.name+"/"+op.name, func(b *testing.B) {
				var peak, live, rss int64
				for range b.N {
					var err error
					peak, rss, err = measure(func() error { return op.run(content, pages) })
					if errors.Is(err, pdf.ErrTooComplex) || errors.Is(err, pdf.ErrLastPage) {
						b.Skipf("refused by design: %v", err)
					}
					if err != nil {
						b.Fatal(err)
					}
					old := debug.SetGCPercent(10)
					live, _, err = measure(func() error { return op.run(content, pages) })
					debug.SetGCPercent(old)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
				b.ReportMetric(float64(live)/(1<<20), "live-MiB")
				b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
				b.ReportMetric(float64(live)/float64(decoded), "live/decoded")
				b.ReportMetric(float64(live)/float64(len(content)), "live/file")
				b.ReportMetric(float64(decoded)/(1<<20), "decoded-MiB")
				b.ReportMetric(float64(len(content))/(1<<20), "file-MiB")
			})
		}
	}
}

// measure runs fn and returns the peak heap above the heap before it and
// the RSS peak above the RSS before it.
func measure(fn func() error) (peakHeap, peakRSS int64, err error) {
	runtime.GC()
	debug.FreeOSMemory()
	base := heapBytes()
	rssBase := procStatus("VmRSS")
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0o644) // VmHWM := VmRSS
	var mu sync.Mutex
	peak := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if h := heapBytes(); h > peak {
					mu.Lock()
					peak = h
					mu.Unlock()
				}
			}
		}
	})
	err = fn()
	close(done)
	wg.Wait()
	if h := heapBytes(); h > peak {
		peak = h
	}
	return peak - base, procStatus("VmHWM") - rssBase, err
}

// heapBytes is the heap's object bytes, garbage not yet swept included.
func heapBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// procStatus reads a "kB" field of /proc/self/status, in bytes (0 when it
// cannot).
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != field {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return n << 10
	}
	return 0
}
