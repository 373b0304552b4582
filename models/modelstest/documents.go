package modelstest

import (
	"bytes"
	"context"
	"testing"

	"github.com/markuproom/markuproom/models"
)

// UploadPDF stores content as a document of org, as the upload endpoint would.
func (e *Env) UploadPDF(t testing.TB, orgID int64, content []byte, title string) *models.Document {
	t.Helper()
	ctx := context.Background()
	staged, err := e.Store.StageUpload(ctx, bytes.NewReader(content), int64(len(content))+1, title+".pdf")
	if err != nil {
		t.Fatalf("stage upload: %v", err)
	}
	defer staged.Close()
	doc, err := e.Store.SaveDocument(ctx, staged, models.NewDocument{OrganizationID: orgID, Title: title})
	if err != nil {
		t.Fatalf("save upload: %v", err)
	}
	return doc
}
