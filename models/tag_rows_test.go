package models_test

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// Tag rows go to PostgreSQL as array literals (models/tag_rows.go): every
// value must come back exactly as sent, whatever its characters (quotes,
// backslashes, braces, commas, the word NULL, non-ASCII) or its digits, and
// absent values stay NULL. On SQLite the same test checks the multi-row
// INSERTs.
func TestTagRowsKeepEveryValueExactly(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		tenant := env.NewTenant(t, "Acme")
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "contract")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		actor := p.Actor()
		awkward := []string{`NULL`, `a"b`, `back\slash\\`, `{x,y}`, `"`, `\`, ``, `élan ✓ 中文`, `,`, ` spaced `}
		type obj = map[string]any
		var tags []obj
		for i, s := range awkward {
			tag := obj{
				"type": "SIGNATURETEMPLATE", "x": []float64{0.1, 1e-7, 72, 123.456789012345, 499.99999999999994, 0, 300.5, 2.5e-300, 551.8749999999999, 36}[i],
				"y": 36 + float64(i), "width": 60.125, "height": 20, "signerId": "p1", "page": 1 + i%3,
				"customData": obj{"label": s, "n": i},
			}
			if i%2 == 0 {
				tag["required"] = i%4 == 0
				tag["stateFormat"] = s
				tag["fontSize"] = 10.5 + float64(i)
			}
			if i%3 == 0 {
				tag["type"], tag["dateFormat"] = "DATETEMPLATE", "MM/DD/YYYY"
			}
			tags = append(tags, tag)
		}
		body, err := json.Marshal(obj{
			"status": "draft", "referenceId": "arrays",
			"documents": []obj{
				{"id": doc.ID, "gcsRefId": doc.ObjectKey, "title": "One", "sessionType": "esign", "type": "acknowledgment", "pages": 3, "tags": tags},
				{"id": doc.ID, "gcsRefId": doc.ObjectKey, "title": "Two", "sessionType": "esign", "type": "acknowledgment", "pages": 3, "tags": tags[:3]},
				{"id": doc.ID, "gcsRefId": doc.ObjectKey, "title": "Three", "sessionType": "esign", "type": "acknowledgment", "pages": 3, "tags": []obj{}},
			},
			"participants": []obj{{"id": "p1", "email": "pat@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		in, err := models.ParseTransactionInput(body)
		if err != nil {
			t.Fatal(err)
		}
		created, err := env.Store.CreateTransaction(ctx, actor, in)
		if err != nil {
			t.Fatal(err)
		}
		replaced, err := env.Store.ReplaceTransaction(ctx, actor, created.ID, in, "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := env.Store.GetTransaction(ctx, tenant.Org.ID, created.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Documents) != 3 || len(got.Documents[0].Tags) != len(awkward) || len(got.Documents[1].Tags) != 3 || len(got.Documents[2].Tags) != 0 {
			t.Fatalf("documents and tags read back: %d documents", len(got.Documents))
		}
		for d := range replaced.Documents {
			for i, want := range replaced.Documents[d].Tags {
				have := got.Documents[d].Tags[i]
				if math.Signbit(have.X) != math.Signbit(want.X) || !reflect.DeepEqual(have, want) {
					t.Errorf("document %d tag %d:\n got %+v\nwant %+v", d, i, have, want)
				}
			}
		}
		var label struct{ Label string }
		if err := json.Unmarshal(got.Documents[0].Tags[1].CustomData, &label); err != nil || label.Label != `a"b` {
			t.Errorf("custom data %s (%v)", got.Documents[0].Tags[1].CustomData, err)
		}
		if got.Documents[0].Tags[1].Required != nil || got.Documents[0].Tags[1].StateFormat != nil || got.Documents[0].Tags[1].FontSize != nil {
			t.Errorf("absent values came back: %+v", got.Documents[0].Tags[1])
		}
	})
}
