package models_test

import (
	"context"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// An admin's change and its activity row are one database transaction: the
// row comes with the change, a failed change leaves no row, a row that
// cannot be written undoes the change, and calls without an admin (API,
// CLI) record nothing.
func TestAdminChangesAreAuditedInTheirOwnTransaction(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		admin := models.AdminActor{UserID: tenant.Sender.ID, Email: "admin@example.com", ClientAddr: "192.0.2.7"}
		ctx := models.WithAdminActor(t.Context(), admin)
		log := func() []models.Activity {
			rows, err := env.Store.ListActivity(context.Background(), 50, 0)
			if err != nil {
				t.Fatal(err)
			}
			return rows
		}
		if n := len(log()); n != 0 {
			t.Fatalf("set-up without an admin recorded %d rows", n)
		}

		// With the change.
		if _, _, err := env.Store.CreateAPIToken(ctx, tenant.Org.ID, "CRM"); err != nil {
			t.Fatal(err)
		}
		rows := log()
		if len(rows) != 1 || rows[0].Action != models.ActivityCreate || rows[0].Actor != admin.Email ||
			rows[0].ClientAddr != admin.ClientAddr || rows[0].UserID == nil || *rows[0].UserID != admin.UserID {
			t.Fatalf("after creating a token: %+v", rows)
		}

		// A failed change: no row.
		if err := env.Store.RevokeOrganizationToken(ctx, tenant.Org.ID+1, tenant.TokenID); err == nil {
			t.Fatal("another organization's token was revoked")
		}
		if err := env.Store.DisableUser(ctx, tenant.Org.ID, tenant.Sender.ID+1000); err == nil {
			t.Fatal("an unknown user was disabled")
		}
		if n := len(log()); n != 1 {
			t.Fatalf("failed changes recorded %d rows", n-1)
		}

		// A row that cannot be written: the change is undone.
		restore := models.FailActivityWrites(env.Store)
		if _, err := env.Store.CreateOrganization(ctx, "Ghost", true); err == nil {
			t.Fatal("an organization was created without its activity row")
		}
		if err := env.Store.RevokeOrganizationToken(ctx, tenant.Org.ID, tenant.TokenID); err == nil {
			t.Fatal("a token was revoked without its activity row")
		}
		if err := env.Store.SetOrganizationAPIEnabled(ctx, tenant.Org.ID, false); err == nil {
			t.Fatal("API access was switched without its activity row")
		}
		restore()
		orgs, err := env.Store.AdminListOrganizations(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(orgs) != 1 || !orgs[0].APIEnabled || orgs[0].Tokens != 2 {
			t.Fatalf("changes whose activity row failed were kept: %+v", orgs)
		}
		if _, err := env.Store.AuthenticateAPIToken(t.Context(), tenant.Token); err != nil {
			t.Fatalf("the token whose revocation failed no longer works: %v", err)
		}

		// Without an admin in the context (API, CLI): the change, no row.
		if _, err := env.Store.CreateOrganization(t.Context(), "From the CLI", true); err != nil {
			t.Fatal(err)
		}
		if n := len(log()); n != 1 {
			t.Fatalf("a change without an admin recorded %d rows", n-1)
		}
	})
}
