package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// The default caps are LimitsForMemory's for the default worker and upload
// limit, and the caps grow with the worker's memory and shrink as the
// largest upload grows.
func TestLimitsForMemory(t *testing.T) {
	def := pdf.LimitsForMemory(pdf.DefaultWorkerMemory, pdf.DefaultMaxUploadBytes)
	if want := pdf.DefaultLimits(); def.MaxStreamBytes != want.MaxStreamBytes || def.MaxFileBytes != want.MaxFileBytes {
		t.Fatalf("LimitsForMemory(1 GiB, 50 MiB) = %s / %s, the defaults are %s / %s",
			pdf.MiB(def.MaxStreamBytes), pdf.MiB(def.MaxFileBytes), pdf.MiB(want.MaxStreamBytes), pdf.MiB(want.MaxFileBytes))
	}
	prev := pdf.Limits{}
	for _, w := range []int64{512 << 20, 1 << 30, 2 << 30, 8 << 30} {
		l := pdf.LimitsForMemory(w, pdf.DefaultMaxUploadBytes)
		if l.MaxStreamBytes < prev.MaxStreamBytes || l.MaxFileBytes < prev.MaxFileBytes || l.MaxFileBytes < l.MaxStreamBytes {
			t.Errorf("%s: %s / %s after %s / %s", pdf.MiB(w), pdf.MiB(l.MaxStreamBytes), pdf.MiB(l.MaxFileBytes), pdf.MiB(prev.MaxStreamBytes), pdf.MiB(prev.MaxFileBytes))
		}
		prev = l
	}
	if small, big := pdf.LimitsForMemory(1<<30, 8<<20), pdf.LimitsForMemory(1<<30, 100<<20); small.MaxFileBytes <= big.MaxFileBytes {
		t.Errorf("a smaller upload limit leaves less for decoding: %s vs %s", pdf.MiB(small.MaxFileBytes), pdf.MiB(big.MaxFileBytes))
	}
	if tiny := pdf.LimitsForMemory(128<<20, 100<<20); tiny.MaxStreamBytes != 8<<20 || tiny.MaxFileBytes != 24<<20 {
		t.Errorf("a worker too small for its uploads: %s / %s, want the floors 8 / 24 MiB", pdf.MiB(tiny.MaxStreamBytes), pdf.MiB(tiny.MaxFileBytes))
	}
}

// The big files the old caps (32 MiB a stream, 96 MiB a file, images
// counted as memory) refused although viewers open them pass the default
// caps.
func TestBigHonestFilesPassTheDefaultCaps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and reads 240 MiB of streams")
	}
	ctx := context.Background()
	for _, f := range pdftest.BigFiles() {
		content, decoded := f.Doc.BuildDecoded()
		info, err := pdf.Inspect(ctx, bytes.NewReader(content))
		if err != nil || len(info.Pages) != f.Doc.Pages() {
			t.Errorf("%s (%s, %s decoded): %d pages, %v", f.Name, pdf.MiB(int64(len(content))), pdf.MiB(decoded), len(info.Pages), err)
		}
	}
}

// The caps keep a worker's reading within its memory: the heaviest file
// within the caps of a 384 MiB worker with 8 MiB uploads (a content stream
// and an object stream of the per-stream cap, a second content stream up
// to the file's cap) is edited (the path that holds the most) with a heap
// peak within what the worker has besides its own workerBase (64 MiB).
func TestCapsKeepTheWorkerWithinItsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 86 MiB of streams several times")
	}
	const worker = 384 << 20
	l := pdf.LimitsForMemory(worker, 8<<20)
	s := l.MaxStreamBytes - 1<<20
	second := l.MaxFileBytes - 2*s - 1<<20
	if second <= 0 || second > s {
		t.Fatalf("caps %s / %s: the test's file no longer fits them", pdf.MiB(l.MaxStreamBytes), pdf.MiB(l.MaxFileBytes))
	}
	b := pdftest.Expanding{Pages: 3, Content: []int64{s, second}, ObjectStream: s}.Build(t)
	ctx := context.Background()
	peak, _, err := measure(func() error { _, _, err := l.DeletePage(ctx, b, 3); return err })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("caps %s / %s: a page delete of %s decoded peaked at %s of heap", pdf.MiB(l.MaxStreamBytes), pdf.MiB(l.MaxFileBytes), pdf.MiB(2*s+second), pdf.MiB(peak))
	if peak > worker-64<<20 {
		t.Errorf("the heap peaked at %s, more than the %s a 384 MiB worker has for it", pdf.MiB(peak), pdf.MiB(worker-64<<20))
	}
	over := pdftest.Expanding{Pages: 2, Content: []int64{l.MaxStreamBytes + 1<<20}}.Build(t)
	if _, _, err := l.DeletePage(ctx, over, 2); !errors.Is(err, pdf.ErrExpandsTooMuch) {
		t.Errorf("a stream past the cap: %v, want ErrExpandsTooMuch", err)
	}
}

// Images and font programs are never decoded by a reader of the package:
// decoding them in the pre-scan is work, counted against
// MaxDecodeWorkBytes, not the memory caps. A manual whose screenshots
// decode to 300 MiB passes the default caps (200 MiB a file), and is
// refused only past the work cap.
func TestImagesCountAsWorkNotMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and reads 300 MiB of images")
	}
	ctx := context.Background()
	content, decoded := pdftest.Manual(20, 80).BuildDecoded()
	if decoded <= pdf.DefaultMaxDecodedFileBytes {
		t.Fatalf("the manual decodes to %s, not past the file cap", pdf.MiB(decoded))
	}
	if _, err := pdf.Inspect(ctx, bytes.NewReader(content)); err != nil {
		t.Fatalf("%s of images: %v", pdf.MiB(decoded), err)
	}
	_, err := pdf.Limits{MaxDecodeWorkBytes: 64 << 20}.Inspect(ctx, bytes.NewReader(content))
	var ee *pdf.ExpandsError
	if !errors.As(err, &ee) || ee.Limit != 64<<20 {
		t.Fatalf("past a 64 MiB work cap: %v", err)
	}
}

// A file with more objects in use than MaxObjects is refused before its
// objects are read; LimitsForMemory gives a worker 2 KiB an object.
func TestObjectsAreCapped(t *testing.T) {
	ctx := context.Background()
	three := pdftest.ThreePages(t)
	if _, err := pdf.Inspect(ctx, bytes.NewReader(three)); err != nil {
		t.Fatal(err)
	}
	_, err := pdf.Limits{MaxObjects: 3}.Inspect(ctx, bytes.NewReader(three))
	var oe *pdf.ObjectsError
	if !errors.As(err, &oe) || oe.Limit != 3 || oe.Objects <= 3 {
		t.Fatalf("three objects at most: %v", err)
	}
	if got := pdf.LimitsForMemory(1<<30, 50<<20).MaxObjects; got != pdf.DefaultMaxObjects {
		t.Errorf("objects for 1 GiB: %d, the default is %d", got, pdf.DefaultMaxObjects)
	}
	if pdf.DefaultMaxObjects != 491_520 {
		t.Errorf("the default: %d objects, want 960 MiB at 2 KiB each", pdf.DefaultMaxObjects)
	}
}
