package detect

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
)

func TestParseTextTag(t *testing.T) {
	one, two := 1, 2
	for _, c := range []struct {
		in   string
		want textTag
		code string
	}{
		{"signature|1", textTag{typ: tagtype.Signature, signer: &one, required: true}, ""},
		{"date|2|MM/DD/YYYY", textTag{typ: tagtype.Date, signer: &two, required: true, dateFormat: "MM/DD/YYYY"}, ""},
		{"date|2|mm/dd/yyyy", textTag{typ: tagtype.Date, signer: &two, required: true, dateFormat: "MM/DD/YYYY"}, ""},
		{"initials|1|optional", textTag{typ: tagtype.Initials, signer: &one, required: false}, ""},
		{"notary-seal", textTag{typ: tagtype.Seal, required: true}, ""},
		{" Notary-Seal ", textTag{typ: tagtype.Seal, required: true}, ""},
		{"text|1|w=200|h=18", textTag{typ: tagtype.FreeText, signer: &one, required: true, w: 200, h: 18}, ""},
		{"SignatureTemplate|", textTag{typ: tagtype.Signature, required: true}, ""},
		{"full-name||font=12", textTag{typ: tagtype.FullName, required: true, fontSize: 12}, ""},
		{"commission-expiration|1|MMMM do, yyyy|required", textTag{typ: tagtype.CommissionExpiration, signer: &one, required: true, dateFormat: "MMMM do, yyyy"}, ""},
		{"date|1|yyyy", textTag{typ: tagtype.Date, signer: &one, required: true, dateFormat: "yyyy"}, ""},
		{"", textTag{}, ProblemEmpty},
		{"|1", textTag{}, ProblemEmpty},
		{"autograph", textTag{}, ProblemUnknownType},
		{"signature|0", textTag{}, ProblemBadSigner},
		{"signature|-1", textTag{}, ProblemBadSigner},
		{"signature|one", textTag{}, ProblemBadSigner},
		{"signature|101", textTag{}, ProblemBadSigner},
		{"date|1|Yyyy", textTag{}, ProblemUnknownOption}, // matches yyyy and YYYY alike
		{"date|1|soon", textTag{}, ProblemUnknownOption},
		{"date|1|x=3", textTag{}, ProblemUnknownOption},
		{"signature|1|MM/DD/YYYY", textTag{}, ProblemDateNotAllowed},
		{"text|1|w=0", textTag{}, ProblemBadSize},
		{"text|1|h=99999", textTag{}, ProblemBadSize},
		{"text|1|w=", textTag{}, ProblemBadSize},
		{"text|1|font=201", textTag{}, ProblemBadFontSize},
		{"date|1|optional|required", textTag{}, ProblemDuplicate},
		{"date|1|w=10|w=20", textTag{}, ProblemDuplicate},
		{"date|1|full|yyyy", textTag{}, ProblemDuplicate},
	} {
		got, code, detail := parseTextTag(c.in)
		if code != c.code {
			t.Errorf("%q: code %q (%+v), want %q", c.in, code, detail, c.code)
			continue
		}
		if code != "" {
			// Every problem but an empty tag names what was wrong.
			if code != ProblemEmpty && detail == (ProblemArgs{}) {
				t.Errorf("%q: no specifics", c.in)
			}
			continue
		}
		if got.typ != c.want.typ || got.required != c.want.required || got.dateFormat != c.want.dateFormat ||
			got.w != c.want.w || got.h != c.want.h || got.fontSize != c.want.fontSize ||
			(got.signer == nil) != (c.want.signer == nil) || (got.signer != nil && *got.signer != *c.want.signer) {
			t.Errorf("%q: %+v, want %+v", c.in, got, c.want)
		}
	}
}

// Only a "{{" that starts the text tag grammar is a tag or a problem: in a
// code listing the braces are text (manuals showed 11 % of them broken tags).
func TestTextTagsInCodeListings(t *testing.T) {
	type found struct{ tags, codes []string }
	for _, c := range []struct {
		line string
		want found
	}{
		{"{{signature|1}}", found{tags: []string{"{{signature|1}}"}}},
		{"{{ Signature | 2 }}", found{tags: []string{"{{ Signature | 2 }}"}}},
		{"{{autograph|1}}", found{codes: []string{ProblemUnknownType}}},
		{"{{sigature}}", found{codes: []string{ProblemUnknownType}}}, // a slip of signature
		{"{{SIGNATURTEMPLATE|1}}", found{codes: []string{ProblemUnknownType}}},
		{"{{ foo|bar }}", found{codes: []string{ProblemUnknownType}}}, // the grammar's own "|"
		{"{{ variable }} {{end}} {{else}}", found{}},
		{"{{}}", found{codes: []string{ProblemEmpty}}},
		{"{{ |1}}", found{codes: []string{ProblemEmpty}}},
		{"Sign: {{signature|1", found{codes: []string{ProblemUnclosed}}},
		{"{{signature {{date|1}}", found{tags: []string{"{{date|1}}"}, codes: []string{ProblemUnclosed}}},
		{"{{sig {{date|1}}", found{tags: []string{"{{date|1}}"}}}, // "sig" is no type word
		{"Sign here {{", found{codes: []string{ProblemUnclosed}}},
		{"{{ .Name }}", found{}},
		{"{{range .Items}}{{.}}{{end}}", found{}},
		{"{{- .Values.image | quote -}}", found{}},
		{"int a[2][2] = {{1, 2}, {3, 4}};", found{}},
		{"{{{raw}}}", found{}},
		{"{{ user.name }} and {{ user_id }}", found{}},
		{"run: echo ${{ matrix.os }}", found{}},
		{"{{#each items}}{{/each}} {{> header}} {{!-- note --}}", found{}},
		{"f\"{{{{value}}}}\"", found{}},
		{"{{ .Name }} then {{initials|1}}", found{tags: []string{"{{initials|1}}"}}},
		{"{{ foo(bar) }} {{date|1", found{codes: []string{ProblemUnclosed}}},
	} {
		run := pdf.TextRun{Text: c.line, Box: pdf.Box{LLX: 72, LLY: 700, URX: 72 + 5*float64(len(c.line)), URY: 710}, Size: 10}
		for range c.line {
			run.Glyphs = append(run.Glyphs, pdf.Box{})
		}
		for i := range run.Glyphs {
			run.Glyphs[i] = pdf.Box{LLX: 72 + 5*float64(i), LLY: 700, URX: 77 + 5*float64(i), URY: 710}
		}
		page := pdf.PageLayout{Page: pdf.Page{MediaBox: pdf.Box{URX: 612, URY: 792}, CropBox: pdf.Box{URX: 612, URY: 792}}}
		f, err := textTags(1, page, []pdf.TextRun{run}, pdf.NewTicker(context.Background()), 100, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got found
		for _, tag := range f.tags {
			got.tags = append(got.tags, tag.Text)
		}
		for _, p := range f.problems {
			got.codes = append(got.codes, p.Code)
		}
		if !slices.Equal(got.tags, c.want.tags) || !slices.Equal(got.codes, c.want.codes) {
			t.Errorf("%q: tags %q, problems %q; want %q, %q", c.line, got.tags, got.codes, c.want.tags, c.want.codes)
		}
	}
}

// A text field is a notary's title only when its name says so; "Title"
// alone is a person's or a document's, free-form text.
func TestFormFieldTitle(t *testing.T) {
	for name, want := range map[string]string{
		"Title":           tagtype.FreeText,
		"title":           tagtype.FreeText,
		"JobTitle":        tagtype.FreeText,
		"document_title":  tagtype.FreeText,
		"NotaryTitle":     tagtype.NotaryTitle,
		"notary_title":    tagtype.NotaryTitle,
		"Notary's Title":  tagtype.NotaryTitle,
		"Title of Notary": tagtype.NotaryTitle,
		"Date":            tagtype.Date,
	} {
		page := pdf.PageLayout{Page: pdf.Page{MediaBox: pdf.Box{URX: 612, URY: 792}, CropBox: pdf.Box{URX: 612, URY: 792}},
			Widgets: []pdf.Widget{{Kind: pdf.WidgetText, Name: name, Box: pdf.Box{LLX: 100, LLY: 100, URX: 260, URY: 118}}}}
		tags := formFields(1, page)
		if len(tags) != 1 || tags[0].Type != want {
			t.Errorf("field %q: %+v, want one %s tag", name, tags, want)
		}
	}
}

func TestNameWords(t *testing.T) {
	for in, want := range map[string]string{
		"BuyerSignDate":      "buyer sign date",
		"signer2_signature":  "signer 2 signature",
		"Date Signed":        "date signed",
		"PrintedName":        "printed name",
		"form1[0].Page1.DOB": "form 1 0 page 1 dob",
		"":                   "",
	} {
		if got := nameWords(in); got != want {
			t.Errorf("nameWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeLabel(t *testing.T) {
	for in, want := range map[string]string{
		"Signature:":        "signature",
		"  Print   Name : ": "print name",
		"Commission No.":    "commission no",
		"(Seal)":            "(seal)",
	} {
		if got := normalizeLabel(in); got != want {
			t.Errorf("normalizeLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLabelRulesMatch(t *testing.T) {
	rules := LabelRules()
	typeOf := func(label string) string {
		r, _ := matchRule(rules, label)
		return r.Type
	}
	for label, want := range map[string]string{
		"Signature":                    tagtype.Signature,
		"Sign here":                    tagtype.Signature,
		"Signed:":                      tagtype.Signature,
		"Buyer's Signature":            tagtype.Signature,
		"Signature of Borrower":        tagtype.Signature,
		"Parent or guardian signature": tagtype.Signature,
		"Notary Public":                tagtype.Signature,
		"Date":                         tagtype.Date,
		"Date of signature":            tagtype.Date,
		"Signature Date":               tagtype.Date,
		"Initials":                     tagtype.Initials,
		"Tenant Initials":              tagtype.Initials,
		"Print Name":                   tagtype.FullName,
		"Printed Name":                 tagtype.FullName,
		"My commission expires:":       tagtype.CommissionExpiration,
		"Commission No.":               tagtype.CommissionID,
		"County of":                    tagtype.NotaryCounty,
		"STATE OF":                     tagtype.NotaryState,
		"(Seal)":                       tagtype.Seal,
		"By:":                          tagtype.Signature,
		"Witness:":                     tagtype.Signature,
		"Date/Time:":                   tagtype.Date,
		"Date and time":                tagtype.Date,
		"Signature of Patient or Legal Representative": tagtype.Signature,
		"Sign:": tagtype.Signature,
		"Sign":  "", // a word of a manual ("sign the package"), not a label
		"sign":  "",
		"This Agreement is signed by the parties": "",
		"Page 2 Signature":                        "",
		"by":                                      "",
		"Title":                                   "",
	} {
		if got := typeOf(label); got != want {
			t.Errorf("%q → %q, want %q", label, got, want)
		}
	}
}

// TestDrawnMatchesPairwise: the de-duplication by cells finds the same
// duplicates as comparing every pair (the way it once did, in quadratic
// time: 98 s for one 22 KB PDF).
func TestDrawnMatchesPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var kept []DetectedTag
	seen := drawn{}
	for range 5000 {
		tag := DetectedTag{Text: []string{"{{a}}", "{{b}}"}[rng.IntN(2)],
			X: float64(rng.IntN(400)) / 10, Y: float64(rng.IntN(400)) / 10, Width: 10 + float64(rng.IntN(30))/10, Height: 5 + float64(rng.IntN(30))/10}
		dup := false
		for _, o := range kept {
			if o.Text == tag.Text && math.Abs(o.X-tag.X) < 1 && math.Abs(o.Y-tag.Y) < 1 && math.Abs(o.Width-tag.Width) < 1 && math.Abs(o.Height-tag.Height) < 1 {
				dup = true
				break
			}
		}
		if seen.add(tag) == dup {
			t.Fatalf("%+v: duplicate %v by pairs, new %v by cells", tag, dup, !dup)
		}
		if !dup {
			kept = append(kept, tag)
		}
	}
	if len(kept) < 100 || len(kept) > 4900 {
		t.Errorf("%d kept: the test does not test much", len(kept))
	}
}
