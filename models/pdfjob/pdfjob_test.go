package pdfjob_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/anchor"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/pdfworker"
	"github.com/markuproom/markuproom/models/revise"
	"github.com/markuproom/markuproom/models/templatematch"
)

func TestMain(m *testing.M) {
	pdfjob.ServeIfWorker()
	os.Exit(m.Run())
}

func pool(t *testing.T) *pdfworker.Pool {
	t.Helper()
	p := pdfworker.New(pdfworker.Options{Size: 1})
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// file writes b to a file of the test's temp directory.
func file(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestStageReadsAnUploadInAWorker(t *testing.T) {
	p := pool(t)
	ctx := context.Background()
	in := file(t, "in.pdf", pdftest.ThreePages(t))
	out := filepath.Join(t.TempDir(), "out.pdf")
	res, err := pdfjob.Stage(ctx, p, pdfjob.StageArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}}, in, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Info.Pages) != 3 || res.Mended {
		t.Fatalf("got %d pages, mended %v", len(res.Info.Pages), res.Mended)
	}
	var fp templatematch.Fingerprint
	if err := fp.UnmarshalBinary(res.Fingerprint); err != nil {
		t.Fatalf("fingerprint: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an ordinary upload wrote an output file: %v", err)
	}
	if s := p.Stats(); s.Jobs != 1 {
		t.Errorf("stats %+v", s)
	}
}

// Every refusal comes back as the pdf package's own error, so callers map
// it as they did when the work ran in process.
func TestRefusalsComeBackAsThePDFPackagesErrors(t *testing.T) {
	p := pool(t)
	ctx := context.Background()
	dir := t.TempDir()
	stage := func(b []byte, a pdfjob.StageArgs) error {
		_, err := pdfjob.Stage(ctx, p, a, file(t, "in.pdf", b), filepath.Join(dir, "out.pdf"))
		return err
	}
	if err := stage(pdftest.NotPDF(), pdfjob.StageArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}}); !errors.Is(err, pdf.ErrNotPDF) {
		t.Errorf("not a PDF: %v", err)
	}
	if err := stage(pdftest.EncryptedWithPassword(t), pdfjob.StageArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}}); !errors.Is(err, pdf.ErrPasswordRequired) {
		t.Errorf("a password: %v", err)
	}
	if err := stage(pdftest.Truncated(t), pdfjob.StageArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}}); !errors.Is(err, pdf.ErrMalformed) {
		t.Errorf("cut short: %v", err)
	}
	bomb := pdftest.Expanding{Pages: 2, ObjectStream: 4 << 20}.Build(t)
	err := stage(bomb, pdfjob.StageArgs{Limits: pdf.Limits{MaxStreamBytes: 1 << 20, MaxFileBytes: 3 << 20, MaxOutputBytes: 50 << 20}})
	var ee *pdf.ExpandsError
	if !errors.As(err, &ee) || ee.Limit != 1<<20 {
		t.Errorf("a bomb: %v, want an ExpandsError at 1 MiB", err)
	}
	// A decrypted copy larger than the output limit is refused, not written.
	enc := pdftest.Encrypted(t)
	err = stage(enc, pdfjob.StageArgs{Limits: pdf.Limits{MaxOutputBytes: 100}})
	var oe *pdf.OutputTooLargeError
	if !errors.As(err, &oe) || oe.Limit != 100 {
		t.Errorf("a mended copy past the limit: %v", err)
	}
	res, err := pdfjob.Stage(ctx, p, pdfjob.StageArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}}, file(t, "enc.pdf", enc), filepath.Join(dir, "dec.pdf"))
	if err != nil || !res.Mended || !res.Decrypted {
		t.Fatalf("an empty password: %+v, %v", res, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "dec.pdf")); err != nil || fi.Size() == 0 {
		t.Errorf("the decrypted copy was not written: %v", err)
	}
}

func TestPageEditsRunInAWorker(t *testing.T) {
	p := pool(t)
	ctx := context.Background()
	in := file(t, "in.pdf", pdftest.ThreePages(t))
	out := filepath.Join(t.TempDir(), "out.pdf")
	res, err := pdfjob.Edit(ctx, p, pdfjob.EditArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}, Op: pdfjob.EditDelete, Page: 2}, in, out)
	if err != nil || len(res.Info.Pages) != 2 {
		t.Fatalf("delete: %d pages, %v", len(res.Info.Pages), err)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := pdf.Inspect(ctx, bytes.NewReader(written)); err != nil || len(info.Pages) != 2 {
		t.Fatalf("the edited file: %d pages, %v", len(info.Pages), err)
	}
	if _, err := pdfjob.Edit(ctx, p, pdfjob.EditArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}, Op: pdfjob.EditMove, From: 1, To: 9}, in, out); !errors.Is(err, pdf.ErrPageOutOfRange) {
		t.Errorf("a move past the end: %v", err)
	}
	one := file(t, "one.pdf", written)
	if _, err := pdfjob.Edit(ctx, p, pdfjob.EditArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}, Op: pdfjob.EditDelete, Page: 1}, one, out); err != nil {
		t.Fatal(err)
	}
	if _, err := pdfjob.Edit(ctx, p, pdfjob.EditArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}, Op: pdfjob.EditDelete, Page: 1}, out, filepath.Join(t.TempDir(), "x.pdf")); !errors.Is(err, pdf.ErrLastPage) {
		t.Errorf("the last page: %v", err)
	}
}

func TestAnchorsAreFoundInAWorker(t *testing.T) {
	p := pool(t)
	doc := pdftest.TextPDF([]pdftest.TextPage{{Width: 612, Height: 792, Texts: []pdftest.PlacedText{{X: 72, Y: 700, Size: 12, Text: "Sign here:"}}}})
	req := anchor.Request{Budget: 1 << 20, MaxTagsPerDocument: 10, MaxPlaced: 10, Listings: []anchor.Listing{{Queries: []anchor.Query{
		{Anchor: "Sign here", Width: 100, Height: 20, XOffset: 60},
		{Anchor: "Nowhere"},
	}}}}
	res, err := pdfjob.PlaceAnchors(context.Background(), p, pdfjob.AnchorArgs{Request: req}, file(t, "doc.pdf", doc))
	if err != nil {
		t.Fatal(err)
	}
	out := res.Listings[0].Outcomes
	if len(out) != 2 || len(out[0].Tags) != 1 || out[0].Tags[0].Page != 1 || out[1].Problem != anchor.ProblemNotFound {
		t.Fatalf("outcomes %+v", out)
	}
	if box := out[0].Tags[0].Box; box.LLX < 130 || box.Width() != 100 {
		t.Errorf("tag box %+v", box)
	}
}

// inProcess runs jobs in this process, as the store did before the
// workers: the baseline of BenchmarkStageOrdinary.
type inProcess struct{}

func (inProcess) Do(ctx context.Context, req pdfworker.Request) (json.RawMessage, error) {
	res, err := pdfjob.Handle(ctx, req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

func (inProcess) Options() pdfworker.Options { return pdfworker.Options{} }

// BenchmarkStageOrdinary is an ordinary 3-page upload's check, run in this
// process and in a warm worker, side by side: the difference is what the
// worker costs a real job (the frames, the process switch, the result's
// JSON both ways).
func BenchmarkStageOrdinary(b *testing.B) {
	ctx := context.Background()
	in := filepath.Join(b.TempDir(), "in.pdf")
	if err := os.WriteFile(in, pdftest.ThreePages(b), 0o600); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "out.pdf")
	p := pdfworker.New(pdfworker.Options{Size: 1, Env: strings.Fields(os.Getenv("BENCH_WORKER_ENV"))})
	defer p.Close()
	if err := p.Start(ctx); err != nil {
		b.Fatal(err)
	}
	for _, r := range []struct {
		name string
		run  pdfjob.Runner
	}{{"in-process", inProcess{}}, {"worker", p}} {
		b.Run(r.name, func(b *testing.B) {
			cpu := treeCPU(b)
			for b.Loop() {
				if _, err := pdfjob.Stage(ctx, r.run, pdfjob.StageArgs{Limits: pdf.Limits{MaxOutputBytes: 50 << 20}}, in, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(treeCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// treeCPU is the processor time used so far by this process and its
// children (the workers, live or replaced): a cost the machine's other load
// does not change as much as the wall clock.
func treeCPU(b *testing.B) time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			b.Fatal(err)
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, t := range tasks {
		kids, _ := os.ReadFile(t)
		for _, pid := range strings.Fields(string(kids)) {
			stat, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil {
				continue
			}
			f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
			ut, _ := strconv.ParseInt(f[11], 10, 64)
			st, _ := strconv.ParseInt(f[12], 10, 64)
			total += time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ is 100 on Linux
		}
	}
	return total
}

// onePage is a Letter page showing content in Helvetica.
func onePage(content string) []byte {
	return pdftest.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	})
}

// The printed words of a page come back as boxes where they are drawn; a
// text tag's {{…}} and a fill-in line are not printed words.
func TestPrintedWordsInAWorker(t *testing.T) {
	p := pool(t)
	doc := onePage("BT /F1 12 Tf 72 700 Td (Tenant signs here {{s:1}} ________) Tj ET BT /F1 10 Tf 300 100 Td (Page 1) Tj ET")
	res, err := pdfjob.PrintedWords(context.Background(), p, pdf.Limits{MaxOutputBytes: 50 << 20}, file(t, "words.pdf", doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 1 {
		t.Fatalf("%d pages", len(res.Pages))
	}
	words := res.Pages[0]
	if len(words) != 5 { // Tenant, signs, here, Page, 1
		t.Fatalf("%d words %+v, want 5", len(words), words)
	}
	first, last := words[0], words[4]
	if first.LLX < 71 || first.LLX > 73 || first.LLY > 700 || first.URY < 708 || first.URX > 72+12*4 {
		t.Errorf("Tenant at %+v, want from x 72 on the baseline y 700", first)
	}
	if last.LLX < 300 || last.LLY > 100 || last.URY < 106 {
		t.Errorf("the page number at %+v, want right of x 300 on the baseline y 100", last)
	}
	for _, w := range words[:3] {
		if w.URX > 72+12*20 {
			t.Errorf("a word at %+v reaches the tag or the line", w)
		}
	}
}

// A page's words come back with their text and boxes, and the page with
// its CropBox, for carrying tags onto a revised version.
func TestPageWordsInAWorker(t *testing.T) {
	p := pool(t)
	doc := onePage("BT /F1 12 Tf 72 700 Td (Tenant signs: {{s:1}} ________) Tj ET")
	res, err := pdfjob.ReadPageWordsIn(context.Background(), p, pdf.Limits{MaxOutputBytes: 50 << 20}, file(t, "words.pdf", doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 1 || res.Pages[0].Width != 612 || res.Pages[0].Height != 792 {
		t.Fatalf("pages %+v", res.Pages)
	}
	words := res.Pages[0].Words
	if len(words) != 2 || words[0].Text != "Tenant" || words[1].Text != "signs:" {
		t.Fatalf("words %+v, want Tenant and signs:", words)
	}
	if b := words[0].Box; b.X < 71 || b.X > 73 || b.Y > 700 || b.Y+b.Height < 708 {
		t.Errorf("Tenant at %+v, want from x 72 on the baseline y 700", b)
	}
}

// BenchmarkRevise50Pages is the server's work for a revision of a 50-page
// contract with about 500 tags (docs/revise.md, "Speed"): both versions'
// words read in a PDF worker, then the tags mapped.
func BenchmarkRevise50Pages(b *testing.B) {
	base, revised := pdftest.RevisionContract(50)
	var tags []revise.Tag
	for id, f := range base.Fields {
		tags = append(tags, revise.Tag{ID: id, Page: f.Page, Box: revise.Box{X: f.Box.LLX, Y: f.Box.LLY, Width: f.Box.URX - f.Box.LLX, Height: f.Box.URY - f.Box.LLY}})
	}
	dir := b.TempDir()
	oldPath, newPath := filepath.Join(dir, "old.pdf"), filepath.Join(dir, "new.pdf")
	if err := os.WriteFile(oldPath, base.PDF, 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(newPath, revised.PDF, 0o600); err != nil {
		b.Fatal(err)
	}
	p := pdfworker.New(pdfworker.Options{Size: 2})
	b.Cleanup(func() { _ = p.Close() })
	ctx := context.Background()
	l := pdf.Limits{MaxOutputBytes: 50 << 20}
	if _, err := pdfjob.ReadPageWordsIn(ctx, p, l, oldPath); err != nil { // a warm worker
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(tags)), "tags")
	for b.Loop() {
		old, err := pdfjob.ReadPageWordsIn(ctx, p, l, oldPath)
		if err != nil {
			b.Fatal(err)
		}
		new, err := pdfjob.ReadPageWordsIn(ctx, p, l, newPath)
		if err != nil {
			b.Fatal(err)
		}
		if len(old.Pages) < 50 {
			b.Fatalf("%d pages", len(old.Pages))
		}
		r, err := revise.Match(ctx, old.Pages, tags, new.Pages)
		if err != nil {
			b.Fatal(err)
		}
		if r.Flagged > len(tags)/20 {
			b.Fatalf("%d of %d tags flagged", r.Flagged, len(tags))
		}
	}
}
