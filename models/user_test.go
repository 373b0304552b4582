package models_test

import (
	"errors"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestCreateUserValidatesAndKeepsEmailUniquePerOrganization(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		a := env.NewTenant(t, "A")
		b := env.NewTenant(t, "B")
		if _, err := env.Store.CreateUser(ctx, models.NewUser{OrganizationID: a.Org.ID, Email: "Ann@Example.com", FirstName: "Ann", LastName: "Lee", Password: "correct horse"}); err != nil {
			t.Fatal(err)
		}
		_, err := env.Store.CreateUser(ctx, models.NewUser{OrganizationID: a.Org.ID, Email: "ann@example.COM", FirstName: "Ann", LastName: "Again"})
		var ve *models.ValidationError
		if !errors.As(err, &ve) || ve.Errors[0].Code != "duplicate_email" {
			t.Fatalf("duplicate e-mail in one organization: err = %v", err)
		}
		if _, err := env.Store.CreateUser(ctx, models.NewUser{OrganizationID: b.Org.ID, Email: "ann@example.com", FirstName: "Ann", LastName: "Other"}); err != nil {
			t.Fatalf("same e-mail in another organization: %v", err)
		}
		_, err = env.Store.CreateUser(ctx, models.NewUser{OrganizationID: a.Org.ID, Email: "not an email", FirstName: "", LastName: "X"})
		if !errors.As(err, &ve) || ve.Kind != models.KindInvalid || len(ve.Errors) != 2 {
			t.Fatalf("invalid user: err = %v, want 2 problems", err)
		}
		if _, err := env.Store.CreateUser(ctx, models.NewUser{OrganizationID: 12345, Email: "x@example.com", FirstName: "X", LastName: "Y"}); !errors.As(err, &ve) || ve.Kind != models.KindUnprocessable {
			t.Fatalf("unknown organization: err = %v", err)
		}
	})
}

func TestGetUserInOrganizationIsScoped(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		a := env.NewTenant(t, "A")
		b := env.NewTenant(t, "B")
		if _, err := env.Store.GetUserInOrganization(t.Context(), a.Org.ID, a.Sender.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.GetUserInOrganization(t.Context(), b.Org.ID, a.Sender.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("other organization's user: err = %v, want ErrNotFound", err)
		}
	})
}
