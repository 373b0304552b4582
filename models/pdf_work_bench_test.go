package models_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// BenchmarkPDFWork times the store's PDF work end to end as a request pays
// for it: a 50-page document with text tags read and detected on upload,
// and a room's page move (the stored PDF rewritten, read again and saved).
// With the PDF workers (docs/decisions.md, "PDF workers") each is one job
// in a warm worker; compare with the same benchmark of the commit before.
func BenchmarkPDFWork(b *testing.B) {
	env := modelstest.New(b, models.DialectSQLite)
	ctx := context.Background()
	fifty := fiftyPages()
	b.Run("detect-50-pages", func(b *testing.B) {
		for b.Loop() {
			u, err := env.Store.StageUpload(ctx, bytes.NewReader(fifty), int64(len(fifty)), "fifty.pdf")
			if err != nil {
				b.Fatal(err)
			}
			if u.DetectedTags() != 50 {
				b.Fatalf("%d tags detected, want 50", u.DetectedTags())
			}
			_ = u.Close()
		}
	})
	b.Run("page-move", func(b *testing.B) {
		tenant := env.NewTenant(b, "Acme")
		d := env.UploadPDF(b, tenant.Org.ID, pdftest.ThreePages(b), "three")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			b.Fatal(err)
		}
		in, err := models.ParseRoomInput([]byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `", "documents": ["` + d.ID +
			`"], "participants": [{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"}]}`))
		if err != nil {
			b.Fatal(err)
		}
		created, err := env.Store.CreateRoom(ctx, p.Actor(), in)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := env.Store.MoveRoomPage(ctx, created.Room.ID, 0, 1, 3, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// fiftyPages is a 50-page Letter document, a paragraph and one text tag a page.
func fiftyPages() []byte {
	pages := make([]pdftest.TextPage, 50)
	for i := range pages {
		pages[i] = pdftest.TextPage{Width: 612, Height: 792, Texts: []pdftest.PlacedText{
			{X: 72, Y: 700, Size: 12, Text: fmt.Sprintf("Section %d. The parties agree to the terms set out on this page.", i+1)},
			{X: 72, Y: 680, Size: 12, Text: "Each party has read the agreement and signs it below of its own free will."},
			{X: 72, Y: 120, Size: 12, Text: "{{signature|1}}"},
		}}
	}
	return pdftest.TextPDF(pages)
}
