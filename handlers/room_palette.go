package handlers

import (
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// tagTypeLook is each tag type's icon (a <symbol> of static/img/tags.svg) and
// the one line the palette shows on hover and focus: what the signer does
// with it, so "Sign here" and "Signature" (or "Initial here" and
// "Initials") are told apart before they are placed.
var tagTypeLook = map[string]struct{ icon, description string }{
	"SIGNATURETEMPLATE":                 {"signature", "The signer's signature is applied here when they sign."},
	"SIGNHERETAGTEMPLATEANNOTATION":     {"sign-here", "A flag that asks the signer to sign at this spot themselves."},
	"INITIALSTEMPLATE":                  {"initials", "The signer's initials are applied here when they sign."},
	"INITIALHERETAGTEMPLATEANNOTATION":  {"initial-here", "A flag that asks the signer to initial at this spot themselves."},
	"DATETEMPLATE":                      {"date", "The signing date, printed in the format you choose."},
	"FULLNAMETEMPLATE":                  {"name", "The signer's full name, printed for them."},
	"FREEFORMTEXTTAGTEMPLATEANNOTATION": {"text", "A box the signer types any text into."},
	"TEXTANNOT":                         {"note", "A note from you on the page; the signer reads it."},
	"DOCUMENTIDTEMPLATE":                {"document-id", "This document's ID, printed on the page."},
	"DISCLAIMERTEMPLATE":                {"disclaimer", "The disclaimer text, printed on the page."},
	"NOTARYSESSIONIDTEMPLATE":           {"session", "The notarial session's ID, printed for the notary."},
	"COMMISSIONIDTEMPLATE":              {"commission", "The notary's commission number, printed for them."},
	"COMMISSIONEXPIRATIONTEMPLATE":      {"expiration", "The date the notary's commission ends, in the format you choose."},
	"COMMISSIONSTAMPTEMPLATE":           {"stamp", "Where the notary's commission stamp is applied."},
	"SEALTAGTEMPLATEANNOTATION":         {"seal", "Where the notary's seal is applied."},
	"NOTARYTITLETEMPLATE":               {"title", "The notary's title, printed for them."},
	"NOTARYCOUNTYTEMPLATE":              {"county", "The county of the notary's commission."},
	"NOTARYSTATETEMPLATE":               {"state", "The state of the notary's commission, in the format you choose."},
}

// paletteGroups sorts the tag types into the palette's groups; the notary
// group starts folded (most rooms are plain e-signatures).
func paletteGroups() []templates.TagGroupView {
	groups := []templates.TagGroupView{
		{ID: models.TagGroupSigner, Title: "Signer fields"},
		{ID: models.TagGroupText, Title: "Text"},
		{ID: models.TagGroupNotary, Title: "Notary fields", Collapsed: true},
	}
	for _, tt := range models.TagTypes() {
		look := tagTypeLook[tt.Code]
		for i := range groups {
			if groups[i].ID == tt.Group {
				groups[i].Types = append(groups[i].Types, templates.TagTypeView{
					Code: tt.Code, Label: tt.Label, Width: num(tt.Width), Height: num(tt.Height),
					Icon: look.icon, Description: look.description,
				})
			}
		}
	}
	return groups
}
