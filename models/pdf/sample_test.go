package pdf_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

func TestSampleDeterministic(t *testing.T) {
	a, b := sample(t, 3, "Same"), sample(t, 3, "Same")
	if !bytes.Equal(a, b) {
		t.Fatal("two calls of Sample(3, \"Same\") differ")
	}
	if bytes.Equal(a, sample(t, 3, "Other")) {
		t.Error("different titles give the same bytes")
	}
	o1, _ := pdftest.OddGeometry(t)
	o2, _ := pdftest.OddGeometry(t)
	if sha256.Sum256(o1) != sha256.Sum256(o2) {
		t.Error("two calls of SampleTree differ")
	}
	for _, forbidden := range []string{"/CreationDate", "/ModDate"} {
		if bytes.Contains(a, []byte(forbidden)) {
			t.Errorf("sample contains %s", forbidden)
		}
	}
}

func TestSampleBadPageCount(t *testing.T) {
	for _, n := range []int{0, -1, 1_000_000} {
		if _, err := pdf.Sample(n, "x"); err == nil {
			t.Errorf("Sample(%d) succeeded", n)
		}
	}
}

// TestSampleStrictValidation checks the samples against pdfcpu's strict mode,
// which real-world producers do not pass.
func TestSampleStrictValidation(t *testing.T) {
	odd, _ := pdftest.OddGeometry(t)
	for name, b := range map[string][]byte{
		"Sample(1)":      sample(t, 1, ""),
		"Sample(3)":      sample(t, 3, "Strict"),
		"odd geometry":   odd,
		"escaped title":  sample(t, 2, `Lease (draft) \ été 漢字 ((`),
		"Sample(50)":     sample(t, 50, "Fifty"),
		"long title":     sample(t, 1, strings.Repeat("Very long title ", 20)),
		"control chars":  sample(t, 1, "tab\tnewline\n\x00nul"),
		"invalid UTF-8":  sample(t, 1, "bad \xff\xfe bytes"),
		"nested pages":   mustTree(t, pdf.SampleNode{Kids: []pdf.SampleNode{{Kids: []pdf.SampleNode{{}, {Kids: []pdf.SampleNode{{}}}}}}}),
		"pdftest.Three":  pdftest.ThreePages(t),
		"default letter": mustTree(t, pdf.SampleNode{Kids: []pdf.SampleNode{{}, {}}}),
	} {
		t.Run(name, func(t *testing.T) {
			api.DisableConfigDir()
			conf := model.NewDefaultConfiguration()
			conf.ValidationMode = model.ValidationStrict
			if err := api.Validate(bytes.NewReader(b), conf); err != nil {
				t.Errorf("strict validation: %v", err)
			}
			if _, err := inspectBytes(b); err != nil {
				t.Errorf("Inspect: %v", err)
			}
		})
	}
}

func TestSampleTitleEscaping(t *testing.T) {
	title := `Lease (draft) \ été 漢字`
	b := sample(t, 2, title)
	for _, want := range []string{
		`(Lease \(draft\) \\ \351t\351 ??) Tj`, // the heading, in WinAnsiEncoding
		`(Page 2 of 2) Tj`,
		`thirty \(30\) days.) Tj`,
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("sample lacks %s", want)
		}
	}
	api.DisableConfigDir()
	ctx, err := api.ReadContext(bytes.NewReader(b), model.NewDefaultConfiguration())
	if err != nil {
		t.Fatal(err)
	}
	if err := api.ValidateContext(ctx); err != nil {
		t.Fatal(err)
	}
	if ctx.Title != title {
		t.Errorf("document title = %q, want %q", ctx.Title, title)
	}
}

func TestSampleLongTitleShortened(t *testing.T) {
	b := sample(t, 1, strings.Repeat("abcdefghij", 10))
	if !bytes.Contains(b, []byte("(abcdefghijabcdefghijabcdefghijabcdefghijabcde...) Tj")) {
		t.Error("long heading not shortened to 48 characters")
	}
}

func TestSampleFields(t *testing.T) {
	fields := pdf.SampleFields()
	labels := []string{"Signature", "Date", "Initials", "Printed name"}
	if len(fields) != len(labels) {
		t.Fatalf("%d fields, want %d", len(fields), len(labels))
	}
	b := sample(t, 1, "Fields")
	info, err := inspectBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	page := info.Pages[0].CropBox
	for i, f := range fields {
		if f.Label != labels[i] {
			t.Errorf("field %d is %q, want %q", i, f.Label, labels[i])
		}
		if !page.Contains(f.Box.LLX, f.Box.LLY, f.Box.Width(), f.Box.Height()) {
			t.Errorf("field %q %+v lies outside the page", f.Label, f.Box)
		}
		if !bytes.Contains(b, []byte("("+f.Label+") Tj")) {
			t.Errorf("page lacks the label %q", f.Label)
		}
	}
}

func TestSampleTreeErrors(t *testing.T) {
	deep := pdf.SampleNode{}
	for range 100 {
		deep = pdf.SampleNode{Kids: []pdf.SampleNode{deep}}
	}
	if _, err := pdf.SampleTree(deep, ""); err == nil {
		t.Error("SampleTree accepted a tree 100 levels deep")
	}
}

func TestInspectSampleFromContext(t *testing.T) {
	// The sample used by the demo must survive a round trip through Inspect
	// with a live context.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	info, err := pdf.Inspect(ctx, bytes.NewReader(sample(t, 2, "Demo")))
	if err != nil || len(info.Pages) != 2 {
		t.Fatalf("Inspect = %d pages, %v", len(info.Pages), err)
	}
}
