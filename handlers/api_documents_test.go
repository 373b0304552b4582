package handlers_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

type uploadedDoc struct {
	ID        string `json:"id"`
	GCSRefID  string `json:"gcsRefId"`
	Location  string `json:"location"`
	Title     string `json:"title"`
	Pages     int    `json:"pages"`
	SizeBytes int64  `json:"sizeBytes"`
	SHA256    string `json:"sha256"`
	PageBoxes []struct {
		Page    int `json:"page"`
		CropBox struct {
			URX float64 `json:"urx"`
			URY float64 `json:"ury"`
		} `json:"cropBox"`
	} `json:"pageBoxes"`
}

// upload stores a 3-page PDF for tenant and returns the API's answer.
func (s *server) upload(token string) uploadedDoc {
	s.t.Helper()
	var d uploadedDoc
	s.do(uploadReq(token, "contract.pdf", pdftest.ThreePages(s.t), "")).status(http.StatusCreated).json(&d)
	return d
}

func TestUploadValidPDFBothWays(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		pdf := pdftest.ThreePages(t)
		sum := sha256.Sum256(pdf)

		var d uploadedDoc
		s.do(uploadReq(tenant.Token, "Sales Contract.pdf", pdf, "")).status(http.StatusCreated).json(&d)
		if d.Pages != 3 || d.Title != "Sales Contract" || d.SizeBytes != int64(len(pdf)) || d.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("multipart upload answered %+v", d)
		}
		if d.ID == "" || d.GCSRefID == "" || d.Location != testBaseURL+"/api/v1/documents/"+d.ID+"/content" {
			t.Fatalf("references: %+v", d)
		}
		if len(d.PageBoxes) != 3 || d.PageBoxes[0].CropBox.URX != 612 || d.PageBoxes[0].CropBox.URY != 792 {
			t.Fatalf("page boxes: %+v", d.PageBoxes)
		}

		req := api(http.MethodPost, "/api/v1/document/upload?title=Raw%20body", tenant.Token, bytes.NewReader(pdf))
		req.Header.Set("Content-Type", "application/pdf")
		var raw uploadedDoc
		s.do(req).status(http.StatusCreated).json(&raw)
		if raw.Pages != 3 || raw.Title != "Raw body" || raw.ID == d.ID {
			t.Fatalf("raw upload answered %+v", raw)
		}

		// Read back: the record and the exact bytes.
		var got uploadedDoc
		s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID, tenant.Token, nil)).status(http.StatusOK).json(&got)
		if got.ID != d.ID || got.Pages != 3 {
			t.Fatalf("GET document: %+v", got)
		}
		content := s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID+"/content", tenant.Token, nil)).status(http.StatusOK)
		if !bytes.Equal(content.Body.Bytes(), pdf) || content.Header().Get("Content-Type") != "application/pdf" {
			t.Fatalf("content differs (%d bytes, %s)", content.Body.Len(), content.Header().Get("Content-Type"))
		}
		rangeReq := api(http.MethodGet, "/api/v1/documents/"+d.ID+"/content", tenant.Token, nil)
		rangeReq.Header.Set("Range", "bytes=0-4")
		if r := s.do(rangeReq).status(http.StatusPartialContent); r.Body.String() != "%PDF-" {
			t.Fatalf("range body %q", r.Body.String())
		}
	})
}

func TestUploadRefusals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withMaxUpload(64<<10))
		tenant := env.NewTenant(t, "Acme")
		cases := []struct {
			name    string
			content []byte
			status  int
			code    string
		}{
			{"not a PDF", pdftest.NotPDF(), http.StatusUnprocessableEntity, "not_pdf"},
			{"truncated", pdftest.Truncated(t), http.StatusUnprocessableEntity, "damaged_pdf"},
			{"needs a password", pdftest.EncryptedWithPassword(t), http.StatusUnprocessableEntity, "password_required"},
			{"empty", []byte{}, http.StatusUnprocessableEntity, "empty_file"},
			{"over the limit", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("x"), 70<<10)...), http.StatusRequestEntityTooLarge, "file_too_large"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := s.do(uploadReq(tenant.Token, "f.pdf", tc.content, "")).problem(tc.status)
				hasError(t, p, "#/file", tc.code)
			})
		}
		t.Run("wrong content type", func(t *testing.T) {
			req := api(http.MethodPost, "/api/v1/documents/upload", tenant.Token, strings.NewReader("hello"))
			req.Header.Set("Content-Type", "text/plain")
			p := s.do(req).problem(http.StatusUnsupportedMediaType)
			hasError(t, p, "header:Content-Type", "unsupported_media_type")
		})
		t.Run("multipart without file", func(t *testing.T) {
			req := uploadReq(tenant.Token, "f.pdf", nil, "x")
			body, _ := io.ReadAll(req.Body)
			body = bytes.Replace(body, []byte(`name="file"`), []byte(`name="other"`), 1)
			req.Body = io.NopCloser(bytes.NewReader(body))
			p := s.do(req).problem(http.StatusBadRequest)
			hasError(t, p, "#/file", "required")
		})
		t.Run("title too long", func(t *testing.T) {
			p := s.do(uploadReq(tenant.Token, "f.pdf", pdftest.ThreePages(t), strings.Repeat("t", 300))).problem(http.StatusBadRequest)
			hasError(t, p, "#/title", "too_long")
		})
	})
}

// The upload's answer says whether the stored file was decrypted and what
// was repaired; size and hash are the stored file's, and a retry with the
// same Idempotency-Key gets the same answer although a decrypted copy is
// written anew each time.
func TestUploadAnswerSaysDecryptedAndRepairs(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		shifted := func(b []byte) []byte { // offsets after the first object wrong
			i := bytes.Index(b, []byte("endobj")) + len("endobj")
			return append(append(bytes.Clone(b[:i]), "\n% not in the table\n"...), b[i:]...)
		}
		type answer struct {
			uploadedDoc
			Decrypted *bool     `json:"decrypted"`
			Repairs   *[]string `json:"repairs"`
		}
		for _, tc := range []struct {
			name      string
			content   []byte
			decrypted bool
			repairs   []string
		}{
			{"ordinary", pdftest.ThreePages(t), false, []string{}},
			{"empty user password", pdftest.Encrypted(t), true, []string{}},
			{"offsets shifted", shifted(pdftest.ThreePages(t)), false, []string{"xref_rebuilt"}},
			{"offsets shifted, empty user password", shifted(pdftest.Encrypted(t)), true, []string{"xref_rebuilt"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				req := uploadReq(tenant.Token, "in.pdf", tc.content, "")
				req.Header.Set("Idempotency-Key", "mend-"+strings.ReplaceAll(tc.name, " ", "-"))
				var a answer
				s.do(req).status(http.StatusCreated).json(&a)
				if a.Decrypted == nil || *a.Decrypted != tc.decrypted || a.Repairs == nil || strings.Join(*a.Repairs, ",") != strings.Join(tc.repairs, ",") {
					t.Fatalf("answer: decrypted %v, repairs %v; want %t, %v", a.Decrypted, a.Repairs, tc.decrypted, tc.repairs)
				}
				content := s.do(api(http.MethodGet, "/api/v1/documents/"+a.ID+"/content", tenant.Token, nil)).status(http.StatusOK).Body.Bytes()
				sum := sha256.Sum256(content)
				if a.SHA256 != hex.EncodeToString(sum[:]) || a.SizeBytes != int64(len(content)) {
					t.Errorf("answer says %d bytes %s; stored %d bytes", a.SizeBytes, a.SHA256, len(content))
				}
				if changed := tc.decrypted || len(tc.repairs) > 0; changed == bytes.Equal(content, tc.content) {
					t.Errorf("stored bytes equal to the upload: %t", !changed)
				}
				retry := uploadReq(tenant.Token, "in.pdf", tc.content, "")
				retry.Header.Set("Idempotency-Key", "mend-"+strings.ReplaceAll(tc.name, " ", "-"))
				var again answer
				s.do(retry).status(http.StatusCreated).json(&again)
				if again.ID != a.ID || again.SHA256 != a.SHA256 {
					t.Errorf("the retry stored %s (%s), the first try %s (%s)", again.ID, again.SHA256, a.ID, a.SHA256)
				}
			})
		}
	})
}

func TestDocumentsAreScopedToTheirOrganization(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "A")
		b := env.NewTenant(t, "B")
		d := s.upload(a.Token)
		s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID, b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID+"/content", b.Token, nil)).problem(http.StatusNotFound)
		s.do(api(http.MethodGet, "/api/v1/documents/"+d.ID, a.Token, nil)).status(http.StatusOK)
	})
}

func pdfBytes(t *testing.T) []byte { return pdftest.ThreePages(t) }

// A repaired or decrypted copy larger than the upload limit is refused as
// an upload too large is (413, the same words), however small the file
// received: the file without its %%EOF is repaired by appending it.
func TestAMendedCopyPastTheUploadLimitIs413(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		whole := pdftest.ThreePages(t)
		cut := bytes.TrimSuffix(bytes.TrimRight(whole, "\r\n"), []byte("%%EOF"))
		if len(cut) == len(whole) {
			t.Fatal("the sample does not end with its end-of-file marker")
		}
		s := newServer(t, env, withMaxUpload(int64(len(cut))))
		tenant := env.NewTenant(t, "Acme")
		p := s.do(uploadReq(tenant.Token, "cut.pdf", cut, "")).problem(http.StatusRequestEntityTooLarge)
		hasError(t, p, "#/file", "file_too_large")
		big := s.do(uploadReq(tenant.Token, "whole.pdf", whole, "")).problem(http.StatusRequestEntityTooLarge)
		if p.Detail != big.Detail {
			t.Errorf("the mended copy's words %q, an upload too large's %q", p.Detail, big.Detail)
		}
	})
}
