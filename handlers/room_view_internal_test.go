package handlers

import (
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

func TestInvitationWordsFollowTheOutbox(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		asked bool
		n     map[models.MessageStatus]int64
		want  string
	}{
		{false, nil, "Not e-mailed"},
		{false, map[models.MessageStatus]int64{models.MessageSent: 2}, "Not e-mailed"},
		{true, map[models.MessageStatus]int64{models.MessagePending: 2}, "Invitations queued"},
		{true, map[models.MessageStatus]int64{models.MessageSent: 1, models.MessageSending: 1}, "Invitations queued"},
		{true, map[models.MessageStatus]int64{models.MessageHeld: 1, models.MessagePending: 1}, "Invitations held: no SMTP server configured"},
		{true, map[models.MessageStatus]int64{models.MessageSent: 1, models.MessageDead: 1}, "Invitations not delivered: see Outgoing messages in the console"},
		{true, map[models.MessageStatus]int64{models.MessageSent: 2}, "Invitations sent"},
		{true, map[models.MessageStatus]int64{}, "No invitations in the outbox"},
	} {
		if got := i18n.English().Say(invitationWords(c.asked, c.n)); got != c.want {
			t.Errorf("invitationWords(%v, %v) = %q, want %q", c.asked, c.n, got, c.want)
		}
	}
}
