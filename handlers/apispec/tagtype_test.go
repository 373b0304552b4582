package apispec

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/markuproom/markuproom/models/tagtype"
)

// The TagType enum of openapi.yaml is the catalog of models/tagtype: adding a
// type is one row there and one value here, and a type in only one of them
// fails this test.
func TestTagTypeEnumIsTheCatalog(t *testing.T) {
	data, err := JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				TagType struct {
					Enum []string `json:"enum"`
				} `json:"TagType"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	enum, codes := slices.Sorted(slices.Values(doc.Components.Schemas.TagType.Enum)), slices.Sorted(slices.Values(tagtype.Codes()))
	if !slices.Equal(enum, codes) {
		t.Errorf("the TagType enum of openapi.yaml is\n%v\nmodels/tagtype lists\n%v", enum, codes)
	}
}
