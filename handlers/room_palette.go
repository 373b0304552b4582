package handlers

import (
	"github.com/markuproom/markuproom/web/i18n"

	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates"
)

// paletteGroups sorts the tag types of models/tagtype into the palette's
// groups, each with its icon and the one line the palette shows on hover and
// focus; the notary group starts folded (most rooms are plain e-signatures).
func paletteGroups(l *i18n.Localizer) []templates.TagGroupView {
	groups := []templates.TagGroupView{
		{ID: tagtype.GroupSigner, Title: l.T(tagtype.GroupTitleID(tagtype.GroupSigner))},
		{ID: tagtype.GroupText, Title: l.T(tagtype.GroupTitleID(tagtype.GroupText))},
		{ID: tagtype.GroupNotary, Title: l.T(tagtype.GroupTitleID(tagtype.GroupNotary)), Collapsed: true},
	}
	for _, tt := range tagtype.All() {
		for i := range groups {
			if groups[i].ID == tt.Group {
				groups[i].Types = append(groups[i].Types, templates.TagTypeView{
					Code: tt.Code, Label: l.T(tt.Key.Name), Width: num(tt.DefaultWidth), Height: num(tt.DefaultHeight),
					Icon: tt.Icon, Description: l.T(tt.Key.Description),
				})
			}
		}
	}
	return groups
}
