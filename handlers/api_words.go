package handlers

import (
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// The API's own words (docs/words.md): the API speaks English, and its JSON
// carries one sentence the product makes, the default invitation subject.
// Like the problem writer's English detail, it is written here and only
// here, from the catalog; and here a read sent back is understood.

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

// parseTransactionInput is models.ParseTransactionInput for the API and
// MCP: a body that carries the API's own default subject, as every read of
// a transaction without a subject of its own does, asks for the default
// (none), which each invitation says in its reader's language, not for
// those English words (docs/decisions.md, "Invitation subjects").
func parseTransactionInput(body []byte) (*models.TransactionInput, error) {
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		return nil, err
	}
	english := i18n.English().T("mail.invitation.subject")
	readBack := func(s **string) {
		if *s != nil && **s == english {
			*s = nil
		}
	}
	readBack(&in.InviteEmailSubject)
	for i := range in.Participants {
		readBack(&in.Participants[i].InviteEmailSubject)
	}
	return in, nil
}
