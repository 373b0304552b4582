package models

import (
	"strings"

	"github.com/markuproom/markuproom/models/tagtype"
)

// Limits of a template (the "Templates" paragraph of the OpenAPI
// document's description). The number of templates an organization may
// keep is the store's (StoreOptions.MaxTemplates).
const (
	MaxTemplateDocuments       = 20
	MaxTemplateRoles           = 50
	MaxTemplateTagsPerDocument = MaxTagsPerDocument
	DefaultMaxTemplates        = 1000
)

// TemplateInput is a validated template body (TemplateInput in the OpenAPI
// document): either a transaction to copy (TransactionID, with optional
// RoleNames) or the documents, roles and tags themselves.
type TemplateInput struct {
	Name        string
	Description *string
	// TransactionID, when not empty, names the transaction whose documents
	// and tags the template copies; its participants become the roles.
	TransactionID string
	// RoleNames rename the copied roles in participant order.
	RoleNames []string
	Documents []TemplateDocumentInput
	Roles     []TemplateRole
	Tags      []TemplateTag

	// positions, for a copied transaction, keeps only the documents at
	// these positions, in this order (nil: all); a Markup Room's save sets it.
	positions []int
}

// TemplateDocumentInput is one document of a TemplateInput: a reference to
// an upload (its location, id or gcsRefId) and an optional title.
type TemplateDocumentInput struct {
	Ref string
	// RefField is the member the reference was read from, for problems.
	RefField string
	Title    *string
}

// ParseTemplateInput decodes and checks a template body. Every syntax, type,
// required-field and limit problem is reported at once as a 400-class
// *ValidationError; references are checked by the store.
func ParseTemplateInput(body []byte) (*TemplateInput, error) {
	var p Problems
	in := parseTemplateInput(&p, body)
	if err := p.Err(KindInvalid, "problem.summary.template_invalid"); err != nil {
		return nil, err
	}
	return in, nil
}

func parseTemplateInput(p *Problems, body []byte) *TemplateInput {
	o, ok := parseBody(p, body)
	if !ok {
		return nil
	}
	in := &TemplateInput{}
	in.Name, _ = o.line("name", true, MaxTitleLength)
	in.Description = o.optStr("description", MaxDescriptionLength)
	// Read-only fields of the response, accepted so a read can be sent back.
	o.ignore("id", "version", "createdAt", "updatedAt", "lastUsedAt", "uses")

	if o.has("transactionId") {
		in.TransactionID, _ = o.str("transactionId", true, MaxShortTextLength)
		for _, name := range []string{"documents", "roles", "tags"} {
			if o.has(name) {
				p.Add(o.at(name), "conflicting_value", "problem.template.either_source", "field", Quoted(name))
			}
		}
		if items, ok := o.array("roleNames", false, MaxTemplateRoles); ok {
			in.RoleNames = make([]string, 0, len(items))
			for i, item := range items {
				ptr := pointer(o.at("roleNames"), i)
				if item.kind != "string" {
					p.Add(ptr, "invalid_type", "problem.template.role_name_type", "kind", item.kind)
					continue
				}
				name := decodeJSONString(item.raw)
				checkRequiredLine(p, ptr, name, MaxNameLength)
				in.RoleNames = append(in.RoleNames, name)
			}
		}
		o.finish()
		return in
	}
	if o.has("roleNames") {
		o.field("roleNames", true)
		p.Add(o.at("roleNames"), "conflicting_value", "problem.template.role_names_source")
	}
	if items, ok := o.array("documents", true, MaxTemplateDocuments); ok {
		if len(items) == 0 {
			p.Add(o.at("documents"), "required", "problem.template.documents_required")
		}
		in.Documents = make([]TemplateDocumentInput, 0, len(items))
		for i, raw := range items {
			if d, ok := parseTemplateDocumentInput(p, pointer(o.at("documents"), i), raw); ok {
				in.Documents = append(in.Documents, d)
			}
		}
	}
	if items, ok := o.array("roles", false, MaxTemplateRoles); ok {
		in.Roles = make([]TemplateRole, 0, len(items))
		for i, raw := range items {
			r, ok := readObject(p, pointer(o.at("roles"), i), raw)
			if !ok {
				continue
			}
			name, _ := r.line("name", true, MaxNameLength)
			r.finish()
			in.Roles = append(in.Roles, TemplateRole{Name: name})
		}
	}
	if items, ok := o.array("tags", false, MaxTemplateDocuments*MaxTemplateTagsPerDocument); ok {
		in.Tags = make([]TemplateTag, 0, len(items))
		perDocument := map[int]int{}
		codes := tagtype.Codes()
		for i, raw := range items {
			if t, ok := parseTemplateTag(p, pointer(o.at("tags"), i), raw, codes); ok {
				in.Tags = append(in.Tags, t)
				perDocument[t.Document]++
			}
		}
		for doc, n := range perDocument {
			if n > MaxTemplateTagsPerDocument {
				p.Add(o.at("tags"), "too_many", "problem.template.document_too_many_tags", "document", doc, "tags", n, "max", MaxTemplateTagsPerDocument)
			}
		}
	}
	o.finish()
	return in
}

func parseTemplateDocumentInput(p *Problems, ptr string, raw jsonNode) (TemplateDocumentInput, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return TemplateDocumentInput{}, false
	}
	var d TemplateDocumentInput
	// "documentId" is what a read answers, so a read can be sent back.
	switch {
	case o.has("document") && o.has("documentId"):
		o.field("documentId", true)
		p.Add(o.at("documentId"), "conflicting_value", "problem.template.upload_once")
	case o.has("documentId"):
		d.RefField = "documentId"
	default:
		d.RefField = "document"
	}
	if d.RefField != "" {
		d.Ref, _ = o.str(d.RefField, true, 2048)
	}
	if title, ok := o.line("title", false, MaxTitleLength); ok {
		d.Title = &title
	}
	o.ignore("index", "pages")
	o.finish()
	return d, true
}

// parseTemplateTag reads one template tag: its "document" and "role" here,
// every other field through parseTagInput, operation A's tag reader, so a
// template tag takes exactly what a transaction's tag takes.
func parseTemplateTag(p *Problems, ptr string, raw jsonNode, codes []string) (TemplateTag, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return TemplateTag{}, false
	}
	doc, docOK := o.integer("document", true, 0, MaxTemplateDocuments-1)
	role := ""
	if o.has("role") {
		role, _ = o.line("role", false, MaxNameLength)
	} else {
		o.field("role", true)
	}
	if o.has("signerId") {
		o.field("signerId", true)
		p.Add(o.at("signerId"), "unknown_field", "problem.template.tag_role")
	}
	ti, ok := parseTagInput(p, ptr, withoutMembers(raw, "document", "role", "signerId"), codes)
	if !ok || !docOK {
		return TemplateTag{}, false
	}
	return TemplateTag{
		Type: ti.Type, X: ti.X, Y: ti.Y, Width: ti.Width, Height: ti.Height,
		Role: strings.TrimSpace(role), Document: doc, CustomData: []byte(ti.CustomData.orEmpty()), Page: ti.Page,
		Required: ti.Required, StateFormat: ti.StateFormat, DateFormat: ti.DateFormat, FontSize: ti.FontSize,
	}, true
}

// withoutMembers is the object obj without the named members, and with a
// placeholder "signerId": it stands in for the signer a template tag does
// not have, so that operation A's tag reader finds the field it requires.
func withoutMembers(obj jsonNode, names ...string) jsonNode {
	signer := jsonNode{kind: "string", raw: []byte(`"-"`)}
	out := jsonNode{kind: "object", raw: obj.raw, keys: make([][]byte, 0, len(obj.keys)+1), vals: make([]jsonNode, 0, len(obj.keys)+1)}
	for i, k := range obj.keys {
		drop := false
		for _, n := range names {
			if string(k) == n {
				drop = true
				break
			}
		}
		if !drop {
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, obj.vals[i])
		}
	}
	out.keys = append(out.keys, []byte("signerId"))
	out.vals = append(out.vals, signer)
	return out
}
