package handlers

import (
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/web/i18n"
)

// tagTypeIDs are the catalog ids of each tag type's name and one-line
// description (the API keeps the codes; people read these words).
var tagTypeIDs = map[string][2]string{
	tagtype.Signature:            {"tagtype.signature", "tagtype.signature.description"},
	tagtype.SignHere:             {"tagtype.sign_here", "tagtype.sign_here.description"},
	tagtype.Initials:             {"tagtype.initials", "tagtype.initials.description"},
	tagtype.InitialHere:          {"tagtype.initial_here", "tagtype.initial_here.description"},
	tagtype.Date:                 {"tagtype.date", "tagtype.date.description"},
	tagtype.FullName:             {"tagtype.full_name", "tagtype.full_name.description"},
	tagtype.FreeText:             {"tagtype.free_text", "tagtype.free_text.description"},
	tagtype.TextNote:             {"tagtype.text_note", "tagtype.text_note.description"},
	tagtype.DocumentID:           {"tagtype.document_id", "tagtype.document_id.description"},
	tagtype.Disclaimer:           {"tagtype.disclaimer", "tagtype.disclaimer.description"},
	tagtype.NotarySessionID:      {"tagtype.notary_session_id", "tagtype.notary_session_id.description"},
	tagtype.CommissionID:         {"tagtype.commission_id", "tagtype.commission_id.description"},
	tagtype.CommissionExpiration: {"tagtype.commission_expiration", "tagtype.commission_expiration.description"},
	tagtype.CommissionStamp:      {"tagtype.commission_stamp", "tagtype.commission_stamp.description"},
	tagtype.Seal:                 {"tagtype.seal", "tagtype.seal.description"},
	tagtype.NotaryTitle:          {"tagtype.notary_title", "tagtype.notary_title.description"},
	tagtype.NotaryCounty:         {"tagtype.notary_county", "tagtype.notary_county.description"},
	tagtype.NotaryState:          {"tagtype.notary_state", "tagtype.notary_state.description"},
}

// tagTypeName is a tag type's name in l's language ("Firma"); an unknown
// code is itself.
func tagTypeName(l *i18n.Localizer, code string) string {
	if ids, ok := tagTypeIDs[code]; ok {
		return l.T(ids[0])
	}
	return code
}

// tagTypeDescription is the palette's one line about a tag type.
func tagTypeDescription(l *i18n.Localizer, code string) string {
	if ids, ok := tagTypeIDs[code]; ok {
		return l.T(ids[1])
	}
	return ""
}

// tagTypeWords is what a date tag of the type holds ("Date signed"), else its name.
func tagTypeWords(l *i18n.Localizer, code string) string {
	if code == tagtype.Date {
		return l.T("tagtype.date.words")
	}
	return tagTypeName(l, code)
}

// tagGroupTitle is a palette group's title.
func tagGroupTitle(l *i18n.Localizer, group string) string {
	switch group {
	case tagtype.GroupSigner:
		return l.T("tagtype.group.signer")
	case tagtype.GroupText:
		return l.T("tagtype.group.text")
	case tagtype.GroupNotary:
		return l.T("tagtype.group.notary")
	}
	return group
}
