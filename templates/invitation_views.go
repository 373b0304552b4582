package templates

import (
	"fmt"
	"strings"
)

// InvitationView is what an invitation e-mail says.
type InvitationView struct {
	Name         string
	Subject      string
	Organization string
	Documents    []string
	// Message is the transaction's personalizedMessage (may be empty).
	Message     string
	ReferenceID string
}

// InvitationText is the plain-text body of an invitation e-mail, saying what
// the HTML body says.
func InvitationText(v InvitationView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\n", v.Name)
	fmt.Fprintf(&b, "%s asks you to review and sign %s:\n\n", v.Organization, documentsPhrase(len(v.Documents)))
	for _, d := range v.Documents {
		fmt.Fprintf(&b, "  - %s\n", d)
	}
	if v.Message != "" {
		fmt.Fprintf(&b, "\n%s\n", v.Message)
	}
	b.WriteString("\nYou will receive the link to sign from the e-signature service.\n")
	if v.ReferenceID != "" {
		fmt.Fprintf(&b, "\nReference: %s\n", v.ReferenceID)
	}
	fmt.Fprintf(&b, "\n-- \nSent by Markup Room on behalf of %s.\n", v.Organization)
	return b.String()
}

func documentsPhrase(n int) string {
	if n == 1 {
		return "this document"
	}
	return fmt.Sprintf("these %d documents", n)
}
