// Package tagtype is the one catalog of tag types: each type's code (the
// TagType enum of handlers/apispec/openapi.yaml), the catalog ids of the
// words the room shows for it (Key; the words are only in the catalog), its
// palette group, the size a new tag gets, whether it takes a date or a state
// format, and its icon. Detection, the palette, the API's
// validation and the editor (through the data-tag-types attribute the viewer
// renders) read it. Adding a type is one row of All, one value of the OpenAPI
// enum and one <symbol> of static/img/tags.svg; tests check the other two.
// It imports nothing of the project.
package tagtype

// The tag type codes, for Go code that names a type.
const (
	Signature            = "SIGNATURETEMPLATE"
	SignHere             = "SIGNHERETAGTEMPLATEANNOTATION"
	Initials             = "INITIALSTEMPLATE"
	InitialHere          = "INITIALHERETAGTEMPLATEANNOTATION"
	Date                 = "DATETEMPLATE"
	FullName             = "FULLNAMETEMPLATE"
	FreeText             = "FREEFORMTEXTTAGTEMPLATEANNOTATION"
	TextNote             = "TEXTANNOT"
	DocumentID           = "DOCUMENTIDTEMPLATE"
	Disclaimer           = "DISCLAIMERTEMPLATE"
	NotarySessionID      = "NOTARYSESSIONIDTEMPLATE"
	CommissionID         = "COMMISSIONIDTEMPLATE"
	CommissionExpiration = "COMMISSIONEXPIRATIONTEMPLATE"
	CommissionStamp      = "COMMISSIONSTAMPTEMPLATE"
	Seal                 = "SEALTAGTEMPLATEANNOTATION"
	NotaryTitle          = "NOTARYTITLETEMPLATE"
	NotaryCounty         = "NOTARYCOUNTYTEMPLATE"
	NotaryState          = "NOTARYSTATETEMPLATE"
)

// Palette groups of Type.Group, in palette order.
const (
	GroupSigner = "signer" // fields a signer fills in
	GroupText   = "text"
	GroupNotary = "notary"
)

// DefaultDateFormat is the date format a new date tag starts with, and the
// one a date tag that names none is shown with.
const DefaultDateFormat = "MM/DD/YYYY"

// Key is where a tag type's words are in the message catalog
// (web/i18n/locales, docs/i18n.md): the ids of its name, of the one line the
// palette says of it (what the signer does with such a tag, so "Sign here"
// and "Signature" are told apart before they are placed) and, for a date
// type, of what its tag holds ("Date signed · MM/DD/YYYY"), and, for a type
// whose name is long for its small default size, of a short word a tag too
// narrow for the name says instead ("Init."; issue 40: a small tag showed
// only an icon). Ids are written whole, so the catalog's tests find each; the
// words are only there.
type Key struct {
	Name, Description, Words, Short string
}

// Type is one tag type and what the room knows of it.
type Type struct {
	Code string
	// Key names its words in the message catalog.
	Key Key
	// Group sorts the palette: GroupSigner, GroupText or GroupNotary.
	Group string
	// DefaultWidth and DefaultHeight are the size in points a new tag of this
	// type gets (the palette, anchors, text tags and suggestions).
	DefaultWidth, DefaultHeight float64
	// IsDate tags take a dateFormat, IsState tags a stateFormat.
	IsDate, IsState bool
	// DefaultFormat is the format a new tag of this type starts with (a date
	// tag: DefaultDateFormat); empty for the others.
	DefaultFormat string
	// Icon is the id of the type's <symbol> in static/img/tags.svg.
	Icon string
}

// GroupTitleID is the catalog id of a palette group's title ("" for a
// group this version does not know).
func GroupTitleID(group string) string {
	switch group {
	case GroupSigner:
		return "tagtype.group.signer"
	case GroupText:
		return "tagtype.group.text"
	case GroupNotary:
		return "tagtype.group.notary"
	}
	return ""
}

// date is a type that takes a dateFormat, starting with DefaultDateFormat.
func date(t Type) Type {
	t.IsDate, t.DefaultFormat = true, DefaultDateFormat
	return t
}

// All lists the 18 tag types in palette order.
func All() []Type {
	return []Type{
		{Code: Signature, Key: Key{Name: "tagtype.signature", Description: "tagtype.signature.description"}, Group: GroupSigner, DefaultWidth: 144, DefaultHeight: 36,
			Icon: "signature"},
		{Code: SignHere, Key: Key{Name: "tagtype.sign_here", Description: "tagtype.sign_here.description"}, Group: GroupSigner, DefaultWidth: 120, DefaultHeight: 30,
			Icon: "sign-here"},
		{Code: Initials, Key: Key{Name: "tagtype.initials", Description: "tagtype.initials.description", Short: "tagtype.initials.short"}, Group: GroupSigner, DefaultWidth: 60, DefaultHeight: 30,
			Icon: "initials"},
		{Code: InitialHere, Key: Key{Name: "tagtype.initial_here", Description: "tagtype.initial_here.description", Short: "tagtype.initial_here.short"}, Group: GroupSigner, DefaultWidth: 72, DefaultHeight: 30,
			Icon: "initial-here"},
		date(Type{Code: Date, Key: Key{Name: "tagtype.date", Description: "tagtype.date.description", Words: "tagtype.date.words"}, Group: GroupSigner, DefaultWidth: 96, DefaultHeight: 20,
			Icon: "date"}),
		{Code: FullName, Key: Key{Name: "tagtype.full_name", Description: "tagtype.full_name.description"}, Group: GroupSigner, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "name"},
		{Code: FreeText, Key: Key{Name: "tagtype.free_text", Description: "tagtype.free_text.description"}, Group: GroupText, DefaultWidth: 160, DefaultHeight: 20,
			Icon: "text"},
		{Code: TextNote, Key: Key{Name: "tagtype.text_note", Description: "tagtype.text_note.description"}, Group: GroupText, DefaultWidth: 160, DefaultHeight: 40,
			Icon: "note"},
		{Code: DocumentID, Key: Key{Name: "tagtype.document_id", Description: "tagtype.document_id.description"}, Group: GroupText, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "document-id"},
		{Code: Disclaimer, Key: Key{Name: "tagtype.disclaimer", Description: "tagtype.disclaimer.description"}, Group: GroupText, DefaultWidth: 216, DefaultHeight: 54,
			Icon: "disclaimer"},
		{Code: NotarySessionID, Key: Key{Name: "tagtype.notary_session_id", Description: "tagtype.notary_session_id.description"}, Group: GroupNotary, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "session"},
		{Code: CommissionID, Key: Key{Name: "tagtype.commission_id", Description: "tagtype.commission_id.description"}, Group: GroupNotary, DefaultWidth: 120, DefaultHeight: 20,
			Icon: "commission"},
		date(Type{Code: CommissionExpiration, Key: Key{Name: "tagtype.commission_expiration", Description: "tagtype.commission_expiration.description", Words: "tagtype.commission_expiration", Short: "tagtype.commission_expiration.short"}, Group: GroupNotary, DefaultWidth: 120, DefaultHeight: 20,
			Icon: "expiration"}),
		{Code: CommissionStamp, Key: Key{Name: "tagtype.commission_stamp", Description: "tagtype.commission_stamp.description"}, Group: GroupNotary, DefaultWidth: 180, DefaultHeight: 72,
			Icon: "stamp"},
		{Code: Seal, Key: Key{Name: "tagtype.seal", Description: "tagtype.seal.description"}, Group: GroupNotary, DefaultWidth: 108, DefaultHeight: 108,
			Icon: "seal"},
		{Code: NotaryTitle, Key: Key{Name: "tagtype.notary_title", Description: "tagtype.notary_title.description"}, Group: GroupNotary, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "title"},
		{Code: NotaryCounty, Key: Key{Name: "tagtype.notary_county", Description: "tagtype.notary_county.description"}, Group: GroupNotary, DefaultWidth: 120, DefaultHeight: 20,
			Icon: "county"},
		{Code: NotaryState, Key: Key{Name: "tagtype.notary_state", Description: "tagtype.notary_state.description"}, Group: GroupNotary, DefaultWidth: 96, DefaultHeight: 20, IsState: true,
			Icon: "state"},
	}
}

// ByCode finds a tag type by its code; ok is false for an unknown code.
func ByCode(code string) (Type, bool) {
	for _, t := range All() {
		if t.Code == code {
			return t, true
		}
	}
	return Type{}, false
}

// Codes lists the codes of All, in palette order.
func Codes() []string {
	types := All()
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = t.Code
	}
	return out
}
