package models

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

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
	// Locale (an extension) is the participant's language, a canonical tag
	// of i18n.Languages (nil: none).
	Locale *string
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
	if err := p.Err(KindInvalid, "problem.summary.tx_invalid"); err != nil {
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
				p.Add(pointer(o.at("sendFinalEnoteTo"), i), "invalid_type", "problem.json.element_not_string")
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
			p.Add(o.at("xfdf"), "too_long", "problem.tx.xfdf_too_long", "bytes", len(x), "max", MaxXFDFBytes)
		} else if strings.TrimSpace(x) != "" {
			if err := xfdf.Validate([]byte(x)); err != nil {
				p.Add(o.at("xfdf"), "invalid_xfdf", "problem.tx.xfdf_malformed", "reason", err.Error())
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

// parseTagInput reads one tag of the API's JSON (readTagJSON) and checks it (checkTag).
func parseTagInput(p *Problems, ptr string, raw jsonNode, tagTypeCodes []string) (TagInput, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return TagInput{}, false
	}
	t := checkTag(p, ptr, readTagJSON(o), tagRules{typeCodes: tagTypeCodes})
	o.finish()
	return t, true
}

// readTagJSON decodes one tag of the API's JSON, reporting fields of the
// wrong JSON type and a malformed customData; checkTag checks the rest.
func readTagJSON(o *jsonObject) TagDraft {
	var d TagDraft
	// The values the draft points to live in one block a tag (it reads 4
	// texts and 6 numbers), not in one allocation each.
	vals := new(struct {
		texts [4]string
		nums  [6]float64
	})
	texts, nums := 0, 0
	text := func(from *jsonObject, name string) *string {
		v, ok, refused := from.textValue(name)
		if refused {
			d.refused = append(d.refused, name)
		}
		if !ok {
			return nil
		}
		vals.texts[texts] = v
		texts++
		return &vals.texts[texts-1]
	}
	num := func(from *jsonObject, name string) *float64 {
		v, ok, refused := from.numValue(name)
		if refused {
			d.refused = append(d.refused, name)
		}
		if !ok {
			return nil
		}
		vals.nums[nums] = v
		nums++
		return &vals.nums[nums-1]
	}
	d.Type = text(o, "type")
	d.X, d.Y, d.Width, d.Height = num(o, "x"), num(o, "y"), num(o, "width"), num(o, "height")
	d.SignerID = text(o, "signerId")

	// customData: an object kept byte for byte, except that the lifted fields
	// found inside it move out beside it.
	var inner *jsonObject
	if rawCD, ok := o.raw("customData"); !ok {
		o.missing("customData")
	} else if rawCD.kind != "object" {
		o.p.Add(o.at("customData"), "invalid_type", "problem.tx.custom_data_type", "kind", rawCD.kind)
	} else if len(rawCD.raw) > MaxCustomDataBytes {
		o.p.Add(o.at("customData"), "too_long", "problem.tx.custom_data_too_long", "bytes", len(rawCD.raw), "max", MaxCustomDataBytes)
	} else {
		var lifted jsonNode
		d.CustomData, lifted = splitObject(rawCD, liftedTagFields())
		if len(lifted.keys) > 0 {
			inner, _ = readObject(o.p, o.at("customData"), lifted)
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
				o.p.Add(inner.at(name), "conflicting_value", "problem.tx.custom_data_conflict", "field", Quoted(name))
			}
			return o
		case in:
			o.field(name, true)
			d.nested = append(d.nested, name)
			return inner
		default:
			return o
		}
	}
	d.Page = num(pick("page"), "page")
	d.Required = pick("required").boolean("required")
	d.StateFormat = text(pick("stateFormat"), "stateFormat")
	d.DateFormat = text(pick("dateFormat"), "dateFormat")
	d.FontSize = num(pick("fontSize"), "fontSize")
	return d
}

// parseParticipantInput reads one participant of the API's JSON
// (readParticipantJSON) and checks it (checkParticipant).
func parseParticipantInput(p *Problems, ptr string, raw jsonNode) (ParticipantInput, bool) {
	o, ok := readObject(p, ptr, raw)
	if !ok {
		return ParticipantInput{}, false
	}
	in := checkParticipant(p, ptr, readParticipantJSON(o))
	o.finish()
	return in, true
}

// readParticipantJSON decodes one participant of the API's JSON, reporting
// fields of the wrong JSON type; checkParticipant checks the rest.
func readParticipantJSON(o *jsonObject) participantDraft {
	var d participantDraft
	text := func(name string) *string {
		v, refused := o.text(name)
		if refused {
			d.refused = append(d.refused, name)
		}
		return v
	}
	d.ID = text("id")
	d.Order, _ = o.num("order")
	d.Email, d.FirstName, d.MiddleName, d.LastName = text("email"), text("firstName"), text("middleName"), text("lastName")
	d.Address1, d.Address2, d.Country = text("address1"), text("address2"), text("country")
	d.City, d.State, d.Zip, d.Phone = text("city"), text("state"), text("zip"), text("phone")
	d.KBARequired, d.CredAnalysisRequired = o.boolean("kbaRequired"), o.boolean("credAnalysisRequired")
	d.ExternalID = text("externalId")
	d.AuthenticationType, d.TwoFactorContact = text("authenticationType"), text("twoFactorContact")
	d.PersonalPasswordQuestion, d.PersonalPassword = text("personalPasswordQuestion"), text("personalPassword")
	d.InviteEmailSubject = text("inviteEmailSubject")
	d.Role = text("role")
	d.Locale = text("locale")
	return d
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
