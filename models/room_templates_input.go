package models

// RoomTemplateSave is the body of "Save as template…" in the Markup Room
// (POST /rooms/{id}/templates; docs/decisions.md, "Templates in the room").
type RoomTemplateSave struct {
	Name string
	// Documents are the positions of the room's documents the template
	// keeps, in template order; nil keeps every document.
	Documents []int
	// RoleNames rename the roles (the room's participants) in order.
	RoleNames []string
	// TemplateID, when not empty, makes the save a new version of that
	// template instead of a new template.
	TemplateID string
}

// RoomTemplateApply is the body of "Apply template…" in the Markup Room
// (POST /rooms/{id}/templates/apply).
type RoomTemplateApply struct {
	TemplateID string
	// TemplateDocument is the template's document whose tags are placed.
	TemplateDocument int
	// Document is the position of the room's document they are placed on.
	Document int
	// Roles maps a role name to the participant id who takes it, in body
	// order; a role left out leaves its tags unassigned.
	Roles []RoleHolder
}

// RoleHolder is one member of RoomTemplateApply's roles.
type RoleHolder struct {
	Role          string
	ParticipantID string
}

// ParseRoomTemplateSave reads a save body: {"name", "documents": [0, 1],
// "roleNames": [...], "templateId"?}. Syntax, types, limits and a document
// named twice are 400, each problem pointing into the body.
func ParseRoomTemplateSave(body []byte) (*RoomTemplateSave, error) {
	var p Problems
	o, ok := parseBody(&p, body)
	if !ok {
		return nil, p.Err(KindInvalid, "problem.summary.template_invalid_short")
	}
	in := &RoomTemplateSave{}
	in.Name, _ = o.line("name", true, MaxTitleLength)
	in.TemplateID, _ = o.str("templateId", false, MaxShortTextLength)
	if items, ok := o.array("documents", false, MaxTemplateDocuments); ok {
		if len(items) == 0 {
			p.Add(o.at("documents"), "required", "problem.template.room_documents_required")
		}
		seen := map[int]bool{}
		in.Documents = make([]int, 0, len(items))
		for i, item := range items {
			ptr := pointer(o.at("documents"), i)
			n, ok := wholeNumber(item)
			switch {
			case !ok:
				p.Add(ptr, "invalid_type", "problem.template.room_document_type")
			case seen[n]:
				p.Add(ptr, "duplicate_document", "problem.template.document_twice", "document", n)
			default:
				seen[n] = true
				in.Documents = append(in.Documents, n)
			}
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
			checkRequiredLine(&p, ptr, name, MaxNameLength)
			in.RoleNames = append(in.RoleNames, name)
		}
	}
	o.finish()
	if err := p.Err(KindInvalid, "problem.summary.template_invalid_fields"); err != nil {
		return nil, err
	}
	return in, nil
}

// ParseRoomTemplateApply reads an apply body: {"templateId",
// "templateDocument": 0, "document": 0, "roles": {"Buyer": "<participant
// id>"}}. Syntax, types and limits are 400.
func ParseRoomTemplateApply(body []byte) (*RoomTemplateApply, error) {
	var p Problems
	o, ok := parseBody(&p, body)
	if !ok {
		return nil, p.Err(KindInvalid, "problem.summary.request_invalid_short")
	}
	in := &RoomTemplateApply{}
	in.TemplateID, _ = o.str("templateId", true, MaxShortTextLength)
	if n := o.optInt("templateDocument", 0, MaxTemplateDocuments-1); n != nil {
		in.TemplateDocument = *n
	}
	in.Document, _ = o.integer("document", true, 0, MaxDocuments-1)
	if roles, ok := o.object("roles", false); ok {
		if len(roles.node.keys) > MaxTemplateRoles {
			p.Add(roles.ptr, "too_many", "problem.template.too_many_roles", "max", MaxTemplateRoles)
		}
		seen := map[string]bool{}
		for _, k := range roles.node.keys {
			name := string(k)
			if seen[name] {
				continue
			}
			seen[name] = true
			id, _ := roles.str(name, false, MaxShortTextLength)
			if id == "" {
				continue // null or empty: the role's tags stay unassigned
			}
			in.Roles = append(in.Roles, RoleHolder{Role: name, ParticipantID: id})
		}
		roles.finish()
	}
	o.finish()
	if err := p.Err(KindInvalid, "problem.summary.request_invalid"); err != nil {
		return nil, err
	}
	return in, nil
}

// wholeNumber reads a JSON number that is a whole number ≥ 0 and fits an int32.
func wholeNumber(n jsonNode) (int, bool) {
	if n.kind != "number" {
		return 0, false
	}
	var v int
	for _, c := range n.raw {
		if c < '0' || c > '9' || v > 1<<30 {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, len(n.raw) > 0
}
