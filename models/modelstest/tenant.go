package modelstest

import (
	"context"
	"testing"

	"github.com/markuproom/markuproom/models"
)

// Tenant is an organization with a sender user and an API token.
type Tenant struct {
	Org     *models.Organization
	Sender  *models.User
	Token   string
	TokenID int64
}

// NewTenant creates an organization with API access, a sender and a token.
func (e *Env) NewTenant(t testing.TB, name string) *Tenant {
	t.Helper()
	ctx := context.Background()
	org, err := e.Store.CreateOrganization(ctx, name, true)
	if err != nil {
		t.Fatalf("create organization: %v", err)
	}
	user, err := e.Store.CreateUser(ctx, models.NewUser{OrganizationID: org.ID, Email: "sender@" + slug(name) + ".example.com", FirstName: "Sam", LastName: "Sender"})
	if err != nil {
		t.Fatalf("create user: %v", err)
	}
	tok, plaintext, err := e.Store.CreateAPIToken(ctx, org.ID, "test")
	if err != nil {
		t.Fatalf("create token: %v", err)
	}
	return &Tenant{Org: org, Sender: user, Token: plaintext, TokenID: tok.ID}
}

func slug(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			out = append(out, r)
		case r >= 'A' && r <= 'Z':
			out = append(out, r+'a'-'A')
		}
	}
	if len(out) == 0 {
		return "org"
	}
	return string(out)
}
