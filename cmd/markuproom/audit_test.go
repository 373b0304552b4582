package main

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
)

// auditDB opens the CLI's database for the test's own edits of the trail.
func (c *cli) auditDB(t *testing.T) *models.Database {
	t.Helper()
	db, err := models.OpenDatabase(context.Background(), models.DatabaseOptions{URL: c.env["DATABASE_URL"], DataDir: c.env["MARKUPROOM_DATA_DIR"]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

var verifiedPattern = regexp.MustCompile(`^(\d+) events in (\d+) chains, chains intact\.\n$`)

// verified runs audit verify, which must exit 0, and returns its count of events.
func (c *cli) verified(t *testing.T) int {
	t.Helper()
	code, out, errOut := c.run("", "audit", "verify")
	m := verifiedPattern.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("audit verify: exit %d, %q %q", code, out, errOut)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// broken runs audit verify, which must exit 1 naming event id.
func (c *cli) broken(t *testing.T, id int64, what string) {
	t.Helper()
	code, _, errOut := c.run("", "audit", "verify")
	if code != 1 || !strings.Contains(errOut, "event "+strconv.FormatInt(id, 10)+" ") {
		t.Fatalf("%s: audit verify exit %d, %q; want 1 naming event %d", what, code, errOut, id)
	}
}

// Operator commands write operator events; audit verify passes over real
// changes and fails, naming the event, on a summary or an actor edited in
// place and on a row deleted; retention keeps what it leaves verifiable.
func TestAuditVerifyOverOperatorChanges(t *testing.T) {
	for name, dbURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t, dbURL())
			c.env["USER"] = "ops-alice"
			org := c.runJSON("", "org", "create", "--name", "Acme Title Co", "--json")["id"].(string)
			c.runJSON("", "user", "create", "--org", org, "--email", "sam@acme.example", "--first-name", "Sam", "--last-name", "Sender", "--json")
			tok := c.runJSON("", "token", "create", "--org", org, "--name", "CI", "--json")["id"].(string)
			c.runJSON("", "token", "revoke", tok, "--json")
			if n := c.verified(t); n != 4 {
				t.Fatalf("%d events after four operator changes", n)
			}
			db := c.auditDB(t).DB
			var events []models.AuditEvent
			if err := db.Order("id").Find(&events).Error; err != nil {
				t.Fatal(err)
			}
			want := []string{"organization.created", "user.created", "token.created", "token.revoked"}
			for i, e := range events {
				if e.Action != want[i] || e.ActorKind != models.AuditActorOperator || e.ActorID != "ops-alice" || e.Via != "cli" ||
					!strings.HasPrefix(e.ActorName, "markuproom ") || strconv.FormatInt(e.OrganizationID, 10) != org || e.Summary == "" {
					t.Fatalf("event %d: %+v", i, e)
				}
			}
			if events[3].ActorName != "markuproom token revoke" {
				t.Fatalf("actor name %q", events[3].ActorName)
			}

			// A store operation of the server adds to the same chain.
			store := models.NewStore(c.auditDB(t), nil, models.StoreOptions{})
			orgID, _ := strconv.ParseInt(org, 10, 64)
			if err := store.SetOrganizationAPIEnabled(context.Background(), orgID, false); err != nil {
				t.Fatal(err)
			}
			// Not sealed until a sealer runs (a server's, here the store's):
			// counted apart.
			if code, out, _ := c.run("", "audit", "verify"); code != 0 || out != "4 events in 1 chains, chains intact.\nNot sealed yet: 1 events (a running server chains them within a second of their commit).\n" {
				t.Fatalf("an unsealed event: exit %d, %q", code, out)
			}
			if err := store.SealAuditBacklog(context.Background()); err != nil {
				t.Fatal(err)
			}
			if n := c.verified(t); n != 5 {
				t.Fatalf("%d events after a store change", n)
			}

			second := events[1]
			db.Model(&models.AuditEvent{}).Where("id = ?", second.ID).Update("summary", "Created nobody")
			c.broken(t, second.ID, "summary edited")
			db.Model(&models.AuditEvent{}).Where("id = ?", second.ID).Update("summary", second.Summary)
			c.verified(t)
			db.Model(&models.AuditEvent{}).Where("id = ?", second.ID).Update("actor_name", "someone else")
			c.broken(t, second.ID, "actor edited")
			db.Model(&models.AuditEvent{}).Where("id = ?", second.ID).Update("actor_name", second.ActorName)
			c.verified(t)
			db.Where("id = ?", second.ID).Delete(&models.AuditEvent{})
			c.broken(t, events[2].ID, "row deleted")
		})
	}
}

// MARKUPROOM_RETENTION_AUDIT deletes the events older than it and leaves a
// checkpoint, so the rest still verifies. The server's clock runs two hours
// ahead of the commands', so their events are past the retention of 1h.
func TestAuditRetentionKeepsTheTrailVerifying(t *testing.T) {
	for name, dbURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t, dbURL())
			c.env["MARKUPROOM_RETENTION_AUDIT"] = "1h"
			org := c.runJSON("", "org", "create", "--name", "Acme", "--json")["id"].(string)
			c.runJSON("", "token", "create", "--org", org, "--name", "Old", "--json")
			a, err := (&cliEnv{getenv: func(k string) string { return c.env[k] }}).openApp(context.Background(), slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			defer a.close()
			if a.cfg.AuditRetention != time.Hour {
				t.Fatalf("retention %v", a.cfg.AuditRetention)
			}
			later := models.NewStore(a.db, a.bucket, models.StoreOptions{Now: func() time.Time { return time.Now().Add(2 * time.Hour) }})
			orgID, _ := strconv.ParseInt(org, 10, 64)
			if _, _, err := later.CreateAPIToken(context.Background(), orgID, "New"); err != nil {
				t.Fatal(err)
			}
			if err := later.SealAuditBacklog(context.Background()); err != nil {
				t.Fatal(err)
			}
			rep, err := later.Sweep(context.Background(), a.retention())
			if err != nil || rep.AuditEvents != 2 {
				t.Fatalf("sweep: %+v %v", rep, err)
			}
			if n := c.verified(t); n != 1 {
				t.Fatalf("%d events kept", n)
			}
		})
	}
}

// The server seals what any process writes within about a second (it runs
// the sealer every 250 ms), and at shutdown what is left; the chains then
// verify.
func TestTheServerSealsTheAuditTrail(t *testing.T) {
	for name, dbURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{"MARKUPROOM_DATA_DIR": t.TempDir(), "DATABASE_URL": dbURL(), "MARKUPROOM_DEMO": "false"}
			s := startServer(t, env)
			ctx := context.Background()
			db, err := models.OpenDatabase(ctx, models.DatabaseOptions{URL: env["DATABASE_URL"], DataDir: env["MARKUPROOM_DATA_DIR"]})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			other := models.NewStore(db, nil, models.StoreOptions{}) // another process's store: it seals nothing itself
			org, err := other.CreateOrganization(ctx, "Acme", true)
			if err != nil {
				t.Fatal(err)
			}
			written := time.Now()
			for {
				n, err := other.CountUnsealedAudit(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					break
				}
				if time.Since(written) > 10*time.Second {
					t.Fatalf("%d events still unsealed after %v", n, time.Since(written))
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Logf("sealed by the server %v after the commit", time.Since(written).Round(time.Millisecond))
			if err := other.SetOrganizationAPIEnabled(ctx, org.ID, false); err != nil {
				t.Fatal(err)
			}
			if code := s.stop(); code != 0 {
				t.Fatalf("server exited with %d: %s", code, s.stderr.String())
			}
			rep, err := other.VerifyAudit(ctx, nil)
			if err != nil || rep.Broken != nil || rep.Unsealed != 0 || rep.Events < 2 {
				t.Fatalf("after the server stopped: %+v %v %v", rep, rep.Broken, err)
			}
		})
	}
}
