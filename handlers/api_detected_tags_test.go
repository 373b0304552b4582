package handlers_test

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// The upload answers how many tags the PDF proposes, GET …/detected-tags
// lists them (as the detector finds them in the same bytes, in the shape the
// OpenAPI document gives: the contract check runs on every answer), and
// another organization's token gets a 404.
func TestDetectedTagsOfAnUpload(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		var doc pdftest.CorpusDoc
		for _, d := range pdftest.Corpus() {
			if d.Name == "text-tags-malformed" {
				doc = d
			}
		}
		want, err := detect.Detect(context.Background(), pdf.DefaultLimits(), doc.PDF)
		if err != nil || len(want.Tags) == 0 || len(want.Problems) == 0 {
			t.Fatalf("the corpus file has %d tags and %d problems (%v)", len(want.Tags), len(want.Problems), err)
		}

		var up struct {
			ID           string `json:"id"`
			DetectedTags *int   `json:"detectedTags"`
		}
		s.do(uploadReq(tenant.Token, "tags.pdf", doc.PDF, "")).status(http.StatusCreated).json(&up)
		if up.DetectedTags == nil || *up.DetectedTags != len(want.Tags) {
			t.Fatalf("upload answered detectedTags %v, want %d", up.DetectedTags, len(want.Tags))
		}
		var got apiDetection
		s.do(api(http.MethodGet, "/api/v1/documents/"+up.ID+"/detected-tags", tenant.Token, nil)).status(http.StatusOK).json(&got)
		if !reflect.DeepEqual(got.Tags, want.Tags) || len(got.Problems) != len(want.Problems) {
			t.Fatalf("detected tags:\n got %+v\nwant %+v", got, want)
		}
		// Each problem in English, byte for byte the details the API always gave.
		details := []string{
			`The signer "0" is not a participant position from 1 to 100.`,
			`"autograph" is not a tag type.`,
			`"XX/YY" is not an option (optional, a date format, w=, h=, font=).`,
			`A SIGNATURETEMPLATE tag takes no date format.`,
			`w=wide is not a size in points above 0 and at most 14400.`,
			`font=0 is not a font size above 0 and at most 200.`,
			`The option "required" is given twice.`,
			`The tag names no type.`,
			`The tag opens with {{ but does not close with }} on the same line.`,
		}
		for i, p := range got.Problems {
			w := want.Problems[i]
			if p.Page != w.Page || p.Text != w.Text || p.Code != w.Code || i >= len(details) || p.Detail != details[i] {
				t.Errorf("problem %d: %+v, want %+v with detail %q", i, p, w, details[min(i, len(details)-1)])
			}
		}
		s.do(api(http.MethodGet, "/api/v1/documents/"+up.ID+"/detected-tags", other.Token, nil)).status(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/documents/"+up.ID+"/detected-tags", "", nil)).status(http.StatusUnauthorized)

		// A document's plain read does not carry the count (only the upload's answer does).
		var plain map[string]any
		s.do(api(http.MethodGet, "/api/v1/documents/"+up.ID, tenant.Token, nil)).status(http.StatusOK).json(&plain)
		if _, ok := plain["detectedTags"]; ok {
			t.Fatalf("GET document carries detectedTags: %v", plain)
		}
	})
}
