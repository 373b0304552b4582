package models

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/markuproom/markuproom/models/passwordhash"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/models/xfdf"
)

// TransactionInput is a validated "Update eSignature transaction" body
// (TransactionInput in the OpenAPI document).
type TransactionInput struct {
	Status              string
	ReferenceID         string
	SigningOrder        *bool
	PersonalizedMessage *string
	InviteEmailSubject  *string
	HasNotify           bool
	NotifyEmail         *bool
	EVault              *string
	SendFinalEnoteTo    []string
	// ID is the body's optional "id"; when given it must equal the path's id.
	ID           *string
	Documents    []DocumentInput
	Participants []ParticipantInput
	// AllowUnassignedTags lets tags have an empty signerId: a Markup Room's
	// draft may hold tags nobody was chosen for yet. Never set from a body.
	AllowUnassignedTags bool
}

// DocumentInput is one document of a TransactionInput.
type DocumentInput struct {
	ID          *string
	GCSRefID    string
	Title       string
	Description *string
	XFDF        *string
	SessionType string
	Type        string
	Order       *int
	Pages       *int
	ReadOnly    *bool
	Visible     *bool
	Tags        []TagInput
	// AnchorTags are expanded into Tags before the request is checked
	// against its documents (expandAnchors); they are never stored.
	AnchorTags []AnchorTag
	// TemplateID and TemplateDocument (an extension) add the tags of that
	// document of the template to Tags (expandTemplates); never stored.
	TemplateID       string
	TemplateDocument int
}

// TagInput is one tag of a DocumentInput.
type TagInput struct {
	// ID is the stored tag's id when a room edit rebuilds the request; it is
	// never read from an API body (a replace gives every tag a new id).
	ID          string
	Type        string
	X, Y        float64
	Width       float64
	Height      float64
	SignerID    string
	CustomData  RawJSON
	Page        int
	Required    *bool
	StateFormat *string
	DateFormat  *string
	FontSize    *float64
}

// ParticipantInput is one participant of a TransactionInput.
type ParticipantInput struct {
	ID                       string
	Order                    *int
	Email                    string
	FirstName                string
	MiddleName               *string
	LastName                 string
	Address1                 *string
	Address2                 *string
	Country                  *string
	City                     *string
	State                    *string
	Zip                      *string
	Phone                    *string
	KBARequired              *bool
	CredAnalysisRequired     *bool
	ExternalID               *string
	AuthenticationType       string
	TwoFactorContact         string
	PersonalPasswordQuestion *string
	PersonalPassword         *string
	// InviteEmailSubject is accepted so that a response can be sent back as a request.
	InviteEmailSubject *string
	// Role (an extension) is the template role the participant takes when a
	// document names a template (expandTemplates); never stored.
	Role string
	// keptPasswordHash is the stored personal-password hash of a participant
	// whose removal is undone (never read from a request body).
	keptPasswordHash *string
}

// ParseTransactionInput decodes and checks a request body. Every syntax,
// type, enum, required-field and limit problem is reported at once as a
// 400-class *ValidationError; cross-references are checked later by the store.
func ParseTransactionInput(body []byte) (*TransactionInput, error) {
	var p Problems
	in := parseTransactionInput(&p, body)
	if err := p.Err(KindInvalid, "The transaction is not valid; see errors for each problem."); err != nil {
		return nil, err
	}
	return in, nil
}

func parseTransactionInput(p *Problems, body []byte) *TransactionInput {
	o, ok := parseBody(p, body)
	if !ok {
		return nil
	}
	in := &TransactionInput{}
	in.Status, _ = o.enum("status", true, TransactionStatuses())
	in.ReferenceID, _ = o.str("referenceId", true, MaxShortTextLength)
	in.SigningOrder = o.boolean("signingOrder")
	in.PersonalizedMessage = o.optStr("personalizedMessage", MaxMessageLength)
	in.InviteEmailSubject = o.headerStr("inviteEmailSubject", MaxShortTextLength)
	if n, ok := o.object("notifyParticipants", false); ok {
		in.HasNotify = true
		in.NotifyEmail = n.boolean("email")
		n.finish()
	}
	if v, ok := o.str("evault", false, MaxShortTextLength); ok {
		in.EVault = &v
	}
	if items, ok := o.array("sendFinalEnoteTo", false, 10); ok {
		in.SendFinalEnoteTo = make([]string, 0, len(items))
		for i, item := range items {
			if item.kind != "string" {
				p.Add(pointer(o.at("sendFinalEnoteTo"), i), "invalid_type", "Each element must be a string.")
				continue
			}
			in.SendFinalEnoteTo = append(in.SendFinalEnoteTo, decodeJSONString(item.raw))
		}
	}
	if v, ok := o.str("id", false, MaxShortTextLength); ok {
		in.ID = &v
	}
	// Read-only fields of the response, accepted so a read can be sent back.
	o.ignore("version", "createdAt", "updatedAt", "taggingOrganizationId", "documentCount", "tagCount", "participantCount")

	if items, ok := o.array("documents", true, MaxDocuments); ok {
		in.Documents = make([]DocumentInput, 0, len(items))
		for i, raw := range items {
			if d, ok := parseDocumentInput(p, pointer(o.at("documents"), i), raw); ok {
				in.Documents = append(in.Documents, d)
			}
		}
	}
	if items, ok := o.array("participants", true, MaxParticipants); ok {
		in.Participants = make([]ParticipantInput, 0, len(items))
		for i, raw := range items {
			if pi, ok := parseParticipantInput(p, pointer(o.at("participants"), i), raw); ok {
				in.Participants = append(in.Participants, pi)
			}
		}
	}
	o.finish()
	return in
}

func parseDocumentInput(p *Problems, ptr string, raw jsonNode) (DocumentInput, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return DocumentInput{}, false
	}
	var d DocumentInput
	if v, ok := o.str("id", false, MaxShortTextLength); ok {
		d.ID = &v
	}
	d.GCSRefID, _ = o.str("gcsRefId", true, 1024)
	d.Title, _ = o.line("title", true, MaxTitleLength)
	d.Description = o.optStr("description", MaxDescriptionLength)
	if x, ok := o.str("xfdf", false, 0); ok {
		if len(x) > MaxXFDFBytes {
			p.Add(o.at("xfdf"), "too_long", "The XFDF string has %d bytes; at most %d are allowed.", len(x), MaxXFDFBytes)
		} else if strings.TrimSpace(x) != "" {
			if err := xfdf.Validate([]byte(x)); err != nil {
				p.Add(o.at("xfdf"), "invalid_xfdf", "The XFDF is not well-formed: %v.", err)
			} else {
				d.XFDF = &x
			}
		} else {
			d.XFDF = &x
		}
	}
	d.SessionType, _ = o.enum("sessionType", true, SessionTypes())
	d.Type, _ = o.enum("type", true, DocumentTypes())
	d.Order = o.optInt("order", 0, MaxOrder)
	d.Pages = o.optInt("pages", 1, 100000)
	d.ReadOnly = o.boolean("readOnly")
	d.Visible = o.boolean("visible")
	if items, ok := o.array("tags", true, MaxTagsPerDocument); ok {
		d.Tags = make([]TagInput, 0, len(items))
		tagsPtr, codes := o.at("tags"), tagtype.Codes()
		for i, raw := range items {
			if t, ok := parseTagInput(p, pointer(tagsPtr, i), raw, codes); ok {
				d.Tags = append(d.Tags, t)
			}
		}
	}
	parseDocumentTemplate(o, &d)
	if items, ok := o.array("anchorTags", false, MaxAnchorTags); ok {
		ptr, codes := o.at("anchorTags"), tagtype.Codes()
		for i, raw := range items {
			if a, ok := parseAnchorTag(p, pointer(ptr, i), raw, codes); ok {
				d.AnchorTags = append(d.AnchorTags, a)
			}
		}
	}
	o.finish()
	return d, true
}

// liftedTagFields may sit beside customData (canonical) or inside it.
func liftedTagFields() []string {
	return []string{"page", "required", "stateFormat", "dateFormat", "fontSize"}
}

func parseTagInput(p *Problems, ptr string, raw jsonNode, tagTypeCodes []string) (TagInput, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return TagInput{}, false
	}
	var t TagInput
	t.Type, _ = o.enum("type", true, tagTypeCodes)
	t.X, _ = o.number("x", true, -MaxCoordinate, MaxCoordinate)
	t.Y, _ = o.number("y", true, -MaxCoordinate, MaxCoordinate)
	t.Width, _ = o.number("width", true, 0, MaxCoordinate)
	t.Height, _ = o.number("height", true, 0, MaxCoordinate)
	for _, f := range []struct {
		name string
		v    float64
	}{{"width", t.Width}, {"height", t.Height}} {
		if o.has(f.name) && f.v == 0 {
			p.Add(o.at(f.name), "out_of_range", "The field %q must be greater than 0.", f.name)
		}
	}
	t.SignerID, _ = o.str("signerId", true, MaxShortTextLength)

	// customData: an object kept byte for byte, except that the lifted fields
	// found inside it move out beside it.
	var inner *jsonObject
	if rawCD, ok := o.raw("customData"); !ok {
		o.missing("customData")
	} else if rawCD.kind != "object" {
		p.Add(o.at("customData"), "invalid_type", "The field \"customData\" must be an object, got %s.", rawCD.kind)
	} else if len(rawCD.raw) > MaxCustomDataBytes {
		p.Add(o.at("customData"), "too_long", "customData has %d bytes; at most %d are allowed.", len(rawCD.raw), MaxCustomDataBytes)
	} else {
		var lifted jsonNode
		t.CustomData, lifted = splitObject(rawCD, liftedTagFields())
		if len(lifted.keys) > 0 {
			inner, _ = readObject(p, o.at("customData"), lifted)
		}
	}
	// Each lifted field is read from beside customData, else from inside it;
	// present in both places with different values is a conflict.
	pick := func(name string) *jsonObject {
		outer, in := o.has(name), inner != nil && inner.has(name)
		switch {
		case outer && in:
			outerVal, _ := o.field(name, false)
			innerVal, _ := inner.field(name, true)
			if !jsonEqual(outerVal.raw, innerVal.raw) {
				p.Add(inner.at(name), "conflicting_value", "%q is given beside and inside customData with different values.", name)
			}
			return o
		case in:
			o.field(name, true)
			return inner
		default:
			return o
		}
	}
	t.Page, _ = pick("page").integer("page", true, 1, 100000)
	t.Required = pick("required").boolean("required")
	t.StateFormat = pick("stateFormat").optStr("stateFormat", MaxStateFormatLength)
	if v, ok := pick("dateFormat").enum("dateFormat", false, DateFormats()); ok {
		t.DateFormat = &v
	}
	if v, ok := pick("fontSize").number("fontSize", false, 1, MaxTagFontSize); ok {
		t.FontSize = &v
	}
	o.finish()
	return t, true
}

func parseParticipantInput(p *Problems, ptr string, raw jsonNode) (ParticipantInput, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return ParticipantInput{}, false
	}
	var in ParticipantInput
	in.ID, _ = o.str("id", true, MaxShortTextLength)
	in.Order = o.optInt("order", 0, MaxOrder)
	in.Email = o.email("email")
	in.FirstName, _ = o.line("firstName", true, MaxNameLength)
	in.MiddleName = o.optLine("middleName", MaxNameLength)
	in.LastName, _ = o.line("lastName", true, MaxNameLength)
	in.Address1 = o.optStr("address1", MaxShortTextLength)
	in.Address2 = o.optStr("address2", MaxShortTextLength)
	in.Country = o.optStr("country", MaxShortTextLength)
	in.City = o.optStr("city", MaxShortTextLength)
	in.State = o.optStr("state", MaxShortTextLength)
	in.Zip = o.optStr("zip", 32)
	in.Phone = o.optStr("phone", 32)
	if in.Phone != nil && !validPhone(*in.Phone) {
		p.Add(o.at("phone"), "invalid_phone", "%q is not a phone number (digits, spaces, +, -, (, ) and . only).", truncateForDetail(*in.Phone))
	}
	in.KBARequired = o.boolean("kbaRequired")
	in.CredAnalysisRequired = o.boolean("credAnalysisRequired")
	in.ExternalID = o.optStr("externalId", MaxShortTextLength)
	in.AuthenticationType, _ = o.enum("authenticationType", true, AuthenticationTypes())
	in.TwoFactorContact, _ = o.enum("twoFactorContact", true, TwoFactorContacts())
	in.PersonalPasswordQuestion = o.optStr("personalPasswordQuestion", MaxShortTextLength)
	if pw, ok := o.str("personalPassword", false, 0); ok {
		if len(pw) > passwordhash.MaxPasswordLength {
			p.Add(o.at("personalPassword"), "too_long", "The personal password is longer than %d bytes.", passwordhash.MaxPasswordLength)
		} else if pw != "" {
			in.PersonalPassword = &pw
		}
	}
	in.InviteEmailSubject = o.headerStr("inviteEmailSubject", MaxShortTextLength)
	if o.has("role") {
		in.Role, _ = o.line("role", true, MaxNameLength)
	} else {
		o.field("role", true)
	}
	o.finish()
	return in, true
}

// validPhone accepts the characters people write phone numbers with and 5 to 20 digits.
func validPhone(s string) bool {
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune(" +-().", r):
		default:
			return false
		}
	}
	return digits >= 5 && digits <= 20
}

// splitObject separates the named top-level members from a JSON object
// (returned as an object node of their own); the other members keep their
// order and bytes (the whole text when none moves).
func splitObject(obj jsonNode, names []string) (RawJSON, jsonNode) {
	lifted := jsonNode{kind: "object"}
	for i, k := range obj.keys {
		if slices.Contains(names, string(k)) {
			lifted.keys = append(lifted.keys, k)
			lifted.vals = append(lifted.vals, obj.vals[i])
		}
	}
	if len(lifted.keys) == 0 {
		return RawJSON(obj.raw), lifted
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i, k := range obj.keys {
		if slices.Contains(names, string(k)) {
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		key, _ := json.Marshal(string(k))
		out.Write(key)
		out.WriteByte(':')
		out.Write(obj.vals[i].raw)
	}
	out.WriteByte('}')
	return RawJSON(out.Bytes()), lifted
}

// jsonEqual compares two JSON values by meaning.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
