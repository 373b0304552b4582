package models

import (
	"bytes"
	"math"
	"time"
)

// pageBoxTolerance is how far, in points, each corner of a document's page
// box may lie from the template document's for the template's tags to fit.
const pageBoxTolerance = 1.0

// templateMismatch explains why doc does not have the pages of template
// document td (the same count, each page box within pageBoxTolerance), or
// is "" when it does.
func templateMismatch(doc *Document, td *TemplateDocument) Message {
	if doc.PageCount != td.Pages || len(doc.Pages) != len(td.PageBoxes) {
		return Msg("problem.template.mismatch_pages", "pages", doc.PageCount, "document", td.Position, "templatePages", td.Pages)
	}
	for i, page := range doc.Pages {
		a, b := page.CropBox, td.PageBoxes[i].CropBox
		if math.Abs(a.LLX-b.LLX) > pageBoxTolerance || math.Abs(a.LLY-b.LLY) > pageBoxTolerance ||
			math.Abs(a.URX-b.URX) > pageBoxTolerance || math.Abs(a.URY-b.URY) > pageBoxTolerance {
			return Msg("problem.template.mismatch_size", "page", i+1, "width", fmtNum(a.URX-a.LLX), "height", fmtNum(a.URY-a.LLY),
				"templateWidth", fmtNum(b.URX-b.LLX), "templateHeight", fmtNum(b.URY-b.LLY))
		}
	}
	return Message{}
}

// templateRoleHolders maps each role of a template to the index of the
// participant who takes it: by the participants' "role" when any names
// one, else in order. A role nobody takes is absent (its tags stay
// unassigned). Unknown and repeated roles are recorded in p at
// participantsPtr/i/role.
func templateRoleHolders(p *Problems, participantsPtr string, roles []TemplateRole, participantRoles []string) map[string]int {
	holders := make(map[string]int, len(roles))
	byRole := false
	for _, r := range participantRoles {
		byRole = byRole || r != ""
	}
	if !byRole {
		for i, r := range roles {
			if i < len(participantRoles) {
				holders[r.Name] = i
			}
		}
		return holders
	}
	declared := make(map[string]bool, len(roles))
	for _, r := range roles {
		declared[r.Name] = true
	}
	for i, r := range participantRoles {
		if r == "" {
			continue
		}
		ptr := pointer(pointer(participantsPtr, i), "role")
		switch j, taken := holders[r]; {
		case !declared[r]:
			p.Add(ptr, "unknown_role", "problem.template.no_such_role", "role", Quoted(truncateForDetail(r)))
		case taken:
			p.Add(ptr, "duplicate_role", "problem.template.role_taken", "participant", j, "role", Quoted(truncateForDetail(r)))
		default:
			holders[r] = i
		}
	}
	return holders
}

// templateTags is the tags of template document doc of v, each for the
// signer its role's holder is ("" for a role nobody takes); customData, when
// not nil, rewrites each tag's custom data.
func templateTags(v *TemplateVersion, doc int, signerOf map[string]string, customData func(RawJSON) RawJSON) []TagInput {
	tags := []TagInput{}
	for _, t := range v.Tags {
		if t.Document != doc {
			continue
		}
		cd := RawJSON(bytes.Clone(t.CustomData))
		if customData != nil {
			cd = customData(cd)
		}
		tags = append(tags, TagInput{
			Type: t.Type, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height, SignerID: signerOf[t.Role],
			CustomData: cd, Page: t.Page, Required: t.Required, StateFormat: t.StateFormat, DateFormat: t.DateFormat, FontSize: t.FontSize,
		})
	}
	return tags
}

// unknownTemplate is the 422 problem of a template id that names no live
// template of the organization.
func unknownTemplate(p *Problems, ptr, id string) {
	p.Add(ptr, "unknown_template", "problem.template.unknown", "id", Quoted(truncateForDetail(id)))
}

// useTemplate adds to b the count of one use of template id at time now.
func useTemplate(b *writeBatch, id string, now time.Time) {
	b.add("UPDATE templates SET uses = uses + 1, last_used_at = ? WHERE id = ?", now, id)
}
