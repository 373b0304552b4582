package handlers

import (
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// The API's own words (docs/words.md): the API speaks English, and its JSON
// carries one sentence the product makes, the default invitation subject.
// Like the problem writer's English detail, it is written here and only
// here, from the catalog.

// effectiveInviteSubject is the invitation subject the API reads back: the
// one the caller gave, else the default in English (the API's language;
// stored as NULL, models.inviteSubject).
func effectiveInviteSubject(t *models.Transaction) *string {
	if t.InviteEmailSubject != nil {
		return t.InviteEmailSubject
	}
	s := i18n.English().T("mail.invitation.subject")
	return &s
}
