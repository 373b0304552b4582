package models_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
)

// BenchmarkApplyRoomTemplate times Store.ApplyRoomTemplate placing a
// template of 500 tags over 50 pages on a room's document of 50 pages (the
// template read, the pages matched, one tag batch written with the
// document's XFDF, the use counted), on SQLite and, with TEST_DATABASE_URL,
// on PostgreSQL (docs/benchmarks.md, "Templates": the aim is under 50 ms of
// server time on PostgreSQL). The tags are deleted again between
// iterations, off the clock. Besides ns/op it reports the SQL statements of
// one apply (BEGIN/COMMIT not included), a figure the machine's load does
// not move.
func BenchmarkApplyRoomTemplate(b *testing.B) {
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
			content, err := pdf.Sample(pages, "Lease")
			if err != nil {
				b.Fatal(err)
			}
			doc := env.UploadPDF(b, tenant.Org.ID, content, "Lease")
			in := &models.TemplateInput{Name: "Lease", Documents: []models.TemplateDocumentInput{{Ref: doc.ID, RefField: "document"}},
				Roles: []models.TemplateRole{{Name: "Buyer"}, {Name: "Seller"}}}
			types := []string{"SIGNATURETEMPLATE", "DATETEMPLATE", "FULLNAMETEMPLATE", "INITIALSTEMPLATE", "TEXTANNOT"}
			for i := range tags {
				role := [...]string{"Buyer", "Seller"}[i%2]
				in.Tags = append(in.Tags, models.TemplateTag{Type: types[i%len(types)], X: 72 + float64(i%10)*40, Y: 100 + float64(i%10)*50,
					Width: 36, Height: 20, Role: role, Page: 1 + i%pages, CustomData: []byte("{}")})
			}
			t, err := env.Store.CreateTemplate(ctx, p.TemplateActor(), in)
			if err != nil {
				b.Fatal(err)
			}
			body := fmt.Sprintf(`{"senderId": %q, "documents": [%q], "config": {"documents": {"detectTags": false}},
				"participants": [{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"},
				{"firstName": "Robin", "lastName": "Seller", "email": "robin@example.com"}]}`, strconv.FormatInt(tenant.Sender.ID, 10), doc.ID)
			rin, err := models.ParseRoomInput([]byte(body))
			if err != nil {
				b.Fatal(err)
			}
			room, err := env.Store.CreateRoom(ctx, p.Actor(), rin)
			if err != nil {
				b.Fatal(err)
			}
			tx, err := env.Store.GetTransaction(ctx, tenant.Org.ID, room.Room.TransactionID)
			if err != nil {
				b.Fatal(err)
			}
			apply := &models.RoomTemplateApply{TemplateID: t.ID, Roles: []models.RoleHolder{
				{Role: "Buyer", ParticipantID: tx.Participants[0].ParticipantID}, {Role: "Seller", ParticipantID: tx.Participants[1].ParticipantID}}}
			statements := benchCountStatements(b, env.DB.DB)
			var applied int64
			b.ReportAllocs()
			for b.Loop() {
				before := statements.Load()
				a, err := env.Store.ApplyRoomTemplate(ctx, room.Room.ID, apply)
				if err != nil {
					b.Fatal(err)
				}
				applied += statements.Load() - before
				b.StopTimer()
				if len(a.Tags) != tags {
					b.Fatalf("%d tags placed", len(a.Tags))
				}
				del := &models.TagBatch{}
				for _, e := range a.Tags {
					del.Delete = append(del.Delete, e.Tag.TagID)
				}
				if _, err := env.Store.ApplyRoomTagBatch(ctx, room.Room.ID, del); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(applied)/float64(b.N), "gorm_stmts/op")
		})
	}
}
