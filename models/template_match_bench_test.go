package models_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// officeForm is form i of an office's 1,000: the office's letterhead and
// footer, its own clauses (lower-case words drawn from a vocabulary of
// 2,000, as a form's running text is), and labels with their values drawn
// apart. The same i gives the same form; values change its filling only.
func officeForm(i int, values string) []byte {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	word := func() string {
		n := r.IntN(2000)
		return syllables[n%len(syllables)] + syllables[(n/len(syllables))%len(syllables)] + syllables[n%7]
	}
	texts := []pdftest.PlacedText{
		{X: 72, Y: 750, Size: 12, Text: "LAKESIDE REALTY AND PROPERTY MANAGEMENT"},
		{X: 72, Y: 734, Size: 9, Text: "licensed in every county we serve since the office opened its doors"},
	}
	y := 700.0
	for range 14 {
		var line []string
		for range 12 {
			line = append(line, word())
		}
		texts = append(texts, pdftest.PlacedText{X: 72, Y: y, Size: 10, Text: strings.Join(line, " ")})
		y -= 14
	}
	for j := range 4 {
		texts = append(texts, pdftest.PlacedText{X: 72, Y: y, Size: 10, Text: word() + " " + word() + ":"})
		texts = append(texts, pdftest.PlacedText{X: 90, Y: y - 12, Size: 10, Text: fmt.Sprintf("%s %d", values, j)})
		y -= 30
	}
	texts = append(texts, pdftest.PlacedText{X: 72, Y: 40, Size: 8, Text: "page one of one, initials of every party are required below"})
	return pdftest.TextPDF([]pdftest.TextPage{{Width: 612, Height: 792, Texts: texts}})
}

var syllables = []string{"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "an", "el", "or", "ul", "ve", "di", "ge", "ba",
	"co", "fu", "ha", "ji", "ze", "wo", "qu", "ny", "pe", "sa", "to", "ma", "li", "nu", "re", "se", "de", "fa", "go", "hi", "xo", "yu", "bi", "ci"}

// BenchmarkTemplateMatchUpload times matching an upload's fingerprint
// against the 1,000 templates of its organization (Store.FingerprintTemplateMatches,
// as the upload's answer calls it): "warm" with the organization's index in
// memory (the generation read and the index query), "build" on a new Store
// each time (the index built from the 1,000 fingerprints first). On SQLite
// and, with TEST_DATABASE_URL, on PostgreSQL (docs/benchmarks.md,
// "Templates": the aim is under 20 ms on PostgreSQL).
func BenchmarkTemplateMatchUpload(b *testing.B) {
	for _, dialect := range modelstest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			env := modelstest.New(b, dialect)
			ctx := context.Background()
			tenant := env.NewTenant(b, "Bench")
			p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
			if err != nil {
				b.Fatal(err)
			}
			for i := range models.DefaultMaxTemplates {
				doc := env.UploadPDF(b, tenant.Org.ID, officeForm(i, "__________"), fmt.Sprintf("Form %d", i))
				if _, err := env.Store.CreateTemplate(ctx, p.TemplateActor(), templateOf(b, fmt.Sprintf("Form %d", i), doc.ID)); err != nil {
					b.Fatal(err)
				}
			}
			upload := officeForm(500, "Jonathan A. Whitfield")
			staged, err := env.Store.StageUpload(ctx, bytes.NewReader(upload), int64(len(upload))+1, "form.pdf")
			if err != nil {
				b.Fatal(err)
			}
			fp := staged.Fingerprint()
			_ = staged.Close()
			check := func(b *testing.B, ms []models.TemplateMatch, err error) {
				if err != nil {
					b.Fatal(err)
				}
				if len(ms) != 1 || ms[0].Name != "Form 500" || ms[0].Score < 0.9 {
					b.Fatalf("matches %+v", ms)
				}
			}
			b.Run("warm", func(b *testing.B) {
				ms, err := env.Store.FingerprintTemplateMatches(ctx, tenant.Org.ID, fp) // builds the index
				check(b, ms, err)
				b.ReportAllocs()
				for b.Loop() {
					ms, err := env.Store.FingerprintTemplateMatches(ctx, tenant.Org.ID, fp)
					check(b, ms, err)
				}
			})
			b.Run("build", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					fresh := models.NewStore(env.DB, env.Bucket, models.StoreOptions{})
					ms, err := fresh.FingerprintTemplateMatches(ctx, tenant.Org.ID, fp)
					check(b, ms, err)
				}
			})
		})
	}
}

// BenchmarkRoomFromTemplate times operation B creating a room from a
// template of 500 tags over the 50 pages of its document (no documents in
// the request: the room gets the template's, with its tags placed and its
// two roles mapped to the participants), on SQLite and, with
// TEST_DATABASE_URL, on PostgreSQL (docs/benchmarks.md, "Templates").
func BenchmarkRoomFromTemplate(b *testing.B) {
	const pages, tags = 50, 500
	for _, dialect := range modelstest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			env := modelstest.New(b, dialect)
			ctx := context.Background()
			tenant := env.NewTenant(b, "Bench")
			p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
			if err != nil {
				b.Fatal(err)
			}
			doc := env.UploadPDF(b, tenant.Org.ID, pdftest.BigText(pages), "contract")
			var tagList []string
			roles := []string{"Buyer", "Seller"}
			for i := range tags {
				tagList = append(tagList, fmt.Sprintf(`{"type": "SIGNATURETEMPLATE", "x": %d, "y": %d, "width": 100, "height": 20, "role": %q,
					"document": 0, "customData": {}, "page": %d}`, 50+(i%3)*150, 60+(i/3)%10*60, roles[i%2], 1+i%pages))
			}
			in, err := models.ParseTemplateInput([]byte(`{"name": "Bench", "documents": [{"document": "` + doc.ID + `"}],
				"roles": [{"name": "Buyer"}, {"name": "Seller"}], "tags": [` + strings.Join(tagList, ",") + `]}`))
			if err != nil {
				b.Fatal(err)
			}
			tmpl, err := env.Store.CreateTemplate(ctx, p.TemplateActor(), in)
			if err != nil {
				b.Fatal(err)
			}
			body := []byte(fmt.Sprintf(`{"senderId": "%d", "templateId": %q, "participants": [
				{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"},
				{"firstName": "Robin", "lastName": "Seller", "email": "robin@example.com"}]}`, tenant.Sender.ID, tmpl.ID))
			create := func() *models.CreatedRoom {
				room, err := models.ParseRoomInput(body)
				if err != nil {
					b.Fatal(err)
				}
				created, err := env.Store.CreateRoom(ctx, p.Actor(), room)
				if err != nil {
					b.Fatal(err)
				}
				return created
			}
			first := create()
			tx, err := env.Store.GetTransaction(ctx, tenant.Org.ID, first.Room.TransactionID)
			if err != nil {
				b.Fatal(err)
			}
			if len(tx.Documents) != 1 || len(tx.Documents[0].Tags) != tags || tx.Documents[0].Tags[0].SignerID == "" {
				b.Fatalf("the room's transaction has %d documents, the first with %d tags", len(tx.Documents), len(tx.Documents[0].Tags))
			}
			b.ReportAllocs()
			for b.Loop() {
				create()
			}
			b.ReportMetric(float64(tags*b.N)/b.Elapsed().Seconds(), "tags/s")
		})
	}
}
