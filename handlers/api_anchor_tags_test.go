package handlers_test

import (
	"net/http"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// A PUT with anchorTags stores ordinary tags (beside the listed ones) and
// answers without anchors; an anchor that does not occur is a 422 pointing at
// it, and nothing changes. The contract check validates both requests and
// both answers against the OpenAPI document.
func TestAnchorTagsThroughTheAPI(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		d := s.upload(tenant.Token)
		created, _ := s.create(tenant.Token, txPayload(d, "anchors"))
		path := "/api/v1/transactions/" + created["id"].(string)

		body := txPayload(d, "anchors")
		doc := body["documents"].(arr)[0].(obj)
		doc["anchorTags"] = arr{obj{"anchor": "Signature", "type": "SIGNATURETEMPLATE", "signerId": "seller",
			"xOffset": 0, "yOffset": -4, "width": 150, "height": 30, "occurrence": "first", "ifMissing": "error"}}
		var got obj
		s.do(jsonReq(http.MethodPut, path, tenant.Token, body)).status(http.StatusCreated).json(&got)
		gotDoc := got["documents"].(arr)[0].(obj)
		if _, ok := gotDoc["anchorTags"]; ok {
			t.Fatal("the answer echoes anchorTags")
		}
		tags := gotDoc["tags"].(arr)
		if len(tags) != 4 {
			t.Fatalf("%d tags, want the 3 listed and 1 placed", len(tags))
		}
		placed := tags[3].(obj)
		if placed["signerId"] != "seller" || placed["width"] != 150.0 || placed["customData"].(obj)["anchor"] != "Signature" {
			t.Fatalf("placed tag: %v", placed)
		}
		version := got["version"]

		doc["anchorTags"] = arr{obj{"anchor": "Not in this PDF", "type": "DATETEMPLATE", "signerId": "buyer"}}
		p := s.do(jsonReq(http.MethodPut, path, tenant.Token, body)).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/documents/0/anchorTags/0", "anchor_not_found")
		var now obj
		s.do(api(http.MethodGet, path, tenant.Token, nil)).status(http.StatusOK).json(&now)
		if now["version"] != version || len(now["documents"].(arr)[0].(obj)["tags"].(arr)) != 4 {
			t.Fatalf("a refused PUT changed the transaction: version %v → %v", version, now["version"])
		}
	})
}
