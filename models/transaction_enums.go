package models

// Transaction statuses (TransactionInput.status in the OpenAPI document).
const (
	StatusDraft        = "draft"
	StatusESignPending = "esign_pending"
)

// TransactionStatuses lists the statuses a transaction may have.
func TransactionStatuses() []string { return []string{StatusDraft, StatusESignPending} }

// SessionTypes lists the document session types (DocumentInput.sessionType in
// the OpenAPI document).
func SessionTypes() []string { return []string{"esign"} }

// DocumentTypes lists the document types (DocumentInput.type in the OpenAPI
// document).
func DocumentTypes() []string { return []string{"acknowledgment", "oath", "undetermined"} }

// TagType describes one tag type (the TagType enum of the OpenAPI document)
// with the words the editor shows.
type TagType struct {
	Code  string
	Label string
	// Group sorts the palette: "signer" (fields a signer fills in), "text", "notary".
	Group string
	// Width and Height are the size in points a new tag of this type gets.
	Width, Height float64
}

// Palette groups of TagType.Group, in palette order.
const (
	TagGroupSigner = "signer"
	TagGroupText   = "text"
	TagGroupNotary = "notary"
)

// TagTypes lists the 18 tag types (the OpenAPI document's TagType enum) in
// palette order.
func TagTypes() []TagType {
	return []TagType{
		{"SIGNATURETEMPLATE", "Signature", TagGroupSigner, 144, 36},
		{"SIGNHERETAGTEMPLATEANNOTATION", "Sign here", TagGroupSigner, 120, 30},
		{"INITIALSTEMPLATE", "Initials", TagGroupSigner, 60, 30},
		{"INITIALHERETAGTEMPLATEANNOTATION", "Initial here", TagGroupSigner, 72, 30},
		{"DATETEMPLATE", "Date", TagGroupSigner, 96, 20},
		{"FULLNAMETEMPLATE", "Full name", TagGroupSigner, 144, 20},
		{"FREEFORMTEXTTAGTEMPLATEANNOTATION", "Free-form text", TagGroupText, 160, 20},
		{"TEXTANNOT", "Text note", TagGroupText, 160, 40},
		{"DOCUMENTIDTEMPLATE", "Document ID", TagGroupText, 144, 20},
		{"DISCLAIMERTEMPLATE", "Disclaimer", TagGroupText, 216, 54},
		{"NOTARYSESSIONIDTEMPLATE", "Notary session ID", TagGroupNotary, 144, 20},
		{"COMMISSIONIDTEMPLATE", "Commission ID", TagGroupNotary, 120, 20},
		{"COMMISSIONEXPIRATIONTEMPLATE", "Commission expiration", TagGroupNotary, 120, 20},
		{"COMMISSIONSTAMPTEMPLATE", "Commission stamp", TagGroupNotary, 180, 72},
		{"SEALTAGTEMPLATEANNOTATION", "Notary seal", TagGroupNotary, 108, 108},
		{"NOTARYTITLETEMPLATE", "Notary title", TagGroupNotary, 144, 20},
		{"NOTARYCOUNTYTEMPLATE", "Notary county", TagGroupNotary, 120, 20},
		{"NOTARYSTATETEMPLATE", "Notary state", TagGroupNotary, 96, 20},
	}
}

// TagTypeByCode finds a tag type; ok is false for an unknown code.
func TagTypeByCode(code string) (TagType, bool) {
	for _, t := range TagTypes() {
		if t.Code == code {
			return t, true
		}
	}
	return TagType{}, false
}

// IsDateTag tells whether tags of this type take a dateFormat.
func IsDateTag(code string) bool {
	return code == "DATETEMPLATE" || code == "COMMISSIONEXPIRATIONTEMPLATE"
}

// IsStateTag tells whether tags of this type take a stateFormat.
func IsStateTag(code string) bool { return code == "NOTARYSTATETEMPLATE" }

// TagTypeCodes lists the codes of TagTypes.
func TagTypeCodes() []string {
	types := TagTypes()
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = t.Code
	}
	return out
}

// DateFormats lists the accepted tag date formats (the OpenAPI document's
// DateFormat enum: "MMMM do, yyyy" is one value; "MMMM do" is accepted too).
func DateFormats() []string {
	return []string{"MM/DD/YYYY", "DD/MM/YYYY", "MM/DD/YY", "DD/MM/YY", "MMMM do, yyyy", "full", "MMMM", "do", "yyyy", "YYYY", "MMMM do"}
}

// Participant authentication types (ParticipantInput.authenticationType in
// the OpenAPI document).
const (
	AuthNone             = "none"
	AuthPersonalPassword = "personal-password"
	AuthTwoFactor        = "two-factor-authentication"
)

// AuthenticationTypes lists the participant authentication types.
func AuthenticationTypes() []string { return []string{AuthPersonalPassword, AuthTwoFactor, AuthNone} }

// Two-factor contact channels (ParticipantInput.twoFactorContact in the
// OpenAPI document).
const (
	ContactSMS   = "sms"
	ContactEmail = "email"
)

// TwoFactorContacts lists the two-factor contact channels.
func TwoFactorContacts() []string { return []string{ContactSMS, ContactEmail} }

// Limits of a transaction (the "Limits" paragraph of the OpenAPI document's
// description).
const (
	MaxDocuments         = 100
	MaxTagsPerDocument   = 5000
	MaxParticipants      = 100
	MaxMessageLength     = 10000
	MaxXFDFBytes         = 5 << 20
	MaxStateFormatLength = 64
	MaxShortTextLength   = 255
	MaxDescriptionLength = 2000
	MaxCustomDataBytes   = 64 << 10
	MaxTagFontSize       = 200
	MaxCoordinate        = 14400 // the largest page size PDF allows, in points
	MaxOrder             = 100000
)
