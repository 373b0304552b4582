package handlers

import (
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// paletteGroups sorts the tag types of models/tagtype into the palette's
// groups, each with its icon and the one line the palette shows on hover and
// focus (catalog messages, worded by the view); the notary group starts
// folded (most rooms are plain e-signatures).
func paletteGroups() []templates.TagGroupView {
	groups := []templates.TagGroupView{
		{ID: tagtype.GroupSigner, Title: i18n.Msg(tagtype.GroupTitleID(tagtype.GroupSigner))},
		{ID: tagtype.GroupText, Title: i18n.Msg(tagtype.GroupTitleID(tagtype.GroupText))},
		{ID: tagtype.GroupNotary, Title: i18n.Msg(tagtype.GroupTitleID(tagtype.GroupNotary)), Collapsed: true},
	}
	for _, tt := range tagtype.All() {
		for i := range groups {
			if groups[i].ID == tt.Group {
				groups[i].Types = append(groups[i].Types, templates.TagTypeView{
					Code: tt.Code, Label: i18n.Msg(tt.Key.Name), Width: num(tt.DefaultWidth), Height: num(tt.DefaultHeight),
					Icon: tt.Icon, Description: i18n.Msg(tt.Key.Description),
				})
			}
		}
	}
	return groups
}
