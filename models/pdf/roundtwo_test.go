package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// uploadCap is the default upload limit (MARKUPROOM_MAX_UPLOAD_BYTES), the
// cap on a mended file the server sets.
const uploadCap = 50 << 20

// roundTwoAlloc is what one round-two file may allocate through Mend and
// Inspect, in all: the server once grew by 2.9 GB on one of them.
const roundTwoAlloc = 256 << 20

// roundTwoTime is how long one round-two file may take, generously: the
// repair pass stops at its own 10 s deadline, an upload answers within 15 s.
const roundTwoTime = 15 * time.Second

// Every round-two file, through Mend and then Inspect as an upload runs
// them with the default caps and the default upload cap, is refused with a
// classified error (a 422 or the 413 of a mended file over the cap) or
// accepted as a file within the cap, in time and with bounded allocation.
func TestRoundTwoFiles(t *testing.T) {
	limits := pdf.DefaultLimits()
	limits.MaxOutputBytes = uploadCap
	for _, h := range pdftest.RoundTwoFiles() {
		t.Run(h.Name, func(t *testing.T) {
			res := mendAndInspect(t, limits, h.PDF)
			t.Logf("%s: %d bytes in, %d out, %d pages, %v; %v, %d MB allocated, heap +%d MB",
				h.Name, len(h.PDF), res.outBytes, len(res.info.Pages), res.err, res.elapsed.Round(time.Millisecond), res.alloc>>20, res.heap>>20)
			if res.err != nil {
				if !knownError(res.err) && !errors.Is(res.err, pdf.ErrOutputTooLarge) {
					t.Errorf("refused with an unclassified error: %v", res.err)
				}
			} else if res.outBytes > uploadCap || len(res.info.Pages) == 0 {
				t.Errorf("accepted as %d bytes and %d pages; want at most %d bytes", res.outBytes, len(res.info.Pages), uploadCap)
			}
			if res.elapsed > roundTwoTime {
				t.Errorf("took %v, want under %v", res.elapsed, roundTwoTime)
			}
			if res.alloc > roundTwoAlloc {
				t.Errorf("allocated %d MB, want under %d MB", res.alloc>>20, roundTwoAlloc>>20)
			}
		})
	}
}

// mended is what mendAndInspect saw.
type mended struct {
	info     pdf.Info
	err      error
	outBytes int
	elapsed  time.Duration
	// alloc is the bytes allocated in all (TotalAlloc); heap the growth of
	// the heap in use, both across the call.
	alloc, heap uint64
}

// mendAndInspect runs Mend, then Inspect on what it gives (or on the file
// when it gives nothing), as an upload that the strict check refused does.
func mendAndInspect(t testing.TB, limits pdf.Limits, b []byte) mended {
	t.Helper()
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	var res mended
	m, err := limits.Mend(ctx, bytes.NewReader(b))
	if err == nil {
		out := m.Content
		if out == nil {
			out = b
		}
		res.outBytes = len(out)
		res.info, err = limits.Inspect(ctx, bytes.NewReader(out))
	}
	res.err, res.elapsed = err, time.Since(start)
	runtime.ReadMemStats(&after)
	res.alloc = after.TotalAlloc - before.TotalAlloc
	if after.HeapInuse > before.HeapInuse {
		res.heap = after.HeapInuse - before.HeapInuse
	}
	return res
}
