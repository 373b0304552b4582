package models_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// TestConcurrentTemplateCreationsKeepTheLimit sends more creations at once
// than the organization has room for: exactly the room is used, the rest are
// refused with too_many_templates, and nothing else fails.
func TestConcurrentTemplateCreationsKeepTheLimit(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "contract")
		const limit, tries = 3, 8
		store := models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, MaxTemplates: limit})
		body := []byte(`{"name": "Lease", "documents": [{"document": "` + doc.ID + `"}], "roles": [{"name": "Tenant"}],
			"tags": [{"type": "SIGNATURETEMPLATE", "x": 72, "y": 72, "width": 144, "height": 36, "role": "Tenant", "document": 0, "customData": {}, "page": 1}]}`)
		in, err := models.ParseTemplateInput(body)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, tries)
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = store.CreateTemplate(ctx, p.TemplateActor(), in)
			}()
		}
		wg.Wait()
		created := 0
		for _, err := range errs {
			var ve *models.ValidationError
			switch {
			case err == nil:
				created++
			case errors.As(err, &ve) && ve.Errors[0].Code == "too_many_templates":
			default:
				t.Fatalf("creation failed: %v", err)
			}
		}
		page, err := store.ListTemplates(ctx, tenant.Org.ID, models.TemplateFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != created || created != limit {
			t.Fatalf("%d creations succeeded and %d templates are listed; the limit is %d", created, len(page.Items), limit)
		}
	})
}
