package handlers

import (
	"testing"

	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/web/i18n"
)

// TestEveryTagTypeHasWords: each type of the catalog has a name and a
// description in the message catalog, and English says what tagtype says.
func TestEveryTagTypeHasWords(t *testing.T) {
	en := i18n.English()
	for _, tt := range tagtype.All() {
		if _, ok := tagTypeIDs[tt.Code]; !ok {
			t.Errorf("%s has no catalog ids", tt.Code)
			continue
		}
		if got := tagTypeName(en, tt.Code); got != tt.Label {
			t.Errorf("%s: English name %q, tagtype says %q", tt.Code, got, tt.Label)
		}
		if got := tagTypeDescription(en, tt.Code); got != tt.Description {
			t.Errorf("%s: English description %q, tagtype says %q", tt.Code, got, tt.Description)
		}
		if got := tagTypeWords(en, tt.Code); got != tt.Words() {
			t.Errorf("%s: English words %q, tagtype says %q", tt.Code, got, tt.Words())
		}
	}
	for group, want := range map[string]string{tagtype.GroupSigner: "Signer fields", tagtype.GroupText: "Text", tagtype.GroupNotary: "Notary fields"} {
		if got := tagGroupTitle(en, group); got != want {
			t.Errorf("group %s = %q, want %q", group, got, want)
		}
	}
	es, _ := i18n.Lookup("es")
	if got := tagTypeName(i18n.New(es), tagtype.Signature); got != "Firma" {
		t.Errorf("es signature = %q", got)
	}
}
