package models_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// Sign-ins write audit events: a success and a refusal in the trail of the
// organization of the user the e-mail names (organization 0 for an e-mail
// nobody has), each refusal during a lockout too, by the e-mail typed.
func TestSignInsAreAudited(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		s := env.Store
		tenant := env.NewTenant(t, "Acme")
		ada, err := s.CreateUser(ctx, models.NewUser{OrganizationID: tenant.Org.ID, Email: "ada@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: "correct horse"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AdminSignIn(ctx, "ada@example.com", "correct horse", "192.0.2.5"); err != nil {
			t.Fatal(err)
		}
		_, _ = s.AdminSignIn(ctx, "nobody@example.com", "x", "192.0.2.6")
		for i := 0; i < models.LoginFailuresPerAccount+1; i++ {
			_, _ = s.AdminSignIn(ctx, "ADA@example.com", "wrong", "192.0.2.7")
		}
		events := func(org int64, action string) []models.AuditEvent {
			page, err := s.ListAuditEvents(ctx, models.AuditFilter{OrganizationID: &org, Action: action}, models.AuditOldestFirst, 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			return page.Events
		}
		in := events(tenant.Org.ID, "admin.signed_in")
		if len(in) != 1 || in[0].ActorKind != models.AuditActorAdmin || in[0].ActorName != "ada@example.com" || in[0].Via != "console" ||
			in[0].ClientAddr != "192.0.2.5" || in[0].TargetID != strconv.FormatInt(ada.ID, 10) || in[0].ActorID != strconv.FormatInt(ada.ID, 10) {
			t.Fatalf("signed in: %+v", in)
		}
		if nobody := events(0, "admin.sign_in_refused"); len(nobody) != 1 || nobody[0].ActorName != "nobody@example.com" || nobody[0].ActorID != "" {
			t.Fatalf("unknown e-mail: %+v", nobody)
		}
		if refused := events(tenant.Org.ID, "admin.sign_in_refused"); len(refused) != models.LoginFailuresPerAccount || refused[0].ActorName != "ADA@example.com" {
			t.Fatalf("refused: %d events, %+v", len(refused), refused)
		}
		if locked := events(tenant.Org.ID, "admin.locked_out"); len(locked) != 1 || locked[0].ClientAddr != "192.0.2.7" {
			t.Fatalf("locked out: %+v", locked)
		}
		if rep, err := s.VerifyAudit(ctx, nil); err != nil || rep.Broken != nil {
			t.Fatalf("verify: %+v %v", rep, err)
		}
	})
}
