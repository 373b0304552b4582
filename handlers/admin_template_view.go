package handlers

import (
	"strconv"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/static"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// templateViewer shapes a template version for the read-only page viewer:
// its documents with their tags, each role coloured as a participant at its
// position would be in a room, and the role and document lists beside it.
// contentURL is where the browser fetches a document's PDF.
func templateViewer(l *i18n.Localizer, assets *static.Assets, ver *models.TemplateVersion, contentURL func(pos int) string) (templates.ViewerView, []admin.TemplateRoleView, []admin.TemplateDocumentView) {
	v := newViewerView(assets, false)
	roles := make(viewerSigners, len(ver.Roles))
	roleViews := make([]admin.TemplateRoleView, len(ver.Roles))
	for i, r := range ver.Roles {
		first, last := splitRoleName(r.Name)
		roles[r.Name] = templates.TagView{SignerName: r.Name, Initials: initials(first, last), ColorClass: signerClass(i)}
		roleViews[i] = admin.TemplateRoleView{Name: r.Name, ColorClass: signerClass(i)}
	}
	byDoc := make([]map[int][]templates.TagView, len(ver.Documents))
	docViews := make([]admin.TemplateDocumentView, len(ver.Documents))
	for i := range ver.Tags {
		tt := &ver.Tags[i]
		if tt.Document < 0 || tt.Document >= len(byDoc) {
			continue // a version is checked when written; this cannot be drawn
		}
		if byDoc[tt.Document] == nil {
			byDoc[tt.Document] = map[int][]templates.TagView{}
		}
		tag := models.Tag{
			TagID: strconv.Itoa(tt.Document) + "-" + strconv.Itoa(i), Type: tt.Type, Page: tt.Page,
			X: tt.X, Y: tt.Y, Width: tt.Width, Height: tt.Height, SignerID: tt.Role,
			Required: tt.Required, StateFormat: tt.StateFormat, DateFormat: tt.DateFormat, FontSize: tt.FontSize,
		}
		byDoc[tt.Document][tt.Page] = append(byDoc[tt.Document][tt.Page], roles.tagView(&tag, false))
		docViews[tt.Document].Tags++
		for j := range roleViews {
			if roleViews[j].Name == tt.Role {
				roleViews[j].Tags++
			}
		}
	}
	for i, d := range ver.Documents {
		docViews[i].Title, docViews[i].Pages = d.Title, d.Pages
		v.Documents = append(v.Documents, templates.ViewerDocument{
			ID: d.DocumentID, Position: i, Title: d.Title, ContentURL: contentURL(i),
			Pages: viewerPages(d.Pages, d.PageBoxes, byDoc[i]),
		})
	}
	return v, roleViews, docViews
}

// splitRoleName cuts a role's name in two at its first space, for its
// initials ("Buyer" → B, "Second Buyer" → SB).
func splitRoleName(name string) (first, last string) {
	for i, r := range name {
		if r == ' ' {
			return name[:i], name[i+1:]
		}
	}
	return name, ""
}
