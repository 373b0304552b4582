package pdf_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

var (
	letter = pdf.Box{URX: 612, URY: 792}
	a4     = pdf.Box{URX: 595, URY: 842}
)

func inspectBytes(b []byte) (pdf.Info, error) {
	return pdf.Inspect(context.Background(), bytes.NewReader(b))
}

func sample(t testing.TB, n int, title string) []byte {
	t.Helper()
	b, err := pdf.Sample(n, title)
	if err != nil {
		t.Fatalf("Sample(%d): %v", n, err)
	}
	return b
}

func uniform(n int, box pdf.Box) []pdf.Page {
	ps := make([]pdf.Page, n)
	for i := range ps {
		ps[i] = pdf.Page{MediaBox: box, CropBox: box}
	}
	return ps
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replace returns a copy of b with the first occurrence of old replaced,
// failing when old is absent.
func replace(t testing.TB, b []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%q not found", old)
	}
	return bytes.Replace(b, []byte(old), []byte(new), 1)
}

// startXRef returns the offset after the last startxref keyword of b.
func startXRef(t testing.TB, b []byte) int {
	t.Helper()
	m := regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no startxref")
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

func TestInspectValid(t *testing.T) {
	odd, oddPages := pdftest.OddGeometry(t)
	tests := []struct {
		name string
		data []byte
		want []pdf.Page
	}{
		{"Sample(1)", sample(t, 1, "One"), uniform(1, letter)},
		{"Sample(3)", sample(t, 3, "Three"), uniform(3, letter)},
		{"pdftest.ThreePages", pdftest.ThreePages(t), uniform(3, letter)},
		{"odd geometry", odd, oddPages},
		{"Chromium (Skia)", readTestdata(t, "chromium-skia.pdf"), uniform(2, letter)},
		{"cairo", readTestdata(t, "cairo.pdf"), uniform(2, letter)},
		{"Ghostscript", readTestdata(t, "ghostscript.pdf"), uniform(2, a4)},
		{"MuPDF", readTestdata(t, "mupdf-clean.pdf"), uniform(2, a4)},
		{"qpdf object streams", readTestdata(t, "qpdf-objstm.pdf"), uniform(2, a4)},
		{"qpdf linearized", readTestdata(t, "qpdf-linearized.pdf"), uniform(2, letter)},
		{"incremental update", appendUpdate(t, sample(t, 2, "Base")), uniform(2, letter)},
		{"junk before the header", append(bytes.Repeat([]byte("x"), 500), sample(t, 1, "")...), uniform(1, letter)},
		{"white space after %%EOF", append(sample(t, 1, ""), "\r\n\n  \x00\x00"...), uniform(1, letter)},
		{"short junk after %%EOF", append(sample(t, 1, ""), "\n<html>junk</html>\n"...), uniform(1, letter)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := inspectBytes(tt.data)
			if err != nil {
				t.Fatalf("Inspect: %v", err)
			}
			if !reflect.DeepEqual(info.Pages, tt.want) {
				t.Errorf("pages:\n got %+v\nwant %+v", info.Pages, tt.want)
			}
		})
	}
}

// appendUpdate appends an incremental update to b that replaces its
// document information dictionary, indexed by a classic xref table.
func appendUpdate(t testing.TB, b []byte) []byte {
	t.Helper()
	return appendUpdateKind(t, b, "table", nil)
}

// appendUpdateKind appends an incremental update indexed by a classic table
// ("table"), a cross-reference stream ("stream") or both ("hybrid", as
// Microsoft Word writes). The streams use FlateDecode with the PNG Up
// predictor, like most writers. damage, when set, may alter the stream's
// entries (type, offset, generation) before they are encoded.
func appendUpdateKind(t testing.TB, b []byte, kind string, damage func(rows [][3]int)) []byte {
	t.Helper()
	m := regexp.MustCompile(`/Size (\d+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no /Size")
	}
	size, _ := strconv.Atoi(string(m[1]))
	prev := startXRef(t, b)
	info, stm := size, size+1
	var out bytes.Buffer
	out.Write(b)
	infoOff := out.Len()
	fmt.Fprintf(&out, "%d 0 obj\n<< /Title (Updated) /Producer (test) >>\nendobj\n", info)
	stmOff := out.Len()
	if kind != "table" {
		rows := [][3]int{{1, infoOff, 0}, {1, stmOff, 0}}
		if damage != nil {
			damage(rows)
		}
		var raw, prevRow []byte
		prevRow = make([]byte, 7)
		for _, r := range rows {
			row := []byte{byte(r[0]), byte(r[1] >> 24), byte(r[1] >> 16), byte(r[1] >> 8), byte(r[1]), byte(r[2] >> 8), byte(r[2])}
			raw = append(raw, 2) // PNG Up
			for i := range row {
				raw = append(raw, row[i]-prevRow[i])
			}
			prevRow = row
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(raw)
		zw.Close()
		fmt.Fprintf(&out, "%d 0 obj\n<< /Type /XRef /Size %d /Index [%d 2] /W [1 4 2] /Root 1 0 R /Info %d 0 R", stm, size+2, info, info)
		if kind == "stream" {
			fmt.Fprintf(&out, " /Prev %d", prev)
		}
		fmt.Fprintf(&out, " /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 7 >> /Length %d >>\nstream\n", z.Len())
		out.Write(z.Bytes())
		out.WriteString("\nendstream\nendobj\n")
	}
	if kind == "stream" {
		fmt.Fprintf(&out, "startxref\n%d\n%%%%EOF\n", stmOff)
		return out.Bytes()
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 1\n0000000000 65535 f \n")
	extra, newSize := "", size+2
	if kind == "table" {
		fmt.Fprintf(&out, "%d 1\n%010d 00000 n \n", info, infoOff)
		newSize = size + 1
	} else {
		extra = fmt.Sprintf(" /XRefStm %d", stmOff)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R /Prev %d%s >>\nstartxref\n%d\n%%%%EOF\n", newSize, info, prev, extra, xref)
	return out.Bytes()
}

func TestInspectUpdates(t *testing.T) {
	base := sample(t, 2, "Base")
	for _, kind := range []string{"table", "stream", "hybrid"} {
		t.Run(kind, func(t *testing.T) {
			b := appendUpdateKind(t, base, kind, nil)
			info, err := inspectBytes(b)
			if err != nil || len(info.Pages) != 2 {
				t.Fatalf("Inspect = %d pages, %v; want 2 pages", len(info.Pages), err)
			}
			api.DisableConfigDir()
			ctx, err := api.ReadContext(bytes.NewReader(b), model.NewDefaultConfiguration())
			if err != nil {
				t.Fatal(err)
			}
			if err := api.ValidateContext(ctx); err != nil {
				t.Fatal(err)
			}
			if ctx.Title != "Updated" {
				t.Errorf("title %q: the update was not read", ctx.Title)
			}
			if kind == "table" {
				return
			}
			damaged := appendUpdateKind(t, base, kind, func(rows [][3]int) { rows[0][1] += 3 })
			if _, err := inspectBytes(damaged); !errors.Is(err, pdf.ErrMalformed) {
				t.Errorf("stream entry with a wrong offset: %v, want ErrMalformed", err)
			}
			for n := len(base) + 10; n < len(b)-8; n += 7 {
				if _, err := inspectBytes(b[:n]); !errors.Is(err, pdf.ErrMalformed) {
					t.Errorf("cut at %d of %d: %v, want ErrMalformed", n, len(b), err)
				}
			}
		})
	}
}

func TestInspectFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "upload.pdf")
	if err := os.WriteFile(path, pdftest.ThreePages(t), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(100, io.SeekStart); err != nil { // Inspect must not rely on the position
		t.Fatal(err)
	}
	info, err := pdf.Inspect(context.Background(), f)
	if err != nil || len(info.Pages) != 3 {
		t.Fatalf("Inspect(file) = %d pages, %v; want 3 pages", len(info.Pages), err)
	}
}

func TestInspectEncrypted(t *testing.T) {
	api.DisableConfigDir()
	encrypt := func(conf *model.Configuration) []byte {
		var out bytes.Buffer
		if err := api.Encrypt(bytes.NewReader(sample(t, 2, "Secret")), &out, conf); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"pdftest.Encrypted (AES-256, empty user password)", pdftest.Encrypted(t)},
		{"pdftest.EncryptedWithPassword (AES-128)", pdftest.EncryptedWithPassword(t)},
		{"pdfcpu RC4-128, empty user password", encrypt(model.NewRC4Configuration("", "owner", 128))},
		{"pdfcpu RC4-40 with user password", encrypt(model.NewRC4Configuration("user", "owner", 40))},
		{"qpdf AES-256", readTestdata(t, "qpdf-aes256.pdf")},
		{"qpdf RC4-40", readTestdata(t, "qpdf-rc4-40.pdf")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := inspectBytes(tt.data); !errors.Is(err, pdf.ErrEncrypted) {
				t.Errorf("Inspect = %v, want ErrEncrypted", err)
			}
		})
	}
}

func TestInspectNotPDF(t *testing.T) {
	good := sample(t, 1, "")
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, pdf.ErrNotPDF},
		{"HTML", []byte("<!doctype html>\n<html><body>Not found</body></html>\n"), pdf.ErrNotPDF},
		{"PNG", pdftest.NotPDF(), pdf.ErrNotPDF},
		{"plain text", []byte("Dear Sir or Madam,\nplease find the contract attached.\n"), pdf.ErrNotPDF},
		{"partial header", []byte("%PDF"), pdf.ErrNotPDF},
		{"header after 1024 bytes", append(bytes.Repeat([]byte(" "), 1100), good...), pdf.ErrNotPDF},
		{"header alone", []byte("%PDF-"), pdf.ErrMalformed},
		{"header line alone", []byte("%PDF-1.7\n"), pdf.ErrMalformed},
		{"header then HTML", []byte("%PDF-1.4\n<html><body>oops</body></html>\n"), pdf.ErrMalformed},
		{"header and %%EOF only", []byte("%PDF-1.4\n%%EOF\n"), pdf.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := inspectBytes(tt.data); !errors.Is(err, tt.want) {
				t.Errorf("Inspect = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestInspectDamaged(t *testing.T) {
	good := sample(t, 3, "Damaged")
	sx := startXRef(t, good)
	entry := func(obj int) string { // the xref table line of obj
		hdr := fmt.Sprintf("xref\n0 %s\n", regexp.MustCompile(`/Size (\d+)`).FindSubmatch(good)[1])
		at := sx + len(hdr) + 20*obj
		return string(good[at : at+20])
	}
	tail := string(good[sx:])
	xrefTable := tail[:strings.Index(tail, "trailer")]
	tests := []struct {
		name string
		data []byte
	}{
		{"no %%EOF", good[:len(good)-len("%%EOF\n")]},
		{"no startxref", replace(t, good, "startxref\n", "")},
		{"no trailer or xref", good[:sx]},
		{"xref table removed", replace(t, good, xrefTable, "")},
		{"startxref off target", replace(t, good, "startxref\n"+strconv.Itoa(sx), "startxref\n"+strconv.Itoa(sx-7))},
		{"startxref past the end", replace(t, good, "startxref\n"+strconv.Itoa(sx), "startxref\n"+strconv.Itoa(len(good)+10))},
		{"startxref not a number", replace(t, good, "startxref\n"+strconv.Itoa(sx), "startxref\nabc")},
		{"xref entry points at another object", replace(t, good, entry(4), entry(5))},
		{"bytes inserted in the body", replace(t,
			replace(t, good, "endobj\n5 0 obj", "endobj\n% inserted comment\n5 0 obj"),
			"startxref\n"+strconv.Itoa(sx), "startxref\n"+strconv.Itoa(sx+len("% inserted comment\n")))},
		{"bytes removed from the body", replace(t, good, "/ProcSet [/PDF /Text] ", "")},
		{"bad xref entry", replace(t, good, entry(3), "00000000xx 00000 n \n")},
		{"trailer without /Root", replace(t, good, "/Root", "/Rooo")},
		{"incomplete update after %%EOF", append(bytes.Clone(good), "\n14 0 obj\n<< /Title (x) >>\nendobj\nxref\n0 1\n"...)},
		{"long junk after %%EOF", append(bytes.Clone(good), bytes.Repeat([]byte("junk "), 300)...)},
		{"page count mismatch", replace(t, good, "/Count 3", "/Count 4")},
		{"page tree cycle", replace(t, good, "/Kids [7 0 R", "/Kids [6 0 R")},
		{"pages without MediaBox", bytes.ReplaceAll(good, []byte("/MediaBox"), []byte("/MediaBxx"))},
		{"empty MediaBox", mustTree(t, pdf.SampleNode{Kids: []pdf.SampleNode{{MediaBox: pdf.Box{URX: 0, URY: 792}}}})},
		{"no pages", mustTree(t, pdf.SampleNode{})},
		{"rotate not a multiple of 90", mustTree(t, pdf.SampleNode{Kids: []pdf.SampleNode{{Rotate: 45}}})},
		{"catalog without pages", replace(t, good, "/Type /Catalog /Pages 6 0 R", "/Type /Catalog /Pagex 6 0 R")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := inspectBytes(tt.data)
			if !errors.Is(err, pdf.ErrMalformed) {
				t.Fatalf("Inspect = %v, want ErrMalformed", err)
			}
			t.Log(err)
		})
	}
}

func mustTree(t testing.TB, root pdf.SampleNode) []byte {
	t.Helper()
	b, err := pdf.SampleTree(root, "")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInspectTruncated cuts valid files at many points: every cut must be
// rejected, except cuts that only drop trailing white space.
func TestInspectTruncated(t *testing.T) {
	odd, _ := pdftest.OddGeometry(t)
	files := []struct {
		name   string
		data   []byte
		stride int // 1 tries every cut point
	}{
		{"Sample(1)", sample(t, 1, "Cut"), 1},
		{"Sample(3)", sample(t, 3, "Cut"), 3},
		{"odd geometry", odd, 5},
		{"incremental update", appendUpdate(t, sample(t, 1, "Cut")), 0},
		{"Ghostscript", readTestdata(t, "ghostscript.pdf"), 1},
		{"qpdf object streams", readTestdata(t, "qpdf-objstm.pdf"), 1},
		{"qpdf linearized", readTestdata(t, "qpdf-linearized.pdf"), 11},
		{"Chromium (Skia)", readTestdata(t, "chromium-skia.pdf"), 13},
		{"cairo", readTestdata(t, "cairo.pdf"), 13},
	}
	trim := func(b []byte) []byte { return bytes.TrimRight(b, "\x00\t\n\f\r ") }
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			cuts := map[int]bool{}
			for _, pct := range []int{10, 25, 50, 75, 90, 95, 99} {
				cuts[len(f.data)*pct/100] = true
			}
			for n := 0; f.stride > 0 && n < len(f.data); n += f.stride {
				cuts[n] = true
			}
			for n := range cuts {
				cut := f.data[:n]
				_, err := inspectBytes(cut)
				switch {
				case bytes.Equal(trim(cut), trim(f.data)):
					if err != nil {
						t.Errorf("cut at %d of %d (white space only): %v", n, len(f.data), err)
					}
				case n < len("%PDF-"):
					if !errors.Is(err, pdf.ErrNotPDF) {
						t.Errorf("cut at %d: %v, want ErrNotPDF", n, err)
					}
				default:
					if !errors.Is(err, pdf.ErrMalformed) {
						t.Errorf("cut at %d of %d (%.1f%%): %v, want ErrMalformed", n, len(f.data), 100*float64(n)/float64(len(f.data)), err)
					}
				}
			}
		})
	}
}

// TestInspectTruncatedUpdate cuts inside an incremental update: the cut file
// must not pass as the earlier revision.
func TestInspectTruncatedUpdate(t *testing.T) {
	base := sample(t, 1, "Base")
	full := appendUpdate(t, base)
	for n := len(base) + 10; n < len(full)-len("%%EOF\n"); n++ {
		if _, err := inspectBytes(full[:n]); !errors.Is(err, pdf.ErrMalformed) {
			t.Errorf("cut at %d of %d: %v, want ErrMalformed", n, len(full), err)
		}
	}
	if _, err := inspectBytes(full[:len(base)]); err != nil {
		t.Errorf("cut exactly at the first revision: %v", err)
	}
}

func TestInspectTooManyPages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large PDF")
	}
	b := sample(t, pdf.MaxPages+1, "Long")
	start := time.Now()
	_, err := inspectBytes(b)
	if !errors.Is(err, pdf.ErrTooManyPages) {
		t.Fatalf("Inspect(%d pages) = %v, want ErrTooManyPages", pdf.MaxPages+1, err)
	}
	t.Logf("rejected %d pages (%d bytes) in %v", pdf.MaxPages+1, len(b), time.Since(start))
}

func TestInspectContext(t *testing.T) {
	b := pdftest.ThreePages(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pdf.Inspect(ctx, bytes.NewReader(b)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if _, err := pdf.Inspect(ctx, bytes.NewReader(b)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("expired: %v, want context.DeadlineExceeded", err)
	}
}

// failingReader serves the first n bytes of data and then fails.
type failingReader struct {
	*bytes.Reader
	n int64
}

func (r *failingReader) Read(p []byte) (int, error) {
	pos, _ := r.Seek(0, io.SeekCurrent)
	if pos >= r.n {
		return 0, errors.New("disk on fire")
	}
	if rem := r.n - pos; int64(len(p)) > rem {
		p = p[:rem]
	}
	return r.Reader.Read(p)
}

func TestInspectReadError(t *testing.T) {
	b := pdftest.ThreePages(t)
	_, err := pdf.Inspect(context.Background(), &failingReader{bytes.NewReader(b), 0})
	if err == nil || errors.Is(err, pdf.ErrMalformed) || errors.Is(err, pdf.ErrNotPDF) {
		t.Errorf("Inspect with a failing reader = %v, want an I/O error", err)
	}
}

func BenchmarkInspect(b *testing.B) {
	data := sample(b, 50, "Benchmark Agreement")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pdf.Inspect(context.Background(), bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestInspectConcurrent(t *testing.T) {
	odd, _ := pdftest.OddGeometry(t)
	inputs := [][]byte{pdftest.ThreePages(t), odd, readTestdata(t, "qpdf-objstm.pdf"), pdftest.Truncated(t), pdftest.Encrypted(t)}
	want := make([]error, len(inputs))
	for i, in := range inputs {
		_, want[i] = inspectBytes(in)
	}
	errs := make(chan error, 8*len(inputs))
	for range 8 {
		for i, in := range inputs {
			go func() {
				_, err := inspectBytes(in)
				if fmt.Sprint(err) != fmt.Sprint(want[i]) {
					errs <- fmt.Errorf("input %d: %v, want %v", i, err, want[i])
					return
				}
				errs <- nil
			}()
		}
	}
	for range 8 * len(inputs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestInspectDamagedXRefStream(t *testing.T) {
	base := sample(t, 1, "Base")
	good := appendUpdateKind(t, base, "stream", nil)
	size := regexp.MustCompile(`/Size (\d+)`).FindSubmatch(base)[1]
	index := fmt.Sprintf("/Index [%s 2]", size)
	length := string(regexp.MustCompile(`/Length \d+ >>\nstream`).FindAll(good, -1)[1])
	tests := []struct{ name, old, new string }{
		{"W with two fields", "/W [1 4 2]", "/W [1 4]"},
		{"W field too wide", "/W [1 4 2]", "/W [1 4 9]"},
		{"W all zero", "/W [1 4 2]", "/W [0 0 0]"},
		{"more entries announced than stored", index, fmt.Sprintf("/Index [%s 3]", size)},
		{"odd Index", index, fmt.Sprintf("/Index [%s]", size)},
		{"not of type XRef", "/Type /XRef", "/Type /XRex"},
		{"unknown filter", "/Filter /FlateDecode", "/Filter /FooDecode"},
		{"not deflated", "/Filter /FlateDecode", "/Filter /LZWDecode"},
		{"Length past the end", length, "/Length 99999 >>\nstream"},
		{"indirect Length", length, "/Length 1 0 R >>\nstream"},
		{"no Size", "/Type /XRef /Size", "/Type /XRef /Sizx"},
	}
	if _, err := inspectBytes(good); err != nil {
		t.Fatalf("undamaged: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := replace(t, good, tt.old, tt.new)
			_, err := inspectBytes(b)
			if !errors.Is(err, pdf.ErrMalformed) {
				t.Fatalf("Inspect = %v, want ErrMalformed", err)
			}
			t.Log(err)
		})
	}
}

func TestJSONNames(t *testing.T) {
	p := pdf.Page{MediaBox: pdf.Box{URX: 612, URY: 792}, CropBox: pdf.Box{LLX: 1, LLY: 2, URX: 3, URY: 4}, Rotate: 90}
	got, err := json.Marshal(pdf.Info{Pages: []pdf.Page{p}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"pages":[{"mediaBox":{"llx":0,"lly":0,"urx":612,"ury":792},"cropBox":{"llx":1,"lly":2,"urx":3,"ury":4},"rotate":90}]}`
	if string(got) != want {
		t.Errorf("JSON = %s\nwant   %s", got, want)
	}
}
