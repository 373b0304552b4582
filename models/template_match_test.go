package models_test

import (
	"context"
	"errors"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// templateOf is a template body of one document and no tags.
func templateOf(t testing.TB, name string, docIDs ...string) *models.TemplateInput {
	t.Helper()
	docs := ""
	for i, id := range docIDs {
		if i > 0 {
			docs += ", "
		}
		docs += `{"document": "` + id + `"}`
	}
	in, err := models.ParseTemplateInput([]byte(`{"name": "` + name + `", "documents": [` + docs + `], "roles": [{"name": "Buyer"}], "tags": []}`))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// matchedIDs is the template ids of matches, in order.
func matchedIDs(ms []models.TemplateMatch) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.TemplateID
	}
	return out
}

// A template's document keeps its fingerprint, and a new upload of the form
// filled in otherwise is matched by every server instance; another form is
// not; each instance sees every change to the templates (a new version, a
// restore, an archive) on its next match, through the organization's
// templates generation.
func TestTemplateMatchesAcrossInstances(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		p, err := env.Store.AuthenticateAPIToken(ctx, acme.Token)
		if err != nil {
			t.Fatal(err)
		}
		actor := p.TemplateActor()
		second := env.AnotherInstance(t)

		purchase := env.UploadPDF(t, acme.Org.ID, writeForm(purchaseForm, purchaseFillings[0]), "Purchase")
		lease := env.UploadPDF(t, acme.Org.ID, writeForm(leaseForm, leaseFillings[0]), "Lease")
		purchaseAgain := env.UploadPDF(t, acme.Org.ID, writeForm(purchaseForm, purchaseFillings[1]), "Purchase again")
		leaseAgain := env.UploadPDF(t, acme.Org.ID, writeForm(leaseForm, leaseFillings[1]), "Lease again")

		match := func(store *models.Store, orgID int64, docID string) []models.TemplateMatch {
			t.Helper()
			ms, err := store.DocumentTemplateMatches(ctx, orgID, docID)
			if err != nil {
				t.Fatal(err)
			}
			return ms
		}
		// No templates yet: an empty list, on both instances.
		for _, s := range []*models.Store{env.Store, second} {
			if ms := match(s, acme.Org.ID, purchaseAgain.ID); ms == nil || len(ms) != 0 {
				t.Fatalf("no templates: %+v", ms)
			}
		}

		tmpl, err := env.Store.CreateTemplate(ctx, actor, templateOf(t, "Purchase", lease.ID, purchase.ID))
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]*models.Store{"first": env.Store, "second": second} {
			ms := match(s, acme.Org.ID, purchaseAgain.ID)
			if len(ms) != 1 || ms[0].TemplateID != tmpl.ID || ms[0].Name != "Purchase" || ms[0].Version != 1 || ms[0].Document != 1 || ms[0].Score < 0.9 {
				t.Fatalf("%s instance: the purchase agreement filled in otherwise: %+v", name, ms)
			}
			if ms := match(s, acme.Org.ID, leaseAgain.ID); len(ms) != 1 || ms[0].Document != 0 || ms[0].Score < 0.9 {
				t.Fatalf("%s instance: the lease filled in otherwise: %+v", name, ms)
			}
		}

		// A new version holding the purchase agreement only: the lease is
		// no longer matched, on either instance.
		if _, err := env.Store.ReplaceTemplate(ctx, actor, tmpl.ID, templateOf(t, "Purchase only", purchase.ID), ""); err != nil {
			t.Fatal(err)
		}
		if ms := match(second, acme.Org.ID, leaseAgain.ID); len(ms) != 0 {
			t.Fatalf("after the new version, the lease: %+v", ms)
		}
		if ms := match(second, acme.Org.ID, purchaseAgain.ID); len(ms) != 1 || ms[0].Version != 2 || ms[0].Document != 0 || ms[0].Name != "Purchase only" {
			t.Fatalf("after the new version, the purchase agreement: %+v", ms)
		}
		// Version 1 restored (as version 3) on the second instance: its
		// documents keep their fingerprints.
		if _, err := second.RestoreTemplateVersion(ctx, actor, tmpl.ID, 1); err != nil {
			t.Fatal(err)
		}
		if ms := match(env.Store, acme.Org.ID, leaseAgain.ID); len(ms) != 1 || ms[0].Version != 3 || ms[0].Document != 0 {
			t.Fatalf("after the restore, the lease: %+v", ms)
		}

		// The same form is not matched for another organization, nor is
		// this organization's document readable there.
		theirs := env.UploadPDF(t, other.Org.ID, writeForm(purchaseForm, purchaseFillings[2]), "Theirs")
		if ms := match(second, other.Org.ID, theirs.ID); len(ms) != 0 {
			t.Fatalf("another organization's upload: %+v", ms)
		}
		if _, err := second.DocumentTemplateMatches(ctx, other.Org.ID, purchaseAgain.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("another organization's document: %v, want ErrNotFound", err)
		}

		// Archived: listed nowhere.
		if err := env.Store.ArchiveTemplate(ctx, actor, tmpl.ID); err != nil {
			t.Fatal(err)
		}
		if ms := match(second, acme.Org.ID, purchaseAgain.ID); len(ms) != 0 {
			t.Fatalf("after the archive: %+v", ms)
		}
	})
}

// Matches are the best first, at most five, each template once per document
// position; a fingerprint without text (a scan) matches nothing.
func TestTemplateMatchesBestFirstAtMostFive(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		acme := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, acme.Token)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for i := range 6 {
			doc := env.UploadPDF(t, acme.Org.ID, writeForm(purchaseForm, purchaseFillings[i%len(purchaseFillings)]), "Purchase")
			tmpl, err := env.Store.CreateTemplate(ctx, p.TemplateActor(), templateOf(t, "Purchase", doc.ID))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, tmpl.ID)
		}
		staged := writeForm(purchaseForm, purchaseFillings[0])
		doc := env.UploadPDF(t, acme.Org.ID, staged, "Purchase again")
		ms, err := env.Store.DocumentTemplateMatches(ctx, acme.Org.ID, doc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != models.MaxTemplateMatches {
			t.Fatalf("%d matches, want %d: %v", len(ms), models.MaxTemplateMatches, matchedIDs(ms))
		}
		// The two templates of the same filling score 1 and come first.
		if ms[0].Score != 1 || ms[1].Score != 1 || ms[0].TemplateID != ids[0] || ms[1].TemplateID != ids[3] {
			t.Fatalf("best first: %+v", ms)
		}
		for i := 1; i < len(ms); i++ {
			if ms[i].Score > ms[i-1].Score {
				t.Fatalf("not best first: %+v", ms)
			}
		}
	})
}

// A document stored before fingerprints were kept gets one when a template
// names it: read from its PDF, equal to the upload's, and kept.
func TestTemplateFingerprintOfAnOlderDocument(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		acme := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, acme.Token)
		if err != nil {
			t.Fatal(err)
		}
		doc := env.UploadPDF(t, acme.Org.ID, writeForm(purchaseForm, purchaseFillings[0]), "Purchase")
		atUpload := doc.Fingerprint
		if len(atUpload) == 0 {
			t.Fatal("the upload kept no fingerprint")
		}
		if err := env.DB.DB.Exec("UPDATE documents SET fingerprint = NULL WHERE id = ?", doc.ID).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.CreateTemplate(ctx, p.TemplateActor(), templateOf(t, "Purchase", doc.ID)); err != nil {
			t.Fatal(err)
		}
		again, err := env.Store.GetDocument(ctx, acme.Org.ID, doc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if string(again.Fingerprint) != string(atUpload) {
			t.Fatalf("fingerprint read again (%d bytes) differs from the upload's (%d bytes)", len(again.Fingerprint), len(atUpload))
		}
		filled := env.UploadPDF(t, acme.Org.ID, writeForm(purchaseForm, purchaseFillings[2]), "Purchase again")
		ms, err := env.Store.DocumentTemplateMatches(ctx, acme.Org.ID, filled.ID)
		if err != nil || len(ms) != 1 || ms[0].Score < 0.9 {
			t.Fatalf("matches: %+v, %v", ms, err)
		}
	})
}
