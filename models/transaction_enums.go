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
