package handlers

import (
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates"
)

// paletteGroups sorts the tag types of models/tagtype into the palette's
// groups, each with its icon and the one line the palette shows on hover and
// focus; the notary group starts folded (most rooms are plain e-signatures).
func paletteGroups() []templates.TagGroupView {
	groups := []templates.TagGroupView{
		{ID: tagtype.GroupSigner, Title: "Signer fields"},
		{ID: tagtype.GroupText, Title: "Text"},
		{ID: tagtype.GroupNotary, Title: "Notary fields", Collapsed: true},
	}
	for _, tt := range tagtype.All() {
		for i := range groups {
			if groups[i].ID == tt.Group {
				groups[i].Types = append(groups[i].Types, templates.TagTypeView{
					Code: tt.Code, Label: tt.Label, Width: num(tt.DefaultWidth), Height: num(tt.DefaultHeight),
					Icon: tt.Icon, Description: tt.Description,
				})
			}
		}
	}
	return groups
}
