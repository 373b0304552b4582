package handlers

import (
	"os"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/web/i18n"
)

// Every tag type has an icon drawn in the sprite and a one-line description;
// "Sign here" and "Signature" (and "Initial here" and "Initials") are told apart.
func TestPaletteIconsAndDescriptions(t *testing.T) {
	t.Parallel()
	sprite, err := os.ReadFile("../static/img/tags.svg")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	n := 0
	en := i18n.English()
	for _, g := range paletteGroups() {
		if g.Collapsed != (g.ID == tagtype.GroupNotary) {
			t.Errorf("group %s: collapsed = %v; only the notary group starts folded", g.ID, g.Collapsed)
		}
		for _, tt := range g.Types {
			n++
			description := en.Say(tt.Description)
			if tt.Icon == "" || !strings.Contains(string(sprite), `<symbol id="`+tt.Icon+`"`) {
				t.Errorf("%s: icon %q is not a symbol of tags.svg", tt.Code, tt.Icon)
			}
			if description == "" || strings.Contains(description, "\n") || len(description) > 80 {
				t.Errorf("%s: description %q is not one short line", tt.Code, description)
			}
			if other, dup := seen[description]; dup {
				t.Errorf("%s and %s share a description", tt.Code, other)
			}
			seen[description] = tt.Code
		}
	}
	if n != len(tagtype.All()) {
		t.Errorf("the palette holds %d types, want %d", n, len(tagtype.All()))
	}
	look := func(code string) string {
		tt, _ := tagtype.ByCode(code)
		return i18n.English().T(tt.Key.Description)
	}
	if !strings.Contains(look("SIGNHERETAGTEMPLATEANNOTATION"), "asks the signer to sign") || !strings.Contains(look("SIGNATURETEMPLATE"), "signature is applied") {
		t.Errorf("Sign here / Signature are not told apart: %q / %q", look("SIGNHERETAGTEMPLATEANNOTATION"), look("SIGNATURETEMPLATE"))
	}
	if !strings.Contains(look("INITIALHERETAGTEMPLATEANNOTATION"), "asks the signer to initial") || !strings.Contains(look("INITIALSTEMPLATE"), "initials are applied") {
		t.Errorf("Initial here / Initials are not told apart")
	}
}
