package models

import (
	"strings"

	"github.com/markuproom/markuproom/models/passwordhash"
)

// participantDraft is one participant as a client sent it, read into typed
// fields but not yet checked; nil is an absent field. The API's JSON
// (readParticipantJSON) and the room's participant form
// (ParticipantForm.draft) fill it, and one validator, checkParticipant,
// applies the OpenAPI document's Participant rules to it.
type participantDraft struct {
	ID, Email, FirstName, MiddleName, LastName *string
	Address1, Address2, Country, City, State   *string
	Zip, Phone, ExternalID                     *string
	AuthenticationType, TwoFactorContact       *string
	PersonalPasswordQuestion, PersonalPassword *string
	InviteEmailSubject                         *string
	// Role is the template role the participant takes (an extension).
	Role *string
	// Locale is the participant's language (an extension).
	Locale                            *string
	Order                             *float64
	KBARequired, CredAnalysisRequired *bool
	// refused names the fields sent with a value of the wrong JSON type
	// (the decoder reported it).
	refused []string
}

// checkParticipant is the one validator of a participant's fields
// (400-class problems, below base). What it returns is meaningful only when
// it recorded nothing.
func checkParticipant(p *Problems, base string, d participantDraft) ParticipantInput {
	c := fieldChecker{p: p, base: base, refused: d.refused}
	var in ParticipantInput
	in.ID, _ = c.str("id", d.ID, true, MaxShortTextLength)
	in.Order = c.optInt("order", d.Order, 0, MaxOrder)
	in.Email = c.email("email", d.Email)
	in.FirstName, _ = c.line("firstName", d.FirstName, true, MaxNameLength)
	in.MiddleName = c.optLine("middleName", d.MiddleName, MaxNameLength)
	in.LastName, _ = c.line("lastName", d.LastName, true, MaxNameLength)
	in.Address1 = c.optStr("address1", d.Address1, MaxShortTextLength)
	in.Address2 = c.optStr("address2", d.Address2, MaxShortTextLength)
	in.Country = c.optStr("country", d.Country, MaxShortTextLength)
	in.City = c.optStr("city", d.City, MaxShortTextLength)
	in.State = c.optStr("state", d.State, MaxShortTextLength)
	in.Zip = c.optStr("zip", d.Zip, 32)
	in.Phone = c.optStr("phone", d.Phone, 32)
	if in.Phone != nil && !validPhone(*in.Phone) {
		p.Add(c.at("phone"), "invalid_phone", "problem.participant.phone", "value", Quoted(truncateForDetail(*in.Phone)))
	}
	in.KBARequired = d.KBARequired
	in.CredAnalysisRequired = d.CredAnalysisRequired
	in.ExternalID = c.optStr("externalId", d.ExternalID, MaxShortTextLength)
	in.AuthenticationType, _ = c.enum("authenticationType", d.AuthenticationType, true, AuthenticationTypes())
	in.TwoFactorContact, _ = c.enum("twoFactorContact", d.TwoFactorContact, true, TwoFactorContacts())
	in.PersonalPasswordQuestion = c.optStr("personalPasswordQuestion", d.PersonalPasswordQuestion, MaxShortTextLength)
	if pw, ok := c.str("personalPassword", d.PersonalPassword, false, 0); ok {
		if len(pw) > passwordhash.MaxPasswordLength {
			p.Add(c.at("personalPassword"), "too_long", "problem.participant.password_too_long", "max", passwordhash.MaxPasswordLength)
		} else if pw != "" {
			in.PersonalPassword = &pw
		}
	}
	in.InviteEmailSubject = c.headerStr("inviteEmailSubject", d.InviteEmailSubject, MaxShortTextLength)
	if d.Role != nil {
		in.Role, _ = c.line("role", d.Role, true, MaxNameLength)
	}
	in.Locale = c.locale("locale", d.Locale)
	return in
}

// draft decodes a posted participant form for the participant id: the
// names are always sent (an empty one is blank); the e-mail is trimmed; an
// optional field left blank is absent; no authentication type means none
// and no two-factor contact means e-mail; the checkboxes are booleans.
func (f ParticipantForm) draft(id string) participantDraft {
	email := strings.TrimSpace(f.Email)
	d := participantDraft{
		ID: &id, FirstName: &f.FirstName, LastName: &f.LastName, Email: &email,
		AuthenticationType: &f.AuthenticationType, TwoFactorContact: &f.TwoFactorContact,
		KBARequired: &f.KBARequired, CredAnalysisRequired: &f.CredAnalysisRequired,
	}
	if f.AuthenticationType == "" {
		none := AuthNone
		d.AuthenticationType = &none
	}
	if f.TwoFactorContact == "" {
		byEmail := ContactEmail
		d.TwoFactorContact = &byEmail
	}
	if f.Locale != "" {
		d.Locale = &f.Locale
	}
	for _, o := range []struct {
		value string
		to    **string
	}{{f.MiddleName, &d.MiddleName}, {f.Phone, &d.Phone}, {f.PersonalPasswordQuestion, &d.PersonalPasswordQuestion}, {f.PersonalPassword, &d.PersonalPassword}} {
		if v := o.value; strings.TrimSpace(v) != "" {
			*o.to = &v
		}
	}
	return d
}
