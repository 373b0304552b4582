package models_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// stageRoomUpload checks content as the console's form and the command do.
func stageRoomUpload(t *testing.T, env *modelstest.Env, name string) models.RoomUpload {
	t.Helper()
	content := pdftest.ThreePages(t)
	staged, err := env.Store.StageUpload(context.Background(), bytes.NewReader(content), int64(len(content))+1, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = staged.Close() })
	return models.RoomUpload{File: staged}
}

// bucketKeys lists the bucket's objects.
func bucketKeys(t *testing.T, env *modelstest.Env) []string {
	t.Helper()
	var keys []string
	it := env.Bucket.List(nil)
	for {
		obj, err := it.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return keys
		}
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, obj.Key)
	}
}

func TestRoomFormIsCheckedLikeOperationB(t *testing.T) {
	t.Parallel()
	form := models.RoomForm{SenderID: "7", Config: models.DefaultRoomConfig(), Participants: []models.RoomParticipantInput{
		{FirstName: "Pat", LastName: "Buyer", Email: "pat@example"},
		{FirstName: "Robin", LastName: "Seller", Email: "robin@example.com"},
		{FirstName: "Robin", LastName: "Again", Email: "ROBIN@example.com"},
	}}
	_, err := form.Input()
	var ve *models.ValidationError
	if !errors.As(err, &ve) || ve.Kind != models.KindInvalid {
		t.Fatalf("Input() = %v", err)
	}
	got := map[string]string{}
	for _, fe := range ve.Errors {
		got[fe.Pointer] = fe.Code
	}
	if got["#/participants/0/email"] == "" || got["#/participants/2/email"] != "duplicate_email" || len(got) != 2 {
		t.Fatalf("problems %v", got)
	}
	form.Participants = form.Participants[1:2]
	form.Documents, form.TemplateID = []string{"doc-1"}, "tpl-1"
	in, err := form.Input()
	if err != nil || in.SenderID != "7" || len(in.Participants) != 1 || in.Documents[0] != "doc-1" || in.TemplateID != "tpl-1" || !in.Config.IDV.KBA {
		t.Fatalf("Input() = %+v, %v", in, err)
	}
}

func TestCreateRoomWithUploadsIsOneTransaction(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Globex")
		picked := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "Picked")
		foreign := env.UploadPDF(t, other.Org.ID, pdftest.ThreePages(t), "Foreign")
		actor := models.OperatorRoomActor(tenant.Org.ID)
		input := func(docs ...string) *models.RoomInput {
			in, err := models.RoomForm{SenderID: strconv.FormatInt(tenant.Sender.ID, 10), Config: models.DefaultRoomConfig(), Documents: docs,
				Participants: []models.RoomParticipantInput{{FirstName: "Pat", LastName: "Buyer", Email: "pat@example.com"}}}.Input()
			if err != nil {
				t.Fatal(err)
			}
			return in
		}
		keys := len(bucketKeys(t, env))

		// Refused (another organization's document): neither the upload's row nor its file stays.
		_, err := env.Store.CreateRoomWithUploads(ctx, actor, input(foreign.ID), []models.RoomUpload{stageRoomUpload(t, env, "Addendum.pdf")})
		var ve *models.ValidationError
		if !errors.As(err, &ve) || ve.Errors[0].Pointer != "#/documents/0" || ve.Errors[0].Code != "unknown_document" {
			t.Fatalf("refused room: %v", err)
		}
		var docs int64
		env.DB.DB.Model(&models.Document{}).Where("organization_id = ?", tenant.Org.ID).Count(&docs)
		if docs != 1 || len(bucketKeys(t, env)) != keys {
			t.Fatalf("a refused room left %d documents and %d files (before: 1, %d)", docs, len(bucketKeys(t, env)), keys)
		}

		created, err := env.Store.CreateRoomWithUploads(ctx, actor, input(picked.ID), []models.RoomUpload{stageRoomUpload(t, env, "Addendum.pdf")})
		if err != nil {
			t.Fatal(err)
		}
		tx, err := env.Store.GetTransaction(ctx, tenant.Org.ID, created.Room.TransactionID)
		if err != nil {
			t.Fatal(err)
		}
		if len(tx.Documents) != 2 || tx.Documents[0].DocumentID != picked.ID || tx.Documents[1].Title != "Addendum" || created.Token == "" {
			t.Fatalf("room transaction %+v", tx.Documents)
		}
		recent, err := env.Store.RecentDocuments(ctx, tenant.Org.ID, 20)
		if err != nil || len(recent) != 2 || recent[0].Title != "Addendum" || recent[1].ID != picked.ID || recent[0].PageCount != 3 {
			t.Fatalf("recent documents %+v, %v", recent, err)
		}
	})
}

func TestRoomSendersLeaveOutDisabledUsers(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		gone, err := env.Store.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "gone@acme.example", FirstName: "Ada", LastName: "Gone"})
		if err != nil {
			t.Fatal(err)
		}
		if err := env.Store.DisableUser(ctx, tenant.Org.ID, gone.ID); err != nil {
			t.Fatal(err)
		}
		env.NewTenant(t, "Globex")
		senders, err := env.Store.RoomSenders(ctx, tenant.Org.ID)
		if err != nil || len(senders) != 1 || senders[0].ID != tenant.Sender.ID {
			t.Fatalf("senders %+v, %v", senders, err)
		}
	})
}
