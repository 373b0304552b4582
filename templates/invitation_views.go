package templates

import (
	"context"
	"fmt"
	"strings"
)

// InvitationView is what an invitation e-mail says. Its words are in the
// language of the context it is rendered with (the participant's, else the
// room's, else English; docs/i18n.md), the fields are data and stay as given.
type InvitationView struct {
	Name string
	// Subject is the caller's; "" for the default (InvitationSubject).
	Subject      string
	Organization string
	Documents    []string
	// Message is the transaction's personalizedMessage (may be empty).
	Message     string
	ReferenceID string
}

// InvitationText is the plain-text body of an invitation e-mail, saying what
// the HTML body says.
func InvitationText(ctx context.Context, v InvitationView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", t(ctx, "mail.invitation.greeting", "name", v.Name))
	fmt.Fprintf(&b, "%s\n\n", invitationAsks(ctx, v))
	for _, d := range v.Documents {
		fmt.Fprintf(&b, "  - %s\n", d)
	}
	if v.Message != "" {
		fmt.Fprintf(&b, "\n%s\n", v.Message)
	}
	fmt.Fprintf(&b, "\n%s\n", t(ctx, "mail.invitation.link_notice"))
	if v.ReferenceID != "" {
		fmt.Fprintf(&b, "\n%s\n", t(ctx, "mail.invitation.reference", "reference", v.ReferenceID))
	}
	fmt.Fprintf(&b, "\n-- \n%s\n", t(ctx, "mail.invitation.footer", "organization", v.Organization))
	return b.String()
}

// invitationAsks is the sentence that names the organization and the
// number of documents.
func invitationAsks(ctx context.Context, v InvitationView) string {
	return t(ctx, "mail.invitation.asks", "organization", v.Organization, "count", len(v.Documents))
}

// organizationMark stands for the organization in the asking sentence
// while the HTML body splits it to set the name in bold.
const organizationMark = "\x00organization\x00"

// invitationAsksParts is the asking sentence around the organization's
// name (which the HTML body writes in bold), in the sentence's own order.
func invitationAsksParts(ctx context.Context, v InvitationView) (before, after string) {
	s := t(ctx, "mail.invitation.asks", "organization", organizationMark, "count", len(v.Documents))
	before, after, _ = strings.Cut(s, organizationMark)
	return before, after
}

// InvitationSubject is the invitation's subject: the caller's, else the
// default in the context's language.
func InvitationSubject(ctx context.Context, v InvitationView) string {
	if v.Subject != "" {
		return v.Subject
	}
	return t(ctx, "mail.invitation.subject")
}
