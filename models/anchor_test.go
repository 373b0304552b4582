package models_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// anchorBody is a transaction on doc with one listed tag and the given anchors.
func anchorBody(t *testing.T, doc *models.Document, anchors ...map[string]any) *models.TransactionInput {
	t.Helper()
	body, _ := json.Marshal(map[string]any{
		"status": "draft", "referenceId": "anchors",
		"documents": []map[string]any{{
			"id": doc.ID, "gcsRefId": doc.ObjectKey, "title": "Agreement", "sessionType": "esign", "type": "acknowledgment",
			"tags":       []map[string]any{{"type": "INITIALSTEMPLATE", "x": 10, "y": 10, "width": 40, "height": 20, "signerId": "p1", "customData": map[string]any{}, "page": 1}},
			"anchorTags": anchors,
		}},
		"participants": []map[string]any{
			{"id": "p1", "email": "pat@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"},
		},
	})
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return in
}

// Anchors become ordinary tags at the bottom-left corner of each occurrence
// plus the offsets, beside the listed tags, with customData naming the
// anchor; the stored transaction holds no anchors. Occurrence, wholeWord and
// ifMissing choose what is placed; a missing anchor or a tag off its page is
// a 422 naming the anchor.
func TestAnchorTagsAreExpandedIntoTags(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		content := pdftest.ThreePages(t)
		doc := env.UploadPDF(t, tenant.Org.ID, content, "Agreement")
		lay, err := pdf.ReadLayout(ctx, content)
		if err != nil {
			t.Fatal(err)
		}
		occ := detect.FindText(lay, "Signature", false, true)
		if len(occ) < 3 || occ[len(occ)-1].Page != 3 {
			t.Fatalf("the sample has %d occurrences of Signature, want some on each page", len(occ))
		}
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		actor := p.Actor()
		create := func(anchors ...map[string]any) (*models.Transaction, error) {
			return env.Store.CreateTransaction(ctx, actor, anchorBody(t, doc, anchors...))
		}

		tx, err := create(map[string]any{"anchor": "signature", "type": "SIGNATURETEMPLATE", "signerId": "p1",
			"xOffset": 0, "yOffset": -4, "width": 150, "height": 30})
		if err != nil {
			t.Fatal(err)
		}
		got, err := env.Store.GetTransaction(ctx, tenant.Org.ID, tx.ID)
		if err != nil {
			t.Fatal(err)
		}
		tags := got.Documents[0].Tags
		if len(tags) != 1+len(occ) || tags[0].Type != "INITIALSTEMPLATE" {
			t.Fatalf("%d tags, want the listed one then %d placed: %+v", len(tags), len(occ), tags)
		}
		for k, tag := range tags[1:] {
			m := occ[k]
			if tag.Page != m.Page || math.Abs(tag.X-m.Box.LLX) > 0.001 || math.Abs(tag.Y-(m.Box.LLY-4)) > 0.001 || tag.Width != 150 || tag.Height != 30 {
				t.Fatalf("tag %d: %+v, want page %d at (%v, %v-4)", k, tag, m.Page, m.Box.LLX, m.Box.LLY)
			}
			var cd struct {
				Anchor     string `json:"anchor"`
				Occurrence int    `json:"anchorOccurrence"`
			}
			if err := json.Unmarshal(tag.CustomData, &cd); err != nil || cd.Anchor != "signature" || cd.Occurrence != k+1 {
				t.Fatalf("tag %d customData %s", k, tag.CustomData)
			}
		}

		// The second occurrence only, at the type's default size; "first".
		for occurrence, page := range map[any]int{len(occ): occ[len(occ)-1].Page, "first": occ[0].Page} {
			tx, err := create(map[string]any{"anchor": "Signature", "type": "SIGNATURETEMPLATE", "signerId": "p1", "occurrence": occurrence})
			if err != nil {
				t.Fatal(err)
			}
			if ts := tx.Documents[0].Tags; len(ts) != 2 || ts[1].Page != page || ts[1].Width != 144 || ts[1].Height != 36 {
				t.Fatalf("occurrence %v: %+v", occurrence, ts)
			}
		}
		// Whole words by default; a part of a word when asked.
		if _, err := create(map[string]any{"anchor": "Signat", "type": "SIGNATURETEMPLATE", "signerId": "p1", "ifMissing": "ignore"}); err != nil {
			t.Fatal(err)
		}
		tx, err = create(map[string]any{"anchor": "Signat", "type": "SIGNATURETEMPLATE", "signerId": "p1", "wholeWord": false, "caseSensitive": true})
		if part := detect.FindText(lay, "Signat", true, false); err != nil || len(part) == 0 || len(tx.Documents[0].Tags) != 1+len(part) {
			t.Fatalf("part of a word: %d tags for %d occurrences (%v)", len(tx.Documents[0].Tags), len(part), err)
		}

		// Refusals name the anchor.
		for name, c := range map[string]struct {
			anchor map[string]any
			code   string
		}{
			"missing":        {map[string]any{"anchor": "Nowhere to be found", "type": "DATETEMPLATE", "signerId": "p1"}, "anchor_not_found"},
			"one too many":   {map[string]any{"anchor": "Signature", "type": "DATETEMPLATE", "signerId": "p1", "occurrence": len(occ) + 1}, "anchor_not_found"},
			"case-sensitive": {map[string]any{"anchor": "SIGNATURE", "type": "DATETEMPLATE", "signerId": "p1", "caseSensitive": true}, "anchor_not_found"},
			"off the page":   {map[string]any{"anchor": "Signature", "type": "DATETEMPLATE", "signerId": "p1", "yOffset": -5000}, "anchor_tag_off_page"},
		} {
			_, err := create(map[string]any{"anchor": "Signature", "type": "SIGNATURETEMPLATE", "signerId": "p1"}, c.anchor)
			var ve *models.ValidationError
			if !errors.As(err, &ve) || ve.Kind != models.KindUnprocessable || len(ve.Errors) != 1 ||
				ve.Errors[0].Pointer != "#/documents/0/anchorTags/1" || ve.Errors[0].Code != c.code {
				t.Fatalf("%s: %v", name, err)
			}
		}
		// An unknown signer in an anchor is refused like a listed tag's.
		if _, err := create(map[string]any{"anchor": "Signature", "type": "SIGNATURETEMPLATE", "signerId": "p9"}); err == nil {
			t.Fatal("an anchor for an unknown participant was accepted")
		}
	})
}

// Malformed anchors are 400s naming the field, like any other body problem.
func TestAnchorTagsAreValidated(t *testing.T) {
	t.Parallel()
	body := func(anchor map[string]any) []byte {
		b, _ := json.Marshal(map[string]any{"status": "draft", "referenceId": "r", "participants": []any{}, "documents": []map[string]any{{
			"gcsRefId": "x", "title": "T", "sessionType": "esign", "type": "acknowledgment", "tags": []any{}, "anchorTags": []any{anchor},
		}}})
		return b
	}
	for name, c := range map[string]struct {
		anchor  map[string]any
		pointer string
	}{
		"no anchor":        {map[string]any{"type": "DATETEMPLATE", "signerId": "p1"}, "#/documents/0/anchorTags/0/anchor"},
		"blank anchor":     {map[string]any{"anchor": "  ", "type": "DATETEMPLATE", "signerId": "p1"}, "#/documents/0/anchorTags/0/anchor"},
		"long anchor":      {map[string]any{"anchor": string(bytes.Repeat([]byte("a"), models.MaxAnchorLength+1)), "type": "DATETEMPLATE", "signerId": "p1"}, "#/documents/0/anchorTags/0/anchor"},
		"bad type":         {map[string]any{"anchor": "a", "type": "NOPE", "signerId": "p1"}, "#/documents/0/anchorTags/0/type"},
		"bad occurrence":   {map[string]any{"anchor": "a", "type": "DATETEMPLATE", "signerId": "p1", "occurrence": "last"}, "#/documents/0/anchorTags/0/occurrence"},
		"zero occurrence":  {map[string]any{"anchor": "a", "type": "DATETEMPLATE", "signerId": "p1", "occurrence": 0}, "#/documents/0/anchorTags/0/occurrence"},
		"bad ifMissing":    {map[string]any{"anchor": "a", "type": "DATETEMPLATE", "signerId": "p1", "ifMissing": "warn"}, "#/documents/0/anchorTags/0/ifMissing"},
		"zero width":       {map[string]any{"anchor": "a", "type": "DATETEMPLATE", "signerId": "p1", "width": 0}, "#/documents/0/anchorTags/0/width"},
		"unknown field":    {map[string]any{"anchor": "a", "type": "DATETEMPLATE", "signerId": "p1", "anchorUnits": "pixels"}, "#/documents/0/anchorTags/0/anchorUnits"},
		"offset not a num": {map[string]any{"anchor": "a", "type": "DATETEMPLATE", "signerId": "p1", "xOffset": "3"}, "#/documents/0/anchorTags/0/xOffset"},
	} {
		_, err := models.ParseTransactionInput(body(c.anchor))
		var ve *models.ValidationError
		if !errors.As(err, &ve) || ve.Kind != models.KindInvalid {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, fe := range ve.Errors {
			found = found || fe.Pointer == c.pointer
		}
		if !found {
			t.Fatalf("%s: %+v, want a problem at %s", name, ve.Errors, c.pointer)
		}
	}
}

// A request listing one document many times, each time with the most
// anchors, is refused past the search budget with one problem naming the
// listing that crosses it (the document is read once, not per listing); the
// same anchors on one listing are searched.
func TestAnchorSearchHasABudget(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.BigText(40), "Terms")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		request := func(listings int) *models.TransactionInput {
			anchors := make([]map[string]any, models.MaxAnchorTags)
			for i := range anchors {
				anchors[i] = map[string]any{"anchor": fmt.Sprintf("Clause %d.1:", i+1), "type": "INITIALSTEMPLATE", "signerId": "p1",
					"xOffset": -20, "width": 16, "height": 10, "ifMissing": "ignore"}
			}
			docs := make([]map[string]any, listings)
			for i := range docs {
				docs[i] = map[string]any{"gcsRefId": doc.ObjectKey, "title": fmt.Sprint("Terms ", i), "sessionType": "esign",
					"type": "acknowledgment", "tags": []any{}, "anchorTags": anchors}
			}
			body, _ := json.Marshal(map[string]any{"status": "draft", "referenceId": "budget", "documents": docs,
				"participants": []map[string]any{{"id": "p1", "email": "pat@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"}}})
			in, err := models.ParseTransactionInput(body)
			if err != nil {
				t.Fatal(err)
			}
			return in
		}

		_, err = env.Store.CreateTransaction(ctx, p.Actor(), request(models.MaxDocuments))
		var ve *models.ValidationError
		if !errors.As(err, &ve) || ve.Kind != models.KindUnprocessable || len(ve.Errors) != 1 || ve.Errors[0].Code != "anchor_search_too_large" ||
			!strings.HasPrefix(ve.Errors[0].Pointer, "#/documents/") || !strings.HasSuffix(ve.Errors[0].Pointer, "/anchorTags") {
			t.Fatalf("got %v, want one anchor_search_too_large at a listing's anchorTags", err)
		}
		tx, err := env.Store.CreateTransaction(ctx, p.Actor(), request(1))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(tx.Documents[0].Tags); n != 40 {
			t.Fatalf("%d tags placed, want one per page (clauses 1.1 to 40.1)", n)
		}
	})
}
