package models

// Transaction statuses (SPEC 2.1).
const (
	StatusDraft        = "draft"
	StatusESignPending = "esign_pending"
)

// TransactionStatuses lists the statuses a transaction may have.
func TransactionStatuses() []string { return []string{StatusDraft, StatusESignPending} }

// SessionTypes lists the document session types (SPEC 2.2).
func SessionTypes() []string { return []string{"esign"} }

// DocumentTypes lists the document types (SPEC 2.2).
func DocumentTypes() []string { return []string{"acknowledgment", "oath", "undetermined"} }

// TagType describes one tag type of SPEC 2.3 with the words the editor shows.
type TagType struct {
	Code  string
	Label string
	// Group sorts the palette: "signature", "text", "notary".
	Group string
}

// TagTypes lists the 18 tag types of SPEC 2.3 in palette order.
func TagTypes() []TagType {
	return []TagType{
		{"SIGNATURETEMPLATE", "Signature", "signature"},
		{"SIGNHERETAGTEMPLATEANNOTATION", "Sign here", "signature"},
		{"INITIALSTEMPLATE", "Initials", "signature"},
		{"INITIALHERETAGTEMPLATEANNOTATION", "Initial here", "signature"},
		{"DATETEMPLATE", "Date", "text"},
		{"FULLNAMETEMPLATE", "Full name", "text"},
		{"FREEFORMTEXTTAGTEMPLATEANNOTATION", "Free-form text", "text"},
		{"TEXTANNOT", "Text note", "text"},
		{"DOCUMENTIDTEMPLATE", "Document ID", "text"},
		{"DISCLAIMERTEMPLATE", "Disclaimer", "text"},
		{"NOTARYSESSIONIDTEMPLATE", "Notary session ID", "notary"},
		{"COMMISSIONIDTEMPLATE", "Commission ID", "notary"},
		{"COMMISSIONEXPIRATIONTEMPLATE", "Commission expiration", "notary"},
		{"COMMISSIONSTAMPTEMPLATE", "Commission stamp", "notary"},
		{"SEALTAGTEMPLATEANNOTATION", "Notary seal", "notary"},
		{"NOTARYTITLETEMPLATE", "Notary title", "notary"},
		{"NOTARYCOUNTYTEMPLATE", "Notary county", "notary"},
		{"NOTARYSTATETEMPLATE", "Notary state", "notary"},
	}
}

// TagTypeCodes lists the codes of TagTypes.
func TagTypeCodes() []string {
	types := TagTypes()
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = t.Code
	}
	return out
}

// DateFormats lists the accepted tag date formats (SPEC 2.3 as DESIGN §4
// reads it: "MMMM do, yyyy" is one value; "MMMM do" is accepted too).
func DateFormats() []string {
	return []string{"MM/DD/YYYY", "DD/MM/YYYY", "MM/DD/YY", "DD/MM/YY", "MMMM do, yyyy", "full", "MMMM", "do", "yyyy", "YYYY", "MMMM do"}
}

// Participant authentication types (SPEC 2.4).
const (
	AuthNone             = "none"
	AuthPersonalPassword = "personal-password"
	AuthTwoFactor        = "two-factor-authentication"
)

// AuthenticationTypes lists the participant authentication types.
func AuthenticationTypes() []string { return []string{AuthPersonalPassword, AuthTwoFactor, AuthNone} }

// Two-factor contact channels (SPEC 2.4).
const (
	ContactSMS   = "sms"
	ContactEmail = "email"
)

// TwoFactorContacts lists the two-factor contact channels.
func TwoFactorContacts() []string { return []string{ContactSMS, ContactEmail} }

// Limits of a transaction (DESIGN §3).
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
