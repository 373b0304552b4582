// Package tagtype is the one catalog of tag types: each type's code (the
// TagType enum of handlers/apispec/openapi.yaml), the words the room shows
// for it, its palette group, the size a new tag gets, whether it takes a date
// or a state format, and its icon. Detection, the palette, the API's
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

// Type is one tag type and what the room knows of it.
type Type struct {
	Code  string
	Label string
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
	// DateWords say what a date tag holds, before its format on the tag
	// ("Date signed · MM/DD/YYYY"), when Label does not; empty: Label.
	DateWords string
	// Icon is the id of the type's <symbol> in static/img/tags.svg.
	Icon string
	// Description says in one line what the signer does with a tag of this
	// type (the palette shows it on hover and focus), so "Sign here" and
	// "Signature" are told apart before they are placed.
	Description string
}

// Words is what a date tag of this type holds (DateWords, else Label).
func (t Type) Words() string {
	if t.DateWords != "" {
		return t.DateWords
	}
	return t.Label
}

// date is a type that takes a dateFormat, starting with DefaultDateFormat.
func date(t Type) Type {
	t.IsDate, t.DefaultFormat = true, DefaultDateFormat
	return t
}

// All lists the 18 tag types in palette order.
func All() []Type {
	return []Type{
		{Code: Signature, Label: "Signature", Group: GroupSigner, DefaultWidth: 144, DefaultHeight: 36,
			Icon: "signature", Description: "The signer's signature is applied here when they sign."},
		{Code: SignHere, Label: "Sign here", Group: GroupSigner, DefaultWidth: 120, DefaultHeight: 30,
			Icon: "sign-here", Description: "A flag that asks the signer to sign at this spot themselves."},
		{Code: Initials, Label: "Initials", Group: GroupSigner, DefaultWidth: 60, DefaultHeight: 30,
			Icon: "initials", Description: "The signer's initials are applied here when they sign."},
		{Code: InitialHere, Label: "Initial here", Group: GroupSigner, DefaultWidth: 72, DefaultHeight: 30,
			Icon: "initial-here", Description: "A flag that asks the signer to initial at this spot themselves."},
		date(Type{Code: Date, Label: "Date", Group: GroupSigner, DefaultWidth: 96, DefaultHeight: 20, DateWords: "Date signed",
			Icon: "date", Description: "The signing date, printed in the format you choose."}),
		{Code: FullName, Label: "Full name", Group: GroupSigner, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "name", Description: "The signer's full name, printed for them."},
		{Code: FreeText, Label: "Free-form text", Group: GroupText, DefaultWidth: 160, DefaultHeight: 20,
			Icon: "text", Description: "A box the signer types any text into."},
		{Code: TextNote, Label: "Text note", Group: GroupText, DefaultWidth: 160, DefaultHeight: 40,
			Icon: "note", Description: "A note from you on the page; the signer reads it."},
		{Code: DocumentID, Label: "Document ID", Group: GroupText, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "document-id", Description: "This document's ID, printed on the page."},
		{Code: Disclaimer, Label: "Disclaimer", Group: GroupText, DefaultWidth: 216, DefaultHeight: 54,
			Icon: "disclaimer", Description: "The disclaimer text, printed on the page."},
		{Code: NotarySessionID, Label: "Notary session ID", Group: GroupNotary, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "session", Description: "The notarial session's ID, printed for the notary."},
		{Code: CommissionID, Label: "Commission ID", Group: GroupNotary, DefaultWidth: 120, DefaultHeight: 20,
			Icon: "commission", Description: "The notary's commission number, printed for them."},
		date(Type{Code: CommissionExpiration, Label: "Commission expiration", Group: GroupNotary, DefaultWidth: 120, DefaultHeight: 20,
			Icon: "expiration", Description: "The date the notary's commission ends, in the format you choose."}),
		{Code: CommissionStamp, Label: "Commission stamp", Group: GroupNotary, DefaultWidth: 180, DefaultHeight: 72,
			Icon: "stamp", Description: "Where the notary's commission stamp is applied."},
		{Code: Seal, Label: "Notary seal", Group: GroupNotary, DefaultWidth: 108, DefaultHeight: 108,
			Icon: "seal", Description: "Where the notary's seal is applied."},
		{Code: NotaryTitle, Label: "Notary title", Group: GroupNotary, DefaultWidth: 144, DefaultHeight: 20,
			Icon: "title", Description: "The notary's title, printed for them."},
		{Code: NotaryCounty, Label: "Notary county", Group: GroupNotary, DefaultWidth: 120, DefaultHeight: 20,
			Icon: "county", Description: "The county of the notary's commission."},
		{Code: NotaryState, Label: "Notary state", Group: GroupNotary, DefaultWidth: 96, DefaultHeight: 20, IsState: true,
			Icon: "state", Description: "The state of the notary's commission, in the format you choose."},
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
