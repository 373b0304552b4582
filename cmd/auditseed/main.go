// Command auditseed writes sample audit events into a Markup Room
// database, for the browser tests of the console's audit page
// (web/e2e/engines-admin-audit.test.mjs): the events go through the
// store's own RecordAudit, so they are chained and verify like the
// server's. It reads the database as the server does (DATABASE_URL, else
// the SQLite file in MARKUPROOM_DATA_DIR):
//
//	auditseed [-count 60] [-transaction ID]
//
// The events belong to the first organization; they cycle through five
// actions (participant.renamed, participant.added, document.renamed,
// room.tag_created, transaction.replaced) and three actors (an API token
// "Import job", an admin, a room's sender), those of a transaction naming
// -transaction.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdfjob"
)

func main() {
	pdfjob.ServeIfWorker() // its store's PDF workers are this binary too
	count := flag.Int("count", 60, "how many events to write")
	txID := flag.String("transaction", "", "the transaction the events concern (a transaction's id)")
	flag.Parse()
	if err := seed(context.Background(), *count, *txID); err != nil {
		fmt.Fprintln(os.Stderr, "auditseed:", err)
		os.Exit(1)
	}
}

// sampleActors are the actors the events cycle through.
var sampleActors = []models.AuditActor{
	{Kind: models.AuditActorAPIToken, ID: "1", Name: "Import job", Via: "api", Address: "192.0.2.7"},
	{Kind: models.AuditActorAdmin, ID: "1", Name: "admin@example.com", Via: "console", Address: "198.51.100.23"},
	{Kind: models.AuditActorRoom, ID: "room-7f3a", Name: "Sam Sender · Markup Room", Via: "room", Address: "203.0.113.40"},
}

// sampleActions are the actions the events cycle through, with their
// target's type and a summary.
var sampleActions = []struct{ action, target, summary string }{
	{"participant.renamed", "participant", "Renamed Robin Seller to Robin Seller-Smith"},
	{"participant.added", "participant", "Added Dana Doe <dana@example.com> as signer 3"},
	{"document.renamed", "document", "Renamed “Purchase agreement” to “Purchase agreement (signed copy)”"},
	{"room.tag_created", "tag", "Signature tag for Pat Buyer on page 2 of Purchase agreement"},
	{"transaction.replaced", "transaction", "Replaced through the API: 1 document, 2 participants, 4 tags"},
}

func seed(ctx context.Context, count int, txID string) error {
	db, err := models.OpenDatabase(ctx, models.DatabaseOptions{URL: os.Getenv("DATABASE_URL"), DataDir: os.Getenv("MARKUPROOM_DATA_DIR")})
	if err != nil {
		return err
	}
	st := models.NewStore(db, nil, models.StoreOptions{})
	orgs, err := st.OrganizationNames(ctx)
	if err != nil {
		return err
	}
	if len(orgs) == 0 {
		return errors.New("no organization")
	}
	for i := range count {
		a := sampleActions[i%len(sampleActions)]
		e := models.AuditEntry{OrganizationID: orgs[0].ID, Action: a.action, TargetType: a.target,
			TargetID: fmt.Sprintf("%c%d", a.target[0], i), TransactionID: txID, Summary: fmt.Sprintf("%s (#%d)", a.summary, i)}
		if a.target == "transaction" {
			e.TargetID = txID
		}
		actorCtx := models.WithAuditActor(ctx, sampleActors[i%len(sampleActors)])
		if err := st.RecordAudit(actorCtx, e); err != nil {
			return err
		}
	}
	return nil
}
